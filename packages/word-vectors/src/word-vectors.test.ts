import { describe, expect, it } from 'vitest';
import { WordVectorScorer } from './word-vector-scorer.js';
import { loadWordVectors, WordVectors } from './word-vectors.js';

function cosine(a: Float32Array, b: Float32Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += (a[i] as number) * (b[i] as number);
    aa += (a[i] as number) ** 2;
    bb += (b[i] as number) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

describe('the bundled word vectors', () => {
  it('place words of one meaning near each other, and skip unknown words', async () => {
    const vectors = await loadWordVectors();
    expect(vectors.size).toBe(50_000);
    expect(vectors.dimensions).toBe(100);
    const of = (word: string) => vectors.embed([word]) as Float32Array;
    expect(cosine(of('film'), of('movie'))).toBeGreaterThan(0.7);
    expect(cosine(of('film'), of('invoice'))).toBeLessThan(0.3);
    expect(vectors.embed(['qqqzzz'])).toBeUndefined();
    expect(vectors.embed(['qqqzzz', 'film'])).toEqual(of('film'));
    expect(await loadWordVectors()).toBe(vectors);
  });

  it('weigh a frequent word less than a rare one', async () => {
    const vectors = await loadWordVectors();
    const length = (v: Float32Array) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
    const rare = vectors.embed(['psychologist']) as Float32Array;
    const frequent = vectors.embed(['make']) as Float32Array;
    const mixed = vectors.embed(['make', 'psychologist']) as Float32Array;
    expect(length(frequent)).toBeLessThan(length(rare) / 2);
    expect(cosine(mixed, rare)).toBeGreaterThan(cosine(mixed, frequent));
  });

  it('weigh each word by its entry in the weights, 1 when it has none', async () => {
    const vectors = await loadWordVectors();
    const weighted = vectors.embed(['film', 'invoice', 'therapist'], [2, 0.5]) as Float32Array;
    const film = vectors.embed(['film']) as Float32Array;
    const invoice = vectors.embed(['invoice']) as Float32Array;
    const therapist = vectors.embed(['therapist']) as Float32Array;
    weighted.forEach((component, d) => {
      const expected =
        2 * (film[d] as number) + 0.5 * (invoice[d] as number) + (therapist[d] as number);
      expect(component).toBeCloseTo(expected, 5);
    });
    // The position counts, not the word: an unknown word still takes its weight's place.
    expect(vectors.embed(['qqqzzz', 'film'], [5, 1])).toEqual(film);
  });

  it('rejects bytes that are not a complete version 1 table', () => {
    expect(() => WordVectors.decode(new Uint8Array([1, 2, 3]))).toThrow('not a version 1');
    const header = new Uint8Array(24);
    header.set(new TextEncoder().encode('TLWV'));
    new DataView(header.buffer).setUint32(4, 1, true);
    new DataView(header.buffer).setUint32(8, 5, true);
    new DataView(header.buffer).setUint32(12, 100, true);
    expect(() => WordVectors.decode(header)).toThrow('truncated');
  });
});

describe('WordVectorScorer', () => {
  it('ranks documents by meaning, follows changes and reuses ids', async () => {
    const scorer = new WordVectorScorer(await loadWordVectors());
    scorer.add(1, ['discover', 'therapist']);
    scorer.add(2, ['search', 'films', 'theater']);
    scorer.add(3, ['pay', 'vendor', 'bill']);
    scorer.add(4, ['qqqzzz']);
    const similarities = (words: string[]) => {
      const scores = new Float64Array(5);
      scorer.addSimilarities(words, scores, 1);
      return scores;
    };
    const best = (words: string[]) => {
      const scores = similarities(words);
      return scores.indexOf(Math.max(...scores));
    };
    expect(best(['psychologist'])).toBe(1);
    expect(best(['cinema'])).toBe(2);
    expect(best(['invoice', 'supplier'])).toBe(3);
    expect(similarities(['cinema'])[4]).toBe(0);
    scorer.remove(2);
    expect(similarities(['cinema'])[2]).toBe(0);
    scorer.add(1, ['movie', 'tickets']);
    expect(best(['cinema'])).toBe(1);
    scorer.add(2, ['cinema', 'tickets']);
    expect(best(['cinema'])).toBe(2);
    expect([...similarities(['qqqzzz'])]).toEqual([0, 0, 0, 0, 0]);
  });

  it('adds the weighted similarity to the scores already there', async () => {
    const scorer = new WordVectorScorer(await loadWordVectors());
    scorer.add(0, ['discover', 'therapist']);
    scorer.add(1, ['search', 'films', 'theater']);
    const once = new Float64Array(2);
    scorer.addSimilarities(['psychologist'], once, 1);
    const weighted = Float64Array.of(0.25, 0.5);
    scorer.addSimilarities(['psychologist'], weighted, 3);
    for (const id of [0, 1]) {
      const base = id === 0 ? 0.25 : 0.5;
      expect(weighted[id]).toBe((once[id] as number) > 0 ? base + 3 * (once[id] as number) : base);
    }
  });
});
