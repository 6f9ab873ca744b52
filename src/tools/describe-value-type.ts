/**
 * The kind of a value in words, for messages that must not quote the value itself: `'null'`,
 * `'an array'`, `'an object'`, `'a number'`, `'a bigint'`, `'a symbol'`, `'a function'`,
 * `'a string'`, `'a boolean'`, `'undefined'`.
 */
export function describeValueType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  if (type === 'undefined') return 'undefined';
  return type === 'object' ? 'an object' : `a ${type}`;
}
