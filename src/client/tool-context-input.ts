import { InvalidArgumentError } from '../errors/index.js';

/**
 * Checks a tool-context map given to a ChatClient and returns a shallow copy. The messages name
 * the problem, never a value; a missing map and an empty key get Spring AI's texts. A `null`
 * value is kept: it is plain data in JavaScript (Spring AI's null check guards a Java map copy).
 */
export function checkToolContext(context: unknown): Record<string, unknown> {
  if (context === null || context === undefined) {
    throw new InvalidArgumentError('context cannot be null');
  }
  if (!isPlainObject(context)) throw new InvalidArgumentError('context must be a plain object');
  for (const key of Object.keys(context)) {
    if (key === '') throw new InvalidArgumentError('context key cannot be null or empty');
  }
  return { ...context };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
