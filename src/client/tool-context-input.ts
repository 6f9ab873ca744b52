import { InvalidArgumentError } from '../errors/index.js';

/**
 * Checks a tool-context map given to a ChatClient and returns a shallow copy. The messages name
 * the problem, never a value.
 */
export function checkToolContext(context: unknown): Record<string, unknown> {
  if (context === null || context === undefined) {
    throw new InvalidArgumentError('context cannot be null');
  }
  const prototype = typeof context === 'object' ? Object.getPrototypeOf(context) : undefined;
  if (
    typeof context !== 'object' ||
    Array.isArray(context) ||
    (prototype !== Object.prototype && prototype !== null)
  ) {
    throw new InvalidArgumentError('context must be a plain object');
  }
  for (const key of Object.keys(context)) {
    if (key === '') throw new InvalidArgumentError('context key cannot be null or empty');
  }
  return { ...(context as Record<string, unknown>) };
}
