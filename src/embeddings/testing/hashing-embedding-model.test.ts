import { describe, expect, it } from 'vitest';
import { HashingEmbeddingModel } from './hashing-embedding-model.js';

const cosine = (a: number[], b: number[]) =>
  a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);

describe('HashingEmbeddingModel', () => {
  it('gives unit vectors of the configured dimension, the same every time', async () => {
    const model = new HashingEmbeddingModel({ dimensions: 256 });
    const [a, b] = await model.embed(['Look up an invoice', 'Look up an invoice']);
    expect(a).toHaveLength(256);
    expect(Math.hypot(...(a ?? []))).toBeCloseTo(1);
    expect(a).toEqual(b);
    expect(
      await new HashingEmbeddingModel({ dimensions: 256 }).embed(['Look up an invoice']),
    ).toEqual([a]);
  });

  it('puts texts sharing words or word parts closer than unrelated texts', async () => {
    const model = new HashingEmbeddingModel();
    const [query, invoice, invoicing, weather] = await model.embed([
      'find my invoices',
      'Look up an invoice by id',
      'Invoicing settings',
      'Current weather in Paris',
    ]);
    expect(cosine(query!, invoice!)).toBeGreaterThan(cosine(query!, weather!));
    expect(cosine(query!, invoicing!)).toBeGreaterThan(cosine(query!, weather!));
  });

  it('embeds an empty or stop-word-only text as the zero vector', async () => {
    const [empty, stop] = await new HashingEmbeddingModel({ dimensions: 8 }).embed([
      '',
      'the of and',
    ]);
    expect(empty).toEqual(new Array(8).fill(0));
    expect(stop).toEqual(new Array(8).fill(0));
  });

  it('rejects a bad dimension and honours an aborted signal', async () => {
    expect(() => new HashingEmbeddingModel({ dimensions: 0 })).toThrow(
      'dimensions must be a positive integer',
    );
    await expect(
      new HashingEmbeddingModel().embed(['x'], { signal: AbortSignal.abort() }),
    ).rejects.toThrow();
  });
});
