/**
 * A small deterministic PRNG (mulberry32) for fuzz suites: the same seed gives the same cases on
 * every machine, so a failure names a seed and a case number that replay it exactly.
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [0, bound). */
  below(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }

  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }

  /** One item of a non-empty list of `[weight, item]`, each as likely as its weight. */
  pickWeighted<T>(items: readonly (readonly [number, T])[]): T {
    let rest = this.next() * items.reduce((sum, [weight]) => sum + weight, 0);
    for (const [weight, item] of items) {
      rest -= weight;
      if (rest < 0) return item;
    }
    return (items[items.length - 1] as readonly [number, T])[1];
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}
