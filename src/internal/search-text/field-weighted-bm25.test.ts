import { describe, expect, it } from 'vitest';
import { type Bm25Field, FieldWeightedBm25 } from './field-weighted-bm25.js';

const FIELDS: Bm25Field[] = [
  { weight: 3, lengthNormalization: 0.6 },
  { weight: 1.5, lengthNormalization: 0.6 },
  { weight: 1, lengthNormalization: 0 },
];
const K1 = 1.2;

type Document = readonly (readonly string[])[];

/** BM25F computed straight from the live documents' token lists, in the query's term order. */
function referenceScores(
  documents: ReadonlyMap<number, Document>,
  query: ReadonlyMap<string, number>,
): Map<number, number> {
  const scores = new Map<number, number>();
  const count = documents.size;
  const averages = FIELDS.map((_, field) => {
    let total = 0;
    for (const document of documents.values()) total += (document[field] as string[]).length;
    return total / count || 1;
  });
  for (const [term, weight] of query) {
    const containing = [...documents].filter(([, document]) =>
      document.some((tokens) => tokens.includes(term)),
    );
    if (containing.length === 0 || weight <= 0) continue;
    const idf = Math.log(1 + (count - containing.length + 0.5) / (containing.length + 0.5));
    for (const [id, document] of containing) {
      let weighted = 0;
      FIELDS.forEach(({ weight: fieldWeight, lengthNormalization: b }, field) => {
        const tokens = document[field] as string[];
        const tf = tokens.filter((token) => token === term).length;
        if (tf === 0) return;
        const relativeLength = tokens.length / (averages[field] as number);
        weighted += (fieldWeight * tf) / (1 - b + b * relativeLength);
      });
      const contribution = (weight * idf * weighted * (K1 + 1)) / (weighted + K1);
      scores.set(id, (scores.get(id) ?? 0) + contribution);
    }
  }
  return scores;
}

describe('FieldWeightedBm25', () => {
  it('scores exactly like BM25F computed from the live documents, through removals and reused ids', () => {
    let state = 11;
    const next = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    const vocabulary = Array.from({ length: 40 }, (_, i) => `w${i}`);
    // Skewed towards the first words, so some terms are in most documents and some in few.
    const token = () => vocabulary[Math.floor(next() ** 2 * vocabulary.length)] as string;
    const randomDocument = (): Document =>
      FIELDS.map(() => Array.from({ length: Math.floor(next() * 8) }, token));
    const bm25 = new FieldWeightedBm25(FIELDS, K1);
    const live = new Map<number, Document>();
    for (let step = 0; step < 400; step++) {
      const id = Math.floor(next() * 60);
      if (next() < 0.3) {
        bm25.remove(id);
        live.delete(id);
      } else {
        const document = randomDocument();
        bm25.add(id, document);
        live.set(id, document);
      }
      if (step % 20 !== 19) continue;
      expect(bm25.size).toBe(live.size);
      for (let q = 0; q < 10; q++) {
        const query = new Map(
          Array.from({ length: 1 + Math.floor(next() * 4) }, () => [token(), next()] as const),
        );
        const scores = new Float64Array(60);
        bm25.score(query, scores);
        const expected = referenceScores(live, query);
        for (let id = 0; id < 60; id++) expect(scores[id]).toBe(expected.get(id) ?? 0);
        for (const term of query.keys()) {
          const containing = [...live.values()].filter((d) => d.some((t) => t.includes(term)));
          expect(bm25.documentFrequency(term)).toBe(containing.length);
        }
      }
    }
  });

  it('adds to the scores already there and lists indexed terms by prefix', () => {
    const bm25 = new FieldWeightedBm25(FIELDS);
    bm25.add(0, [['deploy'], ['deployment', 'service'], []]);
    bm25.add(2, [['restart'], ['service'], []]);
    const scores = Float64Array.of(1, 1, 1);
    bm25.score(new Map([['service', 1]]), scores);
    expect(scores[0]).toBeGreaterThan(1);
    expect(scores[1]).toBe(1);
    expect(scores[2]).toBeGreaterThan(1);
    expect(bm25.termsStartingWith('deploy')).toEqual(['deployment']);
    expect(bm25.inField('deploy', 0)).toBe(true);
    expect(bm25.inField('service', 0)).toBe(false);
    expect(bm25.inField('service', 1)).toBe(true);
    expect(bm25.inField('unknown', 1)).toBe(false);
    bm25.remove(0);
    expect(bm25.termsStartingWith('deploy')).toEqual([]);
    expect(bm25.inField('deploy', 0)).toBe(false);
    expect(bm25.documentFrequency('service')).toBe(1);
  });
});
