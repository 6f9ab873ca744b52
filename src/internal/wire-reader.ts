import type { ProviderErrors } from './provider-errors.js';

/**
 * Reads the fields of a provider's JSON answer with their documented types. `null` counts as an
 * absent optional field (compatible servers write both); any other value of the wrong type
 * throws the adapter's non-retryable "malformed response" error naming the field, so a hostile or
 * broken answer never reaches the rest of the code as a raw `TypeError`, and never as text like
 * `[object Object]`. Values are described by their type, never quoted.
 */
export class WireReader {
  readonly #errors: ProviderErrors;

  constructor(errors: ProviderErrors) {
    this.#errors = errors;
  }

  /** The adapter's errors, for the checks a field needs beyond its type. */
  get errors(): ProviderErrors {
    return this.#errors;
  }

  /** A required JSON object (not an array). */
  object(value: unknown, where: string): Record<string, unknown> {
    if (isRecord(value)) return value;
    throw this.#wrong(where, 'an object', value);
  }

  /** An optional JSON object. */
  optionalObject(value: unknown, where: string): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    return this.object(value, where);
  }

  /** A required array. */
  array(value: unknown, where: string): unknown[] {
    if (Array.isArray(value)) return value;
    throw this.#wrong(where, 'an array', value);
  }

  /** An optional array. */
  optionalArray(value: unknown, where: string): unknown[] | undefined {
    if (value === undefined || value === null) return undefined;
    return this.array(value, where);
  }

  /** An optional string. */
  optionalString(value: unknown, where: string): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    throw this.#wrong(where, 'a string', value);
  }

  /**
   * An optional position: an integer from 0 to `limit - 1`. The limit keeps a hostile index
   * (`4294967294`) from costing memory or time anywhere it is used.
   */
  optionalIndex(value: unknown, where: string, limit: number): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < limit) {
      return value;
    }
    throw this.#errors.malformed(
      `${where} must be an integer from 0 to ${limit - 1}, not ${describeValue(value)}`,
    );
  }

  #wrong(where: string, expected: string, value: unknown): Error {
    return this.#errors.malformed(`${where} must be ${expected}, not ${describeValue(value)}`);
  }
}

/** True for a plain JSON object (not `null`, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value's JSON type in words, plus the number itself for numbers (never a string's content). */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'number':
      return `the number ${value}`;
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
