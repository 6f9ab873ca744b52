/** A vector scaled to length 1, as 32-bit floats (the zero vector stays zero). */
export function unitVector(vector: readonly number[]): Float32Array {
  const norm = Math.hypot(...vector) || 1;
  return Float32Array.from(vector, (value) => value / norm);
}

/** The dot product of two vectors of one length: their cosine when both have length 1. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
