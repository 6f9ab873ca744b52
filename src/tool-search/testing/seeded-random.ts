/** A small deterministic generator of numbers in [0, 1), so a failing test can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** One of the values, chosen by the generator. */
export function pickWith<T>(next: () => number, values: readonly T[]): T {
  return values[Math.floor(next() * values.length)] as T;
}
