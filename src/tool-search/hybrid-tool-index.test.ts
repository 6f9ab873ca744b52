import { describe, expect, it } from 'vitest';
import { HashingEmbeddingModel } from '../embeddings/hashing-embedding-model.js';
import { Bm25ToolIndex } from './bm25-tool-index.js';
import { HybridToolIndex } from './hybrid-tool-index.js';
import { RegexToolIndex } from './regex-tool-index.js';
import type { ToolReference } from './tool-reference.js';
import { VectorToolIndex } from './vector-tool-index.js';

const ref = (toolName: string, summary: string): ToolReference => ({ toolName, summary });

describe('HybridToolIndex', () => {
  it('needs at least one index and one weight per index', () => {
    expect(() => new HybridToolIndex({ indexes: [] })).toThrow('at least one index is required');
    expect(() => new HybridToolIndex({ indexes: [new RegexToolIndex()], weights: [1, 2] })).toThrow(
      'weights must have one entry per index',
    );
  });

  it('fuses ranks: Σ weight/(k + rank), a tool both indexes find comes first', async () => {
    const bm25 = new Bm25ToolIndex();
    const regex = new RegexToolIndex();
    const hybrid = new HybridToolIndex({ indexes: [bm25, regex], rankConstant: 60 });
    await hybrid.indexTools('s', [
      ref('alpha', 'apples and pears'),
      ref('beta', 'pears only'),
      ref('gamma', 'apples only'),
    ]);
    const response = await hybrid.search({ sessionId: 's', query: 'apples' });
    const bm25Order = bm25
      .search({ sessionId: 's', query: 'apples' })
      .toolReferences.map((r) => r.toolName);
    const regexOrder = regex
      .search({ sessionId: 's', query: 'apples' })
      .toolReferences.map((r) => r.toolName);
    const expected = new Map<string, number>();
    for (const order of [bm25Order, regexOrder]) {
      for (const [rank, name] of order.entries()) {
        expected.set(name, (expected.get(name) ?? 0) + 1 / (60 + rank + 1));
      }
    }
    for (const reference of response.toolReferences) {
      expect(reference.relevanceScore).toBeCloseTo(expected.get(reference.toolName) ?? -1);
    }
    expect(response.toolReferences.map((r) => r.toolName).sort()).toEqual(['alpha', 'gamma']);
    expect(response.searchMetadata.searchType).toBe('HybridToolIndex');
  });

  it('indexes into and clears every index, per session', async () => {
    const bm25 = new Bm25ToolIndex();
    const vector = new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel() });
    const hybrid = new HybridToolIndex({ indexes: [bm25, vector] });
    await hybrid.indexTools('a', [ref('weatherTool', 'Get the weather')]);
    await hybrid.indexTool('b', ref('mailTool', 'Send mail'));
    expect([bm25.size('a'), vector.size('a'), bm25.size('b'), vector.size('b')]).toEqual([
      1, 1, 1, 1,
    ]);
    expect((await hybrid.search({ sessionId: 'b', query: 'weather' })).toolReferences).toEqual([]);
    await hybrid.clearIndex('a');
    expect([bm25.size('a'), vector.size('a')]).toEqual([0, 0]);
  });

  it('honours maxResults, default 10', async () => {
    const hybrid = new HybridToolIndex({ indexes: [new RegexToolIndex()] });
    await hybrid.indexTools(
      's',
      Array.from({ length: 15 }, (_, i) => ref(`t${i}`, 'same')),
    );
    expect((await hybrid.search({ sessionId: 's', query: 'same' })).toolReferences).toHaveLength(
      10,
    );
    expect(
      (await hybrid.search({ sessionId: 's', query: 'same', maxResults: 4 })).totalMatches,
    ).toBe(4);
  });
});
