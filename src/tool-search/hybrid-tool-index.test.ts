import { describe, expect, it } from 'vitest';
import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import { HashingEmbeddingModel } from '../embeddings/testing/hashing-embedding-model.js';
import { Bm25ToolIndex } from './bm25-tool-index.js';
import { HybridToolIndex } from './hybrid-tool-index.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { RegexToolIndex } from './regex-tool-index.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolReference, ToolSearchRequest } from './tool-reference.js';
import type { ToolSearchFallback } from './tool-search-fallback.js';
import { VectorToolIndex } from './vector-tool-index.js';

const ref = (toolName: string, summary: string): ToolReference => ({ toolName, summary });
const names = (response: { toolReferences: readonly ToolReference[] }) =>
  response.toolReferences.map((r) => r.toolName);

const tools = [
  ref('getWeather', 'Get the current weather conditions for a city'),
  ref('stockQuote', 'Look up the latest stock price of a listed company'),
  ref('sendEmail', 'Send an email message to a recipient'),
  ref('bookTable', 'Reserve a table at a restaurant'),
];

/**
 * An embedding model whose health the test switches: `'ok'` embeds with the hashing model,
 * `'slow'` does so after 600 ms, `'throw'` rejects, `'hang'` never answers (until its signal
 * aborts, which it records).
 */
class SwitchableEmbeddingModel implements EmbeddingModel {
  readonly id = 'switchable';
  mode: 'ok' | 'throw' | 'hang' | 'slow' = 'ok';
  calls = 0;
  aborted = 0;
  readonly #hashing = new HashingEmbeddingModel();

  async embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]> {
    this.calls++;
    if (this.mode === 'throw') throw new Error('embedding service unavailable');
    if (this.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 600));
    if (this.mode === 'hang') {
      return new Promise((_, reject) => {
        options?.signal?.addEventListener('abort', () => {
          this.aborted++;
          reject(options.signal?.reason);
        });
      });
    }
    return this.#hashing.embed(texts);
  }
}

/**
 * An index that answers every search with the same scored tools, and score statistics when
 * given.
 */
function fixedIndex(
  scored: readonly (readonly [string, number])[],
  scoreStatistics?: { mean: number; standardDeviation: number },
): ToolIndex {
  return {
    indexTools: () => undefined,
    indexTool: () => undefined,
    clearIndex: () => undefined,
    search: (request) => ({
      toolReferences: scored.map(([toolName, relevanceScore]) => ({
        toolName,
        summary: '',
        relevanceScore,
      })),
      totalMatches: scored.length,
      searchMetadata: {
        searchType: 'fixed',
        query: request.query,
        ...(scoreStatistics === undefined ? {} : { scoreStatistics }),
      },
    }),
  };
}

/** A hybrid over the lexical default and a vector index on `model`, and its two sides. */
function hybridOf(model: EmbeddingModel, options: { retryAfterMs?: number } = {}) {
  const lexical = new LexicalToolIndex();
  const vector = new VectorToolIndex({ embeddingModel: model, similarityThreshold: -1 });
  const hybrid = new HybridToolIndex({
    indexes: [lexical, vector],
    // Generous enough for a loaded machine; the hanging model waits them out.
    searchTimeoutMs: 400,
    indexTimeoutMs: 400,
    retryAfterMs: options.retryAfterMs ?? 0,
  });
  return { lexical, vector, hybrid };
}

describe('HybridToolIndex', () => {
  it('takes an embedding model or indexes, and checks its options', () => {
    const embeddingModel = new HashingEmbeddingModel();
    expect(() => new HybridToolIndex({})).toThrow('give either an embeddingModel or indexes');
    expect(() => new HybridToolIndex({ embeddingModel, indexes: [new RegexToolIndex()] })).toThrow(
      'give either an embeddingModel or indexes',
    );
    expect(() => new HybridToolIndex({ indexes: [] })).toThrow('at least one index is required');
    expect(() => new HybridToolIndex({ indexes: [new RegexToolIndex()], weights: [1, 2] })).toThrow(
      'weights must have one entry per index',
    );
    expect(() => new HybridToolIndex({ embeddingModel, weights: [1, -1] })).toThrow(
      'weights must be finite and not negative',
    );
    expect(() => new HybridToolIndex({ embeddingModel, fusion: 'sum' as never })).toThrow(
      "fusion must be 'score' or 'rank'",
    );
    expect(() => new HybridToolIndex({ embeddingModel, searchTimeoutMs: 0 })).toThrow(
      'searchTimeoutMs must be a positive number',
    );
    expect(
      () =>
        new HybridToolIndex({
          indexes: [new RegexToolIndex()],
          lexicalIndex: new RegexToolIndex(),
        }),
    ).toThrow('lexicalIndex, embeddingCache and queryClauses go with an embeddingModel');
    expect(
      () => new HybridToolIndex({ indexes: [new RegexToolIndex()], queryClauses: false }),
    ).toThrow('lexicalIndex, embeddingCache and queryClauses go with an embeddingModel');
  });

  it('refuses a malformed request before any index, and stays available for the next', async () => {
    const hybrid = new HybridToolIndex({ embeddingModel: new HashingEmbeddingModel() });
    await hybrid.indexTools('s', tools);
    const malformed = [
      [{ sessionId: 's', query: 42 }, 'query must be a string'],
      [{ sessionId: 7, query: 'weather' }, 'sessionId must be a string'],
      [{ sessionId: 's', query: 'weather', categoryFilter: 5 }, 'categoryFilter must be a string'],
      [
        { sessionId: 's', query: 'weather', maxResults: -1 },
        'maxResults must be a non-negative integer',
      ],
    ] as const;
    for (const [request, message] of malformed) {
      await expect(hybrid.search(request as unknown as ToolSearchRequest)).rejects.toThrow(message);
    }
    const response = await hybrid.search({ sessionId: 's', query: 'weather in a city' });
    expect(names(response)[0]).toBe('getWeather');
    expect(response.searchMetadata.fallbacks).toBeUndefined();
  });

  it('embeds each clause of a request on its semantic side, unless queryClauses is false', async () => {
    const query = 'What is the weather in Paris tomorrow, and then book a table for two';
    for (const [queryClauses, texts] of [
      [undefined, [query, 'What is the weather in Paris tomorrow', 'book a table for two']],
      [false, [query]],
    ] as const) {
      const batches: string[][] = [];
      const hashing = new HashingEmbeddingModel();
      const hybrid = new HybridToolIndex({
        embeddingModel: {
          embed: (batch) => {
            batches.push([...batch]);
            return hashing.embed(batch);
          },
        },
        ...(queryClauses === undefined ? {} : { queryClauses }),
      });
      await hybrid.indexTools('s', tools);
      const found = names(await hybrid.search({ sessionId: 's', query }));
      expect(found.slice(0, 2).sort()).toEqual(['bookTable', 'getWeather']);
      expect(batches.at(-1)).toEqual(texts);
    }
  });

  it('builds the lexical + vector pair from an embedding model and finds by both', async () => {
    const model = new SwitchableEmbeddingModel();
    const hybrid = new HybridToolIndex({ embeddingModel: model });
    await hybrid.indexTools('s', tools);
    const response = await hybrid.search({ sessionId: 's', query: 'weather in Paris' });
    expect(names(response)[0]).toBe('getWeather');
    expect(response.searchMetadata).toMatchObject({ searchType: 'HybridToolIndex' });
    expect(response.searchMetadata.fallbacks).toBeUndefined();
    // One embedding call for the four tools, one for the query.
    expect(model.calls).toBe(2);
  });

  it('takes 100 candidates from each index by default, or the results asked for if more', async () => {
    const asked: (number | undefined)[] = [];
    class RecordingBm25 extends Bm25ToolIndex {
      override search(request: ToolSearchRequest) {
        asked.push(request.maxResults);
        return super.search(request);
      }
    }
    const hybrid = new HybridToolIndex({ indexes: [new RecordingBm25()] });
    await hybrid.indexTools('s', tools);
    await hybrid.search({ sessionId: 's', query: 'weather' });
    await hybrid.search({ sessionId: 's', query: 'weather', maxResults: 150 });
    const few = new HybridToolIndex({ indexes: [new RecordingBm25()], candidates: 20 });
    await few.indexTools('s', tools);
    await few.search({ sessionId: 's', query: 'weather' });
    expect(asked).toEqual([100, 150, 20]);
  });

  it('fuses scores: Σ weight × score / the index best score, by default', async () => {
    const bm25 = new Bm25ToolIndex();
    const vector = new VectorToolIndex({
      embeddingModel: new HashingEmbeddingModel(),
      similarityThreshold: -1,
    });
    const hybrid = new HybridToolIndex({
      indexes: [bm25, vector],
      weights: [1, 0.5],
      confidence: false,
    });
    await hybrid.indexTools('s', tools);
    const request = { sessionId: 's', query: 'latest price of a company stock' };
    const expected = new Map<string, number>();
    for (const [weight, response] of [
      [1, bm25.search({ ...request, maxResults: 100 })],
      [0.5, await vector.search({ ...request, maxResults: 100 })],
    ] as const) {
      const best = response.toolReferences[0]?.relevanceScore ?? 0;
      for (const reference of response.toolReferences) {
        const score = reference.relevanceScore ?? 0;
        const add = score > 0 && best > 0 ? (weight * score) / best : 0;
        expected.set(reference.toolName, (expected.get(reference.toolName) ?? 0) + add);
      }
    }
    const response = await hybrid.search(request);
    expect(names(response)[0]).toBe('stockQuote');
    expect(response.toolReferences.length).toBe(expected.size);
    for (const reference of response.toolReferences) {
      expect(reference.relevanceScore).toBeCloseTo(expected.get(reference.toolName) ?? -1);
    }
    const scores = response.toolReferences.map((r) => r.relevanceScore ?? 0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('scales the weight of an index by how far its best hit stands out (z of its score statistics)', async () => {
    const lexical = fixedIndex([
      ['x', 2],
      ['y', 1],
    ]);
    const search = async (statistics: { mean: number; standardDeviation: number } | undefined) => {
      const semantic = fixedIndex(
        [
          ['y', 0.9],
          ['x', 0.09],
        ],
        statistics,
      );
      const hybrid = new HybridToolIndex({ indexes: [lexical, semantic], weights: [1, 0.8] });
      await hybrid.indexTools('s', tools);
      const response = await hybrid.search({ sessionId: 's', query: 'anything' });
      return new Map(response.toolReferences.map((r) => [r.toolName, r.relevanceScore ?? 0]));
    };
    // z = (0.9 − 0.4) / 0.1 = 5: half way from 2 to 8, so the semantic side counts 0.8 × 0.5.
    const halfway = await search({ mean: 0.4, standardDeviation: 0.1 });
    expect(halfway.get('x')).toBeCloseTo(1 + 0.4 * 0.1, 6);
    expect(halfway.get('y')).toBeCloseTo(0.5 + 0.4 * 1, 6);
    // z = 10 (full weight) and z = 1 (none): the semantic side decides, or adds nothing.
    const full = await search({ mean: 0.4, standardDeviation: 0.05 });
    expect([...full.keys()]).toEqual(['y', 'x']);
    expect(full.get('y')).toBeCloseTo(0.5 + 0.8, 6);
    const flat = await search({ mean: 0.8, standardDeviation: 0.1 });
    expect([...flat.keys()]).toEqual(['x', 'y']);
    expect(flat.get('x')).toBeCloseTo(1, 6);
    // Every tool alike: nothing; no statistics: the full weight.
    expect((await search({ mean: 0.9, standardDeviation: 0 })).get('y')).toBeCloseTo(0.5, 6);
    expect((await search(undefined)).get('y')).toBeCloseTo(0.5 + 0.8, 6);
  });

  it('takes a confidence ramp of its own, and rejects one that is not a rising pair of numbers', async () => {
    const semantic = fixedIndex(
      [
        ['y', 0.9],
        ['x', 0.45],
      ],
      { mean: 0.3, standardDeviation: 0.1 },
    );
    const hybrid = new HybridToolIndex({
      indexes: [
        fixedIndex([
          ['x', 2],
          ['y', 1],
        ]),
        semantic,
      ],
      weights: [1, 0.8],
      confidence: { zeroAt: 0, fullAt: 12 },
    });
    await hybrid.indexTools('s', tools);
    const response = await hybrid.search({ sessionId: 's', query: 'anything' });
    // z = 6 of a ramp from 0 to 12: half the weight.
    expect(response.toolReferences.find((r) => r.toolName === 'y')?.relevanceScore).toBeCloseTo(
      0.5 + 0.4,
      6,
    );
    for (const confidence of [
      { zeroAt: 8, fullAt: 2 },
      { zeroAt: 2, fullAt: 2 },
      { zeroAt: Number.NaN, fullAt: 8 },
      { zeroAt: 2, fullAt: Number.POSITIVE_INFINITY },
    ]) {
      expect(() => new HybridToolIndex({ indexes: [semantic], confidence })).toThrow(
        /confidence needs finite numbers with zeroAt below fullAt/,
      );
    }
  });

  it("fuses ranks with fusion 'rank': Σ weight/(k + rank), a tool both indexes find first", async () => {
    const bm25 = new Bm25ToolIndex();
    const regex = new RegexToolIndex();
    const hybrid = new HybridToolIndex({
      indexes: [bm25, regex],
      fusion: 'rank',
      rankConstant: 60,
    });
    await hybrid.indexTools('s', [
      ref('alpha', 'apples and pears'),
      ref('beta', 'pears only'),
      ref('gamma', 'apples only'),
    ]);
    const response = await hybrid.search({ sessionId: 's', query: 'apples' });
    const expected = new Map<string, number>();
    for (const order of [
      names(bm25.search({ sessionId: 's', query: 'apples' })),
      names(regex.search({ sessionId: 's', query: 'apples' })),
    ]) {
      for (const [rank, name] of order.entries()) {
        expected.set(name, (expected.get(name) ?? 0) + 1 / (60 + rank + 1));
      }
    }
    for (const reference of response.toolReferences) {
      expect(reference.relevanceScore).toBeCloseTo(expected.get(reference.toolName) ?? -1);
    }
    expect(names(response).sort()).toEqual(['alpha', 'gamma']);
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

describe('HybridToolIndex when the embedding model fails', () => {
  const query = { sessionId: 's', query: 'send an email to a recipient' };

  it('searches with the lexical side alone when the query embedding throws, and says so', async () => {
    const model = new SwitchableEmbeddingModel();
    const { lexical, hybrid } = hybridOf(model);
    await hybrid.indexTools('s', tools);
    model.mode = 'throw';
    const response = await hybrid.search(query);
    expect(names(response)).toEqual(names(await lexical.search({ ...query, maxResults: 10 })));
    expect(names(response)[0]).toBe('sendEmail');
    expect(response.searchMetadata.fallbacks).toEqual([
      {
        phase: 'search',
        source: 'VectorToolIndex',
        reason: 'error',
        error: { type: 'Error', message: 'embedding service unavailable' },
      },
    ]);
  });

  it('stops waiting for a query embedding that hangs past searchTimeoutMs, and aborts it', async () => {
    const model = new SwitchableEmbeddingModel();
    const { hybrid } = hybridOf(model);
    await hybrid.indexTools('s', tools);
    model.mode = 'hang';
    const response = await hybrid.search(query);
    expect(names(response)[0]).toBe('sendEmail');
    expect(response.searchMetadata.fallbacks).toMatchObject([
      {
        phase: 'search',
        source: 'VectorToolIndex',
        reason: 'timeout',
        error: {
          type: 'ToolIndexTimeoutError',
          message: 'VectorToolIndex did not answer within 400 ms',
        },
      },
    ]);
    expect(model.aborted).toBe(1);
  });

  it('leaves a failed index out for retryAfterMs, without calling it, then tries again', async () => {
    const model = new SwitchableEmbeddingModel();
    const { hybrid } = hybridOf(model, { retryAfterMs: 300 });
    await hybrid.indexTools('s', tools);
    model.mode = 'throw';
    await hybrid.search(query);
    const calls = model.calls;
    model.mode = 'ok';
    const skipped = await hybrid.search(query);
    expect(model.calls).toBe(calls);
    expect(skipped.searchMetadata.fallbacks).toEqual([
      { phase: 'search', source: 'VectorToolIndex', reason: 'unavailable' },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const recovered = await hybrid.search(query);
    expect(model.calls).toBe(calls + 1);
    expect(recovered.searchMetadata.fallbacks).toBeUndefined();
  });

  it('indexes with the lexical side alone when embedding the tools fails, and catches up later', async () => {
    const model = new SwitchableEmbeddingModel();
    const { lexical, vector, hybrid } = hybridOf(model);
    model.mode = 'throw';
    const fallbacks: ToolSearchFallback[] = [];
    await hybrid.indexTools('s', tools, { onFallback: (fallback) => fallbacks.push(fallback) });
    expect(fallbacks).toEqual([
      {
        phase: 'index',
        source: 'VectorToolIndex',
        reason: 'error',
        error: { type: 'Error', message: 'embedding service unavailable' },
      },
    ]);
    expect([lexical.size('s'), vector.size('s')]).toEqual([4, 0]);
    // Still down: the search ranks lexically and says why.
    const degraded = await hybrid.search(query);
    expect(names(degraded)[0]).toBe('sendEmail');
    expect(degraded.searchMetadata.fallbacks).toMatchObject([
      { phase: 'search', source: 'VectorToolIndex', reason: 'error' },
    ]);
    // Back up: the next search first embeds the waiting tools, then uses them.
    model.mode = 'ok';
    const recovered = await hybrid.search(query);
    expect(vector.size('s')).toBe(4);
    expect(recovered.searchMetadata.fallbacks).toBeUndefined();
  });

  it('goes on without tool embeddings past indexTimeoutMs, and uses them once they are done', async () => {
    const model = new SwitchableEmbeddingModel();
    const { lexical, vector, hybrid } = hybridOf(model);
    model.mode = 'slow';
    const fallbacks: ToolSearchFallback[] = [];
    await hybrid.indexTools('s', tools, { onFallback: (fallback) => fallbacks.push(fallback) });
    expect([lexical.size('s'), vector.size('s')]).toEqual([4, 0]);
    expect(fallbacks).toMatchObject([
      { phase: 'index', source: 'VectorToolIndex', reason: 'timeout' },
    ]);
    // Still embedding in the background: not waited for.
    const early = await hybrid.search(query);
    expect(names(early)[0]).toBe('sendEmail');
    expect(early.searchMetadata.fallbacks).toEqual([
      { phase: 'search', source: 'VectorToolIndex', reason: 'unavailable' },
    ]);
    model.mode = 'ok';
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(vector.size('s')).toBe(4);
    expect((await hybrid.search(query)).searchMetadata.fallbacks).toBeUndefined();
  });

  it('ends tool embeddings that hang at the vector index timeoutMs, then indexes again', async () => {
    const model = new SwitchableEmbeddingModel();
    const vector = new VectorToolIndex({ embeddingModel: model, timeoutMs: 500 });
    const hybrid = new HybridToolIndex({
      indexes: [new LexicalToolIndex(), vector],
      indexTimeoutMs: 100,
      retryAfterMs: 0,
    });
    model.mode = 'hang';
    await hybrid.indexTools('s', tools);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(model.aborted).toBe(1);
    model.mode = 'ok';
    expect((await hybrid.search(query)).searchMetadata.fallbacks).toBeUndefined();
    expect(vector.size('s')).toBe(4);
  });

  it('forgets the tools waiting to be indexed when the session is cleared', async () => {
    const model = new SwitchableEmbeddingModel();
    const { hybrid } = hybridOf(model);
    model.mode = 'throw';
    await hybrid.indexTools('s', tools);
    await hybrid.clearIndex('s');
    model.mode = 'ok';
    const calls = model.calls;
    await hybrid.indexTools('s', [tools[0] as ToolReference]);
    await hybrid.search({ sessionId: 's', query: 'weather' });
    // One call for the indexed tool and one for the query: nothing of the cleared set.
    expect(model.calls).toBe(calls + 2);
  });

  it('fails only when every index fails, and passes the caller abort through', async () => {
    const model = new SwitchableEmbeddingModel();
    const alone = new HybridToolIndex({
      indexes: [new VectorToolIndex({ embeddingModel: model })],
      retryAfterMs: 0,
    });
    await alone.indexTools('s', tools);
    model.mode = 'throw';
    await expect(alone.search(query)).rejects.toThrow('embedding service unavailable');
    await expect(alone.indexTools('t', [ref('newTool', 'Not embedded yet')])).rejects.toThrow(
      'embedding service unavailable',
    );
    const { hybrid } = hybridOf(new SwitchableEmbeddingModel());
    await hybrid.indexTools('s', tools);
    const aborted = hybrid.search({ ...query, signal: AbortSignal.abort() });
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });
});
