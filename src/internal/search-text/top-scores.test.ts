import { describe, expect, it } from 'vitest';
import { TopScores } from './top-scores.js';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** The reference: every item sorted by score descending, then order ascending, cut to `limit`. */
function fullSort(scores: readonly number[], orders: readonly number[], limit: number) {
  return scores
    .map((score, item) => ({ item, score }))
    .sort((a, b) => b.score - a.score || (orders[a.item] as number) - (orders[b.item] as number))
    .slice(0, limit);
}

describe('TopScores', () => {
  it('keeps the best items, best first, breaking ties by the lower order', () => {
    const top = new TopScores(3);
    top.offer(0, 1, 5);
    top.offer(1, 2, 9);
    top.offer(2, 2, 1);
    top.offer(3, 0.5, 0);
    top.offer(4, 2, 4);
    expect(top.best()).toEqual([
      { item: 2, score: 2 },
      { item: 4, score: 2 },
      { item: 1, score: 2 },
    ]);
    top.offer(5, 2, 0);
    expect(top.best().map((kept) => kept.item)).toEqual([5, 2, 4]);
  });

  it('selects exactly what a full sort selects, whatever the offering order, ties and limit', () => {
    const next = random(7);
    for (let trial = 0; trial < 200; trial++) {
      const count = Math.floor(next() * 60);
      // Few distinct scores, so many ties.
      const scores = Array.from({ length: count }, () => Math.floor(next() * 6) / 2);
      const orders = Array.from({ length: count }, (_, item) => item).sort(() => next() - 0.5);
      const limit = Math.floor(next() * 12);
      const top = new TopScores(limit);
      const offering = scores.map((_, item) => item).sort(() => next() - 0.5);
      for (const item of offering) top.offer(item, scores[item] as number, orders[item] as number);
      expect(top.best()).toEqual(fullSort(scores, orders, limit));
    }
  });

  it('keeps none below a limit of 1 or NaN, truncates a fractional limit and allows Infinity', () => {
    const offerAll = (top: TopScores) => {
      for (let item = 0; item < 5; item++) top.offer(item, item, item);
      return top.best().map((kept) => kept.item);
    };
    expect(offerAll(new TopScores(0))).toEqual([]);
    expect(offerAll(new TopScores(-2))).toEqual([]);
    expect(offerAll(new TopScores(Number.NaN))).toEqual([]);
    expect(offerAll(new TopScores(2.7))).toEqual([4, 3]);
    expect(offerAll(new TopScores(Number.POSITIVE_INFINITY))).toEqual([4, 3, 2, 1, 0]);
  });

  it('reports the score an item must reach: none until full, then the worst kept one', () => {
    const top = new TopScores(2);
    expect(top.threshold).toBe(Number.NEGATIVE_INFINITY);
    top.offer(0, 5, 0);
    expect(top.threshold).toBe(Number.NEGATIVE_INFINITY);
    top.offer(1, 3, 1);
    expect(top.threshold).toBe(3);
    top.offer(2, 4, 2);
    expect(top.threshold).toBe(4);
    // Skipping every item below the threshold keeps exactly what offering them all keeps.
    top.offer(3, 1, 3);
    expect(top.best().map((kept) => kept.item)).toEqual([0, 2]);
    expect(new TopScores(0).threshold).toBe(Number.POSITIVE_INFINITY);
  });
});
