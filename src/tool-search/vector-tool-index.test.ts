import { describe, expect, it } from 'vitest';
import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import { HashingEmbeddingModel } from '../embeddings/hashing-embedding-model.js';
import type { ToolReference } from './tool-reference.js';
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
  readonly batches: string[][] = [];
  readonly #model = new HashingEmbeddingModel();
  async embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<number[][]> {
    this.batches.push([...texts]);
    return this.#model.embed(texts, options);
  }
}

const tools = [
  ref('getWeather', 'Get the current weather conditions for a city'),
  ref('stockQuote', 'Look up the latest stock price of a listed company'),
  ref('sendEmail', 'Send an email message to a recipient'),
];

describe('VectorToolIndex', () => {
  it('requires an embedding model and a positive batch size', () => {
    expect(() => new VectorToolIndex(undefined as never)).toThrow('embeddingModel is required');
    expect(
      () => new VectorToolIndex({ embeddingModel: new HashingEmbeddingModel(), batchSize: 0 }),
    ).toThrow('batchSize must be a positive integer');
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

  it('rejects a model that returns the wrong number of vectors', async () => {
    const index = new VectorToolIndex({ embeddingModel: { embed: async () => [] } });
    await expect(index.indexTools('s', tools)).rejects.toThrow('returned 0 vectors for 3 texts');
  });
});
