import { InvalidArgumentError } from '../errors/index.js';

// The stores keep a tool embedding as its 32-bit floats, little-endian, whatever the machine: a
// vector one process wrote reads back the same in every other.

/** The bytes of a vector: 4 per value, little-endian. */
export function vectorToBytes(vector: Float32Array): Buffer {
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i] as number, i * 4);
  return bytes;
}

/** The vector of {@link vectorToBytes}' bytes; `undefined` for bytes that cannot be one. */
export function vectorFromBytes(bytes: Uint8Array): Float32Array | undefined {
  if (bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(bytes.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.readFloatLE(i * 4);
  return vector;
}

/** Checks the keys a cache is asked for. */
export function assertCacheKeys(keys: readonly string[]): void {
  if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string' && key !== '')) {
    throw new InvalidArgumentError('cache keys must be non-empty strings');
  }
}

/** Checks the entries a cache is given. */
export function assertCacheEntries(
  entries: readonly { readonly key: string; readonly vector: Float32Array }[],
): void {
  assertCacheKeys(entries.map((entry) => entry?.key));
  if (!entries.every((entry) => entry.vector instanceof Float32Array && entry.vector.length > 0)) {
    throw new InvalidArgumentError('cache vectors must be non-empty Float32Arrays');
  }
}

/** Splits a list into pieces of at most `size` (stores bound how many values one call takes). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(items.slice(start, start + size));
  return out;
}
