import { IllegalStateError } from '../errors/index.js';

/**
 * Checks what an embedding model returned for `count` texts and scales each vector to length 1, as
 * 32-bit floats. One vector per text, each a non-empty array of finite numbers, all of one
 * dimension: a NaN or a short vector would otherwise score as a silent zero or a truncated dot
 * product, and be cached as such for every process sharing the store.
 *
 * @throws IllegalStateError naming what is wrong with the model's answer.
 */
export function embeddedVectors(embedded: unknown, count: number): Float32Array[] {
  if (!Array.isArray(embedded) || embedded.length !== count) {
    throw new IllegalStateError(
      `embedding model returned ${Array.isArray(embedded) ? embedded.length : 'no'} vectors for ${count} texts`,
    );
  }
  const vectors = embedded.map((raw: unknown) => {
    // Typed arrays are welcome: in-process models (Transformers.js, ONNX) hand out Float32Arrays.
    const values = Array.isArray(raw) || isNumberArrayView(raw) ? (raw as ArrayLike<unknown>) : [];
    let finite = values.length > 0;
    for (let i = 0; finite && i < values.length; i++) {
      const value = values[i];
      finite = typeof value === 'number' && Number.isFinite(value);
    }
    if (!finite) {
      throw new IllegalStateError(
        'embedding model returned a vector that is not a non-empty array of finite numbers',
      );
    }
    return unitVector(values as ArrayLike<number>);
  });
  const dimension = vectors[0]?.length;
  const other = vectors.find((vector) => vector.length !== dimension);
  if (other !== undefined) {
    throw new IllegalStateError(
      `embedding model returned vectors of ${dimension} and ${other.length} dimensions in one batch`,
    );
  }
  return vectors;
}

/** A typed array of numbers (`Float32Array`, `Float64Array`, …; not a `BigInt64Array` or a `DataView`). */
function isNumberArrayView(value: unknown): boolean {
  return (
    ArrayBuffer.isView(value) &&
    !(value instanceof DataView) &&
    !(value instanceof BigInt64Array) &&
    !(value instanceof BigUint64Array)
  );
}

/** The vector scaled to length 1, as 32-bit floats (the zero vector stays zero). */
function unitVector(vector: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += (vector[i] as number) ** 2;
  norm = Math.sqrt(norm);
  const out = new Float32Array(vector.length);
  if (norm === 0 || !Number.isFinite(norm)) return out;
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] as number) / norm;
  return out;
}

/**
 * Whether a vector read from a shared embedding cache can be used as it is: a non-empty
 * `Float32Array` of finite values. Anything else (a row written by another program, a cache of
 * your own returning plain arrays) is a miss: the tool is embedded again and the entry rewritten.
 */
export function isUsableCachedVector(vector: unknown): vector is Float32Array {
  return vector instanceof Float32Array && vector.length > 0 && vector.every(Number.isFinite);
}
