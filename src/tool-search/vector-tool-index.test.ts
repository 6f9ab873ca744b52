import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import { HashingEmbeddingModel } from '../embeddings/testing/hashing-embedding-model.js';
import type { ToolEmbeddingCache } from '../embeddings/tool-embedding-cache.js';
import { AbortError } from '../errors/index.js';
import { SqliteToolEmbeddingCache } from '../memory/sqlite/index.js';
import type { ToolReference } from './tool-reference.js';
import type { ToolSearchFallback } from './tool-search-fallback.js';
import { VectorToolIndex } from './vector-tool-index.js';

const ref = (toolName: string, summary: string, category?: string): ToolReference => ({
  toolName,
  summary,
  ...(category === undefined ? {} : { category }),
});
const names = (response: { toolReferences: readonly ToolReference[] }) =>
  response.toolReferences.map((r) => r.toolName);

/** The real hashing model, with every batch it embeds recorded. */
class RecordingEmbeddingModel implements EmbeddingModel {
  readonly id = 'hashing-1024';
  readonly batches: string[][] = [];
  readonly #model = new HashingEmbeddingModel();
  async embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]> {
    this.batches.push([...texts]);
    return this.#model.embed(texts, options);
  }
  /** Texts embedded so far. */
  get texts(): number {
    return this.batches.reduce((sum, batch) => sum + batch.length, 0);
  }
}

/** A library of `count` distinct tools. */
const library = (count: number, version = ''): ToolReference[] =>
  Array.from({ length: count }, (_, i) =>
    ref(`tool_${i}`, `Handles request kind ${i} of the catalogue ${version}`.trim()),
  );

const tools = [
  ref('getWeather', 'Get the current weather conditions for a city'),
  ref('stockQuote', 'Look up the latest stock price of a listed company'),
  ref('sendEmail', 'Send an email message to a recipient'),
];

describe('VectorToolIndex', () => {
  it('requires an embedding model, a positive batch size and a model id for a cache', () => {
    expect(() => new VectorToolIndex(undefined as never)).toThrow('embeddingModel is required');
    expect(
      () => new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel(), batchSize: 0 }),
    ).toThrow('batchSize must be a positive integer');
    expect(
      () =>
        new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel(), memoryCacheSize: -1 }),
    ).toThrow('memoryCacheSize must be a non-negative integer');
    const cache = new SqliteToolEmbeddingCache({ database: new Database(':memory:') });
    expect(
      () =>
        new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel(), embeddingCache: cache }),
    ).toThrow('an embeddingCache needs embeddingModel.id');
  });

  it('embeds a batch in one call with name words, description and parameter text', async () => {
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({ embeddingModel: model });
    await index.indexTools('s', [
      {
        ...tools[0]!,
        inputSchema: {
          type: 'object',
          properties: { cityName: { type: 'string', description: 'The city' } },
        },
      },
      tools[1]!,
    ]);
    expect(model.batches).toHaveLength(1);
    expect(model.batches[0]?.[0]).toBe(
      'get weather\nGet the current weather conditions for a city\ncity name The city',
    );
    expect(index.size('s')).toBe(2);
  });

  it('splits indexing into batches of batchSize, and an empty list is a no-op', async () => {
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({ embeddingModel: model, batchSize: 2 });
    await index.indexTools('s', []);
    expect(model.batches).toHaveLength(0);
    await index.indexTools('s', tools);
    expect(model.batches.map((b) => b.length)).toEqual([2, 1]);
  });

  it('ranks by cosine similarity, with scores, threshold and default maxResults 10', async () => {
    const index = new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel() });
    await index.indexTools('s', tools);
    const response = await index.search({ sessionId: 's', query: 'weather in a city' });
    expect(response.toolReferences[0]?.toolName).toBe('getWeather');
    expect(response.toolReferences[0]?.relevanceScore).toBeGreaterThan(0.2);
    expect(response.searchMetadata.searchType).toBe('VectorToolIndex');
    const strict = new VectorToolIndex({
      embeddingModel: new HashingEmbeddingModel(),
      similarityThreshold: 0.99,
    });
    await strict.indexTools('s', tools);
    expect((await strict.search({ sessionId: 's', query: 'weather' })).toolReferences).toEqual([]);
    const loose = new VectorToolIndex({
      embeddingModel: new HashingEmbeddingModel(),
      similarityThreshold: -1,
    });
    await loose.indexTools(
      's',
      Array.from({ length: 12 }, (_, i) => ref(`tool${i}`, 'text')),
    );
    expect((await loose.search({ sessionId: 's', query: 'text' })).toolReferences).toHaveLength(10);
    expect(
      (await loose.search({ sessionId: 's', query: 'text', maxResults: 3 })).totalMatches,
    ).toBe(3);
  });

  it('is isolated per session; clearing one leaves the other; unknown sessions are no-ops', async () => {
    const index = new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel() });
    await index.indexTools('a', [tools[0]!]);
    await index.indexTools('b', [ref('weatherB', 'Get the weather for session b')]);
    expect(names(await index.search({ sessionId: 'a', query: 'weather' }))).toEqual(['getWeather']);
    expect(names(await index.search({ sessionId: 'b', query: 'weather' }))).toEqual(['weatherB']);
    index.clearIndex('a');
    index.clearIndex('never-indexed');
    expect((await index.search({ sessionId: 'a', query: 'weather' })).toolReferences).toEqual([]);
    expect(names(await index.search({ sessionId: 'b', query: 'weather' }))).toEqual(['weatherB']);
    await index.indexTools('a', [tools[0]!]);
    expect(names(await index.search({ sessionId: 'a', query: 'weather' }))).toEqual(['getWeather']);
  });

  it('does not resurrect a session cleared while its tools were being embedded', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hashing = new HashingEmbeddingModel();
    const slow: EmbeddingModel = {
      async embed(texts) {
        await gate;
        return hashing.embed(texts);
      },
    };
    const index = new VectorToolIndex({ embeddingModel: slow });
    const indexing = index.indexTools('s', tools);
    index.clearIndex('s');
    release();
    await indexing;
    expect(index.size('s')).toBe(0);
  });

  it('keeps all tools of concurrent indexing calls of one session', async () => {
    const index = new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel() });
    await Promise.all(tools.map((tool) => index.indexTool('s', tool)));
    expect(index.size('s')).toBe(3);
  });

  it('filters by category, and leaves a failed indexing call without a half index', async () => {
    const index = new VectorToolIndex({
      embeddingModel: new HashingEmbeddingModel(),
      similarityThreshold: -1,
    });
    await index.indexTools('s', [ref('a1', 'alpha', 'x'), ref('b1', 'alpha', 'y')]);
    expect(
      names(await index.search({ sessionId: 's', query: 'alpha', categoryFilter: 'y' })),
    ).toEqual(['b1']);
    let calls = 0;
    const failing = new VectorToolIndex({
      batchSize: 1,
      embeddingModel: {
        async embed(texts) {
          if (++calls === 2) throw new Error('provider down');
          return new HashingEmbeddingModel().embed(texts);
        },
      },
    });
    await expect(failing.indexTools('s', tools)).rejects.toThrow('provider down');
    expect(failing.size('s')).toBe(0);
  });

  it('reports the mean and standard deviation of every scored tool, past the threshold and maxResults', async () => {
    // Fixed vectors: the query is [1, 0]; the tools sit at cosine 1, 0.6, 0 and -0.6 from it.
    const vectors: Record<string, number[]> = {
      q: [1, 0],
      a: [1, 0],
      b: [0.6, 0.8],
      c: [0, 1],
      d: [-0.6, 0.8],
    };
    const model: EmbeddingModel = {
      id: 'fixed',
      embed: async (texts) => texts.map((text) => vectors[text.split('\n')[0] as string] ?? [0, 0]),
    };
    const index = new VectorToolIndex({
      embeddingModel: model,
      similarityThreshold: 0.5,
      toolText: (tool) => tool.toolName,
      queryClauses: false,
    });
    await index.indexTools('s', [ref('a', ''), ref('b', ''), ref('c', ''), ref('d', '')]);
    const response = await index.search({ sessionId: 's', query: 'q', maxResults: 1 });
    expect(names(response)).toEqual(['a']);
    const scores = [1, 0.6, 0, -0.6];
    const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
    const deviation = Math.sqrt(
      scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / scores.length,
    );
    expect(response.searchMetadata.scoreStatistics?.mean).toBeCloseTo(mean, 6);
    expect(response.searchMetadata.scoreStatistics?.standardDeviation).toBeCloseTo(deviation, 6);
    // Nothing scored, nothing reported.
    const empty = await index.search({ sessionId: 'other', query: 'q' });
    expect(empty.searchMetadata.scoreStatistics).toBeUndefined();
  });

  it('scores a tool by its best clause: a two-part request finds the tool of each part', async () => {
    // The request's words lean to the forecast; "email it" alone would lose to a rain tool.
    const library = [
      ref(
        'get_forecast',
        'Weather forecast: temperature, rain and wind for a city over the next days',
      ),
      ref('send_email', 'Send an email to a recipient'),
      ref('city_guide', 'Things to do in a city: museums, restaurants, sights for the next days'),
      ref('rain_alerts', 'Subscribe to rain and wind alerts'),
    ];
    const query =
      'What will the temperature, rain and wind be in Lyon over the next days, and then email it to my boss';
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({ embeddingModel: model, similarityThreshold: -1 });
    await index.indexTools('s', library);
    const found = names(await index.search({ sessionId: 's', query }));
    expect(found.slice(0, 2)).toEqual(['get_forecast', 'send_email']);
    // One embed call: the request and its two clauses.
    expect(model.batches.at(-1)).toEqual([
      query,
      'What will the temperature, rain and wind be in Lyon over the next days',
      'email it to my boss',
    ]);

    const wholeOnly = new VectorToolIndex({
      embeddingModel: model,
      similarityThreshold: -1,
      queryClauses: false,
    });
    await wholeOnly.indexTools('s', library);
    const whole = names(await wholeOnly.search({ sessionId: 's', query }));
    expect(whole.slice(0, 2)).not.toContain('send_email');
    expect(model.batches.at(-1)).toEqual([query]);
  });

  it('rejects a model that returns the wrong number of vectors for a query', async () => {
    let calls = 0;
    const index = new VectorToolIndex({
      embeddingModel: {
        embed: async (texts) => {
          calls++;
          const vectors = await new HashingEmbeddingModel().embed(texts);
          return calls === 1 ? vectors : vectors.slice(0, 1);
        },
      },
    });
    await index.indexTools('s', tools);
    await expect(
      index.search({ sessionId: 's', query: 'check the weather and then send an email to Ann' }),
    ).rejects.toThrow('returned 1 vectors for 3 texts');
  });

  it('rejects a model that returns the wrong number of vectors', async () => {
    const index = new VectorToolIndex({ embeddingModel: { embed: async () => [] } });
    await expect(index.indexTools('s', tools)).rejects.toThrow('returned 0 vectors for 3 texts');
  });

  it('rejects vectors with NaN, infinite or non-number values, or none, and caches nothing', async () => {
    const cache = new SqliteToolEmbeddingCache({ database: new Database(':memory:') });
    for (const bad of [[Number.NaN, 1], [Number.POSITIVE_INFINITY, 1], ['1', '2'], []]) {
      const index = new VectorToolIndex({
        embeddingModel: { id: 'bad', embed: async (texts) => texts.map(() => bad as number[]) },
        embeddingCache: cache,
      });
      await expect(index.indexTools('s', tools)).rejects.toThrow(
        'embedding model returned a vector that is not a non-empty array of finite numbers',
      );
      expect(index.size('s')).toBe(0);
    }
    const good = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({
      embeddingModel: { id: 'bad', embed: (texts) => good.embed(texts) },
      embeddingCache: cache,
    });
    await index.indexTools('s', tools);
    expect(good.texts).toBe(3);
  });

  it('rejects vectors of different dimensions, in a batch and between query and tools', async () => {
    const mixed = new VectorToolIndex({
      embeddingModel: {
        embed: async (texts) => texts.map((_, i) => (i === 0 ? [1, 0] : [1, 0, 0])),
      },
    });
    await expect(mixed.indexTools('s', tools)).rejects.toThrow(
      'embedding model returned vectors of 2 and 3 dimensions',
    );
    let calls = 0;
    const index = new VectorToolIndex({
      embeddingModel: {
        embed: async (texts) => texts.map(() => (++calls <= 3 ? [1, 0, 0] : [1, 0])),
      },
    });
    await index.indexTools('s', tools);
    await expect(index.search({ sessionId: 's', query: 'weather' })).rejects.toThrow(
      'the query vector has 2 dimensions, the tools of session s have 3',
    );
  });

  it('embeds a tool once per process: another session indexing it calls the model for none', async () => {
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({ embeddingModel: model });
    await index.indexTools('a', library(300));
    expect(model.texts).toBe(300);
    await index.indexTools('b', library(300));
    expect(model.texts).toBe(300);
    expect(index.size('b')).toBe(300);
    expect(names(await index.search({ sessionId: 'b', query: 'request kind 7' }))).toEqual(
      names(await index.search({ sessionId: 'a', query: 'request kind 7' })),
    );
  });

  it('re-embeds only the tool that changed when a session is indexed again', async () => {
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({ embeddingModel: model });
    const tools = library(1000);
    await index.indexTools('s', tools);
    const changed = tools.map((tool, i) =>
      i === 417 ? { ...tool, summary: 'Books a table at a restaurant' } : tool,
    );
    index.clearIndex('s');
    await index.indexTools('s', changed);
    expect(model.batches.at(-1)).toEqual(['tool 417\nBooks a table at a restaurant']);
    expect(model.texts).toBe(1001);
    expect(names(await index.search({ sessionId: 's', query: 'book a restaurant table' }))[0]).toBe(
      'tool_417',
    );
  });

  it('embeds a text once when two sessions index it at the same time', async () => {
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({ embeddingModel: model });
    await Promise.all([index.indexTools('a', library(50)), index.indexTools('b', library(50))]);
    expect(model.texts).toBe(50);
    expect([index.size('a'), index.size('b')]).toEqual([50, 50]);
  });

  it('keeps at most memoryCacheSize vectors beyond the sessions, none with 0', async () => {
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({ embeddingModel: model, memoryCacheSize: 0 });
    await index.indexTools('a', library(20));
    await index.indexTools('b', library(20));
    expect(model.texts).toBe(40);
    const bounded = new RecordingEmbeddingModel();
    const small = new VectorToolIndex({ embeddingModel: bounded, memoryCacheSize: 10 });
    await small.indexTools('a', library(20));
    await small.indexTools('b', library(20).slice(10));
    expect(bounded.texts).toBe(20);
    await small.indexTools('c', library(20).slice(0, 10));
    expect(bounded.texts).toBe(30);
  });

  it('reads vectors from a shared cache before embedding and writes what it embedded', async () => {
    const cache = new SqliteToolEmbeddingCache({ database: new Database(':memory:') });
    const first = new RecordingEmbeddingModel();
    const writer = new VectorToolIndex({ embeddingModel: first, embeddingCache: cache });
    await writer.indexTools('s', library(100));
    expect(first.texts).toBe(100);
    const second = new RecordingEmbeddingModel();
    const reader = new VectorToolIndex({ embeddingModel: second, embeddingCache: cache });
    await reader.indexTools('s', [...library(100), ref('extra', 'A tool no index embedded yet')]);
    expect(second.batches).toEqual([['extra\nA tool no index embedded yet']]);
    const query = { sessionId: 's', query: 'request kind 42', maxResults: 5 };
    expect(await reader.search(query)).toMatchObject({
      toolReferences: (await writer.search(query)).toolReferences,
    });
  });

  it('embeds again a tool whose cached vector holds NaN, and overwrites it', async () => {
    const database = new Database(':memory:');
    const cache = new SqliteToolEmbeddingCache({ database });
    await new VectorToolIndex({
      embeddingModel: new RecordingEmbeddingModel(),
      embeddingCache: cache,
    }).indexTools('s', tools);
    // Another program wrote a vector that is not one: NaN in every value.
    const nan = Buffer.alloc(4 * 1024);
    for (let i = 0; i < 1024; i++) nan.writeFloatLE(Number.NaN, i * 4);
    const { key } = database
      .prepare('SELECT key FROM toolloop_tool_embeddings ORDER BY key LIMIT 1')
      .get() as { key: string };
    database.prepare('UPDATE toolloop_tool_embeddings SET vector = ? WHERE key = ?').run(nan, key);
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({ embeddingModel: model, embeddingCache: cache });
    await index.indexTools('s', tools);
    expect(model.texts).toBe(1);
    const [stored] = await cache.get([key]);
    expect(stored?.every(Number.isFinite)).toBe(true);
    expect(names(await index.search({ sessionId: 's', query: 'weather in a city' }))[0]).toBe(
      'getWeather',
    );
  });

  it('keys cached vectors by model id: another model embeds for itself', async () => {
    const cache = new SqliteToolEmbeddingCache({ database: new Database(':memory:') });
    await new VectorToolIndex({
      embeddingModel: new RecordingEmbeddingModel(),
      embeddingCache: cache,
    }).indexTools('s', library(10));
    const hashing = new HashingEmbeddingModel({ dimensions: 64 });
    const other = new RecordingEmbeddingModel();
    const model: EmbeddingModel = {
      id: 'hashing-64',
      embed: async (texts) => {
        await other.embed(texts);
        return hashing.embed(texts);
      },
    };
    await new VectorToolIndex({ embeddingModel: model, embeddingCache: cache }).indexTools(
      's',
      library(10),
    );
    expect(other.texts).toBe(10);
  });

  it('indexes through a failing cache by embedding, and reports each failure', async () => {
    const failing: ToolEmbeddingCache = {
      get: async () => {
        throw new Error('cache read refused');
      },
      set: async () => {
        throw new Error('cache write refused');
      },
    };
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({ embeddingModel: model, embeddingCache: failing });
    const fallbacks: ToolSearchFallback[] = [];
    await index.indexTools('s', library(5), { onFallback: (f) => fallbacks.push(f) });
    expect(index.size('s')).toBe(5);
    expect(model.texts).toBe(5);
    expect(fallbacks).toEqual([
      {
        phase: 'index',
        source: 'Object',
        reason: 'error',
        error: { type: 'Error', message: 'cache read refused' },
      },
      {
        phase: 'index',
        source: 'Object',
        reason: 'error',
        error: { type: 'Error', message: 'cache write refused' },
      },
    ]);
  });

  // A cache that never answers (a Redis client that queues commands while the server is down, a
  // pool waiting for a connection) kept indexing waiting forever, and an abort did not end it.
  it('stops waiting for a cache that never answers after timeoutMs, embeds instead, and reports it', async () => {
    const silent: ToolEmbeddingCache = {
      get: () => new Promise(() => {}),
      set: () => new Promise(() => {}),
    };
    const model = new RecordingEmbeddingModel();
    const index = new VectorToolIndex({
      embeddingModel: model,
      embeddingCache: silent,
      timeoutMs: 50,
    });
    const fallbacks: ToolSearchFallback[] = [];
    await index.indexTools('s', library(3), { onFallback: (f) => fallbacks.push(f) });
    expect(index.size('s')).toBe(3);
    expect(model.texts).toBe(3);
    expect(fallbacks.map(({ phase, reason, error }) => [phase, reason, error?.message])).toEqual([
      ['index', 'timeout', 'the embedding cache did not answer within 50 ms'],
      ['index', 'timeout', 'the embedding cache did not answer within 50 ms'],
    ]);
  });

  it('an abort ends the wait for a cache that never answers', async () => {
    const index = new VectorToolIndex({
      embeddingModel: new RecordingEmbeddingModel(),
      embeddingCache: { get: () => new Promise(() => {}), set: async () => {} },
    });
    const controller = new AbortController();
    const indexing = index.indexTools('s', library(3), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 20);
    const error = await indexing.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).cause).toEqual(new Error('caller gave up'));
    expect(index.size('s')).toBe(0);
  });

  it('rejects a model that returns something other than number arrays', async () => {
    const index = new VectorToolIndex({
      embeddingModel: { embed: async (texts) => texts.map(() => 'nope' as never) },
    });
    await expect(index.indexTools('s', tools)).rejects.toThrow('not a non-empty array');
    const none = new VectorToolIndex({ embeddingModel: { embed: async () => undefined as never } });
    await expect(none.indexTools('s', tools)).rejects.toThrow('returned no vectors for 3 texts');
  });

  it('takes Float32Array vectors as in-process models return them', async () => {
    const inner = new RecordingEmbeddingModel();
    const typed: EmbeddingModel = {
      embed: async (texts, options) =>
        (await inner.embed(texts, options)).map((vector) => Float32Array.from(vector)) as never,
    };
    const index = new VectorToolIndex({ embeddingModel: typed });
    await index.indexTools('s', tools);
    expect(index.size('s')).toBe(3);
    const found = await index.search({ sessionId: 's', query: 'weather', maxResults: 3 });
    expect(found.toolReferences.length).toBeGreaterThan(0);
  });

  it('aborts an embed call that passes timeoutMs and fails with a timeout', async () => {
    let aborted = 0;
    const hanging: EmbeddingModel = {
      embed: (_texts, options) =>
        new Promise((_, reject) => {
          options?.signal?.addEventListener('abort', () => {
            aborted++;
            reject(options.signal?.reason);
          });
        }),
    };
    const index = new VectorToolIndex({ embeddingModel: hanging, timeoutMs: 50 });
    await expect(index.indexTools('s', tools)).rejects.toMatchObject({
      name: 'ToolIndexTimeoutError',
      message: 'the embedding model did not answer within 50 ms',
    });
    expect(aborted).toBe(1);
    expect(index.size('s')).toBe(0);
    expect(() => new VectorToolIndex({ embeddingModel: hanging, timeoutMs: 0 })).toThrow(
      'timeoutMs must be a positive number',
    );
  });
});
