/** One item kept by {@link TopScores}. */
export interface ScoredItem {
  readonly item: number;
  readonly score: number;
}

/**
 * The `limit` best of a stream of scored items, without sorting them all: a search ranks every
 * tool of a catalogue to return a handful. Higher scores come first; equal scores prefer the
 * lower `order` (a tie-break key such as indexing order), so the outcome does not depend on the
 * order items are offered in. Kept in a binary heap whose root is the worst kept item.
 */
export class TopScores {
  readonly #limit: number;
  readonly #items: number[] = [];
  readonly #scores: number[] = [];
  readonly #orders: number[] = [];

  /** @param limit how many items to keep; anything below 1 (or `NaN`) keeps none. */
  constructor(limit: number) {
    this.#limit = limit >= 1 ? Math.floor(limit) : 0;
  }

  /**
   * The lowest score an offered item can be kept with: `-Infinity` until `limit` items are kept,
   * then the worst kept score (an equal score is kept only on a lower order). A caller can skip
   * an item below it without computing its order.
   */
  get threshold(): number {
    if (this.#limit === 0) return Number.POSITIVE_INFINITY;
    return this.#items.length < this.#limit
      ? Number.NEGATIVE_INFINITY
      : (this.#scores[0] as number);
  }

  /** Offers an item; it is kept while it is among the `limit` best offered so far. */
  offer(item: number, score: number, order: number): void {
    const size = this.#items.length;
    if (size < this.#limit) {
      this.#items.push(item);
      this.#scores.push(score);
      this.#orders.push(order);
      this.#siftUp(size);
    } else if (size > 0 && this.#worse(0, score, order)) {
      this.#items[0] = item;
      this.#scores[0] = score;
      this.#orders[0] = order;
      this.#siftDown(0);
    }
  }

  /** The kept items, best first. */
  best(): ScoredItem[] {
    const positions = this.#items.map((_, position) => position);
    positions.sort(
      (a, b) =>
        (this.#scores[b] as number) - (this.#scores[a] as number) ||
        (this.#orders[a] as number) - (this.#orders[b] as number),
    );
    return positions.map((position) => ({
      item: this.#items[position] as number,
      score: this.#scores[position] as number,
    }));
  }

  /** Whether the kept item at `position` ranks below an item of this score and order. */
  #worse(position: number, score: number, order: number): boolean {
    const kept = this.#scores[position] as number;
    return kept < score || (kept === score && (this.#orders[position] as number) > order);
  }

  /** Whether the kept item at `a` ranks below the one at `b`. */
  #worseThan(a: number, b: number): boolean {
    return this.#worse(a, this.#scores[b] as number, this.#orders[b] as number);
  }

  #siftUp(position: number): void {
    while (position > 0) {
      const parent = (position - 1) >> 1;
      if (!this.#worseThan(position, parent)) return;
      this.#swap(position, parent);
      position = parent;
    }
  }

  #siftDown(position: number): void {
    const size = this.#items.length;
    for (;;) {
      const left = 2 * position + 1;
      const right = left + 1;
      let worst = position;
      if (left < size && this.#worseThan(left, worst)) worst = left;
      if (right < size && this.#worseThan(right, worst)) worst = right;
      if (worst === position) return;
      this.#swap(position, worst);
      position = worst;
    }
  }

  #swap(a: number, b: number): void {
    swap(this.#items, a, b);
    swap(this.#scores, a, b);
    swap(this.#orders, a, b);
  }
}

function swap(values: number[], a: number, b: number): void {
  const kept = values[a] as number;
  values[a] = values[b] as number;
  values[b] = kept;
}
