import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

/** Bytes of the header every bundled table starts with: magic, version and three counts. */
export const TABLE_HEADER_BYTES = 20;

/**
 * A copy of a table's bytes (so typed-array views start at a 4-byte boundary) and a view of it,
 * once its 4-letter magic and version 1 are checked. @throws Error naming the table otherwise.
 */
export function openTable(
  bytes: Uint8Array,
  magic: string,
  name: string,
): { buffer: ArrayBuffer; view: DataView } {
  const buffer = new Uint8Array(bytes).buffer;
  const view = new DataView(buffer);
  const found = new TextDecoder().decode(new Uint8Array(buffer, 0, Math.min(4, bytes.length)));
  if (bytes.length < TABLE_HEADER_BYTES || found !== magic || view.getUint32(4, true) !== 1) {
    throw new Error(`the ${name} table is not a version 1 ${magic} table`);
  }
  return { buffer, view };
}

/**
 * A function that reads, gunzips and decodes a table file on its first call and shares the
 * result with every later call (a failed read is retried on the next call).
 */
export function bundledTableLoader<T>(
  url: URL,
  decode: (bytes: Uint8Array) => T,
): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= readFile(url)
      .then((compressed) => promisify(gunzip)(compressed))
      .then(decode)
      .catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
    return loading;
  };
}
