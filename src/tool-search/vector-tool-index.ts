import { createHash } from 'node:crypto';
import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import type {
  ToolEmbeddingCache,
  ToolEmbeddingCacheEntry,
} from '../embeddings/tool-embedding-cache.js';
import { IllegalStateError, InvalidArgumentError, throwIfAborted } from '../errors/index.js';
import { optionNames, rejectUnknownOptions } from '../internal/option-names.js';
import { errorTypeName } from '../tool-calling/tool-execution-exception-processor.js';
import { describeError } from '../tool-calling/tool-loop-events.js';
import { categoryMatcher } from './category-filter.js';
import { checkSearchRequest } from './check-search-request.js';
import { embeddedVectors, isUsableCachedVector } from './embedded-vectors.js';
import { requestClauses } from './request-clauses.js';
import { runWithTimeout, ToolIndexTimeoutError } from './run-with-timeout.js';
import type { IndexToolsOptions, ToolIndex } from './tool-index.js';
import type {
  SearchMetadata,
  ToolReference,
  ToolSearchRequest,
  ToolSearchResponse,
} from './tool-reference.js';
import { isBlank, toolSearchText } from './tool-search-text.js';

/** Options of {@link VectorToolIndex}. */
export interface VectorToolIndexOptions {
  /** Embeds tool texts and queries. */
  readonly embeddingModel: EmbeddingModel;
  /** Hits with a cosine similarity below this are dropped. Default `0.2`, as in Spring AI. */
  readonly similarityThreshold?: number;
  /** Results when a request gives no `maxResults`. Default 10. */
  readonly defaultMaxResults?: number;
  /** Texts per `embed` call when indexing. Default 256. */
  readonly batchSize?: number;
  /** The text embedded for a tool. Default: name words, description and parameter text. */
  readonly toolText?: (reference: ToolReference) => string;
  /**
   * A store shared by processes (Redis, PostgreSQL, SQLite, or your own): tool embeddings are read
   * from it before the model is called and written to it after, keyed by a hash of the model's
   * `id` and the tool's text, so a fleet embeds each tool once. Needs `embeddingModel.id`.
   */
  readonly embeddingCache?: ToolEmbeddingCache;
  /**
   * Tool embeddings kept in this process by text, across sessions (least recently used dropped
   * first), so a session indexing tools another session already embedded calls no model.
   * Default 10,000; `0` keeps only the sessions' own.
   */
  readonly memoryCacheSize?: number;
  /**
   * An `embed` call (a batch of tool texts, or a query) that takes longer is aborted and fails;
   * an `embeddingCache` call that takes longer is given up (a miss: the tools are embedded).
   * Default 60,000, enough for a batch on a slow in-process model; a `HybridToolIndex` waits less
   * (its own timeouts) and lets this one end the work it no longer waits for.
   */
  readonly timeoutMs?: number;
  /**
   * Also embed each clause of a request that asks for several things ("look up the invoice and
   * then pay it"), in the same `embed` call, and score a tool by its best similarity to the whole
   * request or any clause: one vector for the whole request drifts to one of its needs. Default
   * `true`. Clauses are found by sentence ends and English conjunctions; a request with one
   * clause embeds only itself.
   */
  readonly queryClauses?: boolean;
}

/** Every option name of {@link VectorToolIndexOptions}, to refuse a misspelt one. */
const OPTION_NAMES = optionNames<VectorToolIndexOptions>()(
  'embeddingModel',
  'similarityThreshold',
  'defaultMaxResults',
  'batchSize',
  'toolText',
  'embeddingCache',
  'memoryCacheSize',
  'timeoutMs',
  'queryClauses',
);

/** Only this many characters of a query are embedded. */
const MAX_QUERY_LENGTH = 4096;

interface VectorEntry {
  readonly reference: ToolReference;
  readonly vector: Float32Array;
}

/**
 * Cosine similarity between the query's embedding and each tool's (name, description and
 * parameter text), from any {@link EmbeddingModel}. Finds paraphrases that share no word with the
 * tool ("vacation days left" → a PTO-balance tool) when the model knows the language; it is only
 * as good as its embeddings. A request that asks for several things is embedded whole and clause
 * by clause (one `embed` call), and each tool scores its best similarity (`queryClauses`).
 *
 * Each tool text is embedded once per process (a memory cache by text hash, shared by sessions)
 * and, with an `embeddingCache`, once per fleet; concurrent indexing calls that need the same text
 * share one embedding. Vectors are normalised and kept as 32-bit floats, as the caches store them,
 * so a ranking is the same whether a vector was embedded or read. An indexing call whose embedding
 * fails rejects and changes nothing; a failing cache only costs embeddings.
 */
export class VectorToolIndex implements ToolIndex {
  readonly #model: EmbeddingModel;
  readonly #threshold: number;
  readonly #defaultMaxResults: number;
  readonly #batchSize: number;
  readonly #toolText: (reference: ToolReference) => string;
  readonly #store: ToolEmbeddingCache | undefined;
  readonly #memoryCacheSize: number;
  readonly #timeoutMs: number;
  readonly #queryClauses: boolean;
  /** Tool vectors by key, least recently used first. */
  readonly #memory = new Map<string, Float32Array>();
  /** Embeddings in progress by key; each settles `undefined` when its embedding failed. */
  readonly #embedding = new Map<string, Promise<Float32Array | undefined>>();
  readonly #sessions = new Map<string, Map<string, VectorEntry>>();
  /**
   * Sessions with an indexing call still embedding: the count of such calls and how often the
   * session was cleared meanwhile, so that a cleared session is not resurrected by a late write.
   */
  readonly #inFlight = new Map<string, { calls: number; clears: number }>();

  /**
   * @throws InvalidArgumentError without an embedding model, with a `batchSize` or
   *   `memoryCacheSize` that is not a positive integer (or 0 for the cache), a `timeoutMs` that is
   *   not positive, or with an `embeddingCache` but no `embeddingModel.id`.
   */
  constructor(options: VectorToolIndexOptions) {
    rejectUnknownOptions(options, OPTION_NAMES, 'VectorToolIndex');
    if (options?.embeddingModel === undefined) {
      throw new InvalidArgumentError('embeddingModel is required');
    }
    const batchSize = options.batchSize ?? 256;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new InvalidArgumentError('batchSize must be a positive integer');
    }
    const memoryCacheSize = options.memoryCacheSize ?? 10_000;
    if (!Number.isInteger(memoryCacheSize) || memoryCacheSize < 0) {
      throw new InvalidArgumentError('memoryCacheSize must be a non-negative integer');
    }
    if (options.embeddingCache !== undefined && isBlank(options.embeddingModel.id)) {
      throw new InvalidArgumentError(
        'an embeddingCache needs embeddingModel.id: the cache keys vectors by model and text',
      );
    }
    this.#model = options.embeddingModel;
    this.#threshold = options.similarityThreshold ?? 0.2;
    this.#defaultMaxResults = options.defaultMaxResults ?? 10;
    this.#batchSize = batchSize;
    this.#toolText = options.toolText ?? toolSearchText;
    this.#store = options.embeddingCache;
    this.#memoryCacheSize = memoryCacheSize;
    const timeoutMs = options.timeoutMs ?? 60_000;
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new InvalidArgumentError('timeoutMs must be a positive number');
    }
    this.#timeoutMs = timeoutMs;
    this.#queryClauses = options.queryClauses ?? true;
  }

  /** Embeds texts with the model, aborting the call after `timeoutMs`. */
  #embed(texts: readonly string[], signal: AbortSignal | undefined): Promise<number[][]> {
    return runWithTimeout(
      (bounded) => this.#model.embed(texts, { signal: bounded }),
      this.#timeoutMs,
      `the embedding model did not answer within ${this.#timeoutMs} ms`,
      signal,
    );
  }

  /**
   * A call of the shared cache, given up after `timeoutMs` (a `ToolIndexTimeoutError`) or when
   * `signal` aborts: a cache that never answers (a client queueing commands while its server is
   * down) costs embeddings, never the indexing.
   */
  #fromCache<T>(call: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    return runWithTimeout(
      call,
      this.#timeoutMs,
      `the embedding cache did not answer within ${this.#timeoutMs} ms`,
      signal,
    );
  }

  /** {@inheritDoc ToolIndex.indexTools} */
  async indexTools(
    sessionId: string,
    references: readonly ToolReference[],
    options: IndexToolsOptions = {},
  ): Promise<void> {
    if (references.length === 0) return;
    const flight = this.#inFlight.get(sessionId) ?? { calls: 0, clears: 0 };
    this.#inFlight.set(sessionId, flight);
    flight.calls++;
    const clearsBefore = flight.clears;
    try {
      const vectors = await this.#toolVectors(references, options);
      // Written only after every vector is there, so a failed indexing call leaves no half index.
      if (flight.clears !== clearsBefore) return;
      let session = this.#sessions.get(sessionId);
      if (session === undefined) {
        session = new Map();
        this.#sessions.set(sessionId, session);
      }
      references.forEach((reference, i) => {
        session.delete(reference.toolName);
        session.set(reference.toolName, { reference, vector: vectors[i] as Float32Array });
      });
    } finally {
      if (--flight.calls === 0) this.#inFlight.delete(sessionId);
    }
  }

  /** {@inheritDoc ToolIndex.indexTool} */
  indexTool(
    sessionId: string,
    reference: ToolReference,
    options?: IndexToolsOptions,
  ): Promise<void> {
    return this.indexTools(sessionId, [reference], options);
  }

  /**
   * The vector of each reference: from memory, from an embedding already in progress, from the
   * shared cache, and only then from the model (each distinct text once).
   */
  async #toolVectors(
    references: readonly ToolReference[],
    options: IndexToolsOptions,
  ): Promise<Float32Array[]> {
    const texts = references.map((reference) => this.#toolText(reference));
    const keys = texts.map((text) => this.#key(text));
    const vectors = keys.map((key) => this.#remembered(key));
    const missing = () => keys.filter((_, i) => vectors[i] === undefined);
    const fill = (found: ReadonlyMap<string, Float32Array>) => {
      keys.forEach((key, i) => {
        vectors[i] ??= found.get(key);
      });
    };

    const pending = [...new Set(missing())].filter((key) => this.#embedding.has(key));
    if (pending.length > 0) {
      const settled = await Promise.all(pending.map((key) => this.#embedding.get(key)));
      fill(new Map(pending.flatMap((key, i) => (settled[i] ? [[key, settled[i]]] : []))));
      throwIfAborted(options.signal);
    }

    const store = this.#store;
    if (store !== undefined && missing().length > 0) {
      const wanted = [...new Set(missing())];
      try {
        const stored = await this.#fromCache(() => store.get(wanted), options.signal);
        const found = new Map<string, Float32Array>();
        wanted.forEach((key, i) => {
          const vector = stored[i];
          if (isUsableCachedVector(vector)) found.set(key, vector);
        });
        for (const [key, vector] of found) this.#remember(key, vector);
        fill(found);
      } catch (error) {
        throwIfAborted(options.signal);
        reportCacheFailure(store, error, options);
      }
    }

    const textOf = new Map<string, string>();
    keys.forEach((key, i) => {
      if (vectors[i] === undefined) textOf.set(key, texts[i] as string);
    });
    if (textOf.size > 0) {
      const embedded = await this.#embedTexts(textOf, options.signal);
      fill(embedded);
      if (store !== undefined) {
        const entries: ToolEmbeddingCacheEntry[] = [...embedded].map(([key, vector]) => ({
          key,
          vector,
        }));
        try {
          await this.#fromCache(() => store.set(entries), options.signal);
        } catch (error) {
          throwIfAborted(options.signal);
          reportCacheFailure(store, error, options);
        }
      }
    }
    return vectors as Float32Array[];
  }

  /** Embeds texts by key, in batches; others needing the same keys meanwhile wait for these. */
  async #embedTexts(
    textOf: ReadonlyMap<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<Map<string, Float32Array>> {
    const settle = new Map<string, (vector: Float32Array | undefined) => void>();
    for (const key of textOf.keys()) {
      this.#embedding.set(
        key,
        new Promise((resolve) => {
          settle.set(key, resolve);
        }),
      );
    }
    const embedded = new Map<string, Float32Array>();
    try {
      const keys = [...textOf.keys()];
      for (let start = 0; start < keys.length; start += this.#batchSize) {
        const batch = keys.slice(start, start + this.#batchSize);
        const vectors = await this.#embed(
          batch.map((key) => textOf.get(key) as string),
          signal,
        );
        const unit = embeddedVectors(vectors, batch.length);
        batch.forEach((key, i) => {
          const vector = unit[i] as Float32Array;
          embedded.set(key, vector);
          this.#remember(key, vector);
          settle.get(key)?.(vector);
        });
      }
      return embedded;
    } finally {
      for (const [key, resolve] of settle) {
        resolve(embedded.get(key));
        this.#embedding.delete(key);
      }
    }
  }

  /** The cache key of a tool text: a hash of the model id and the text. */
  #key(text: string): string {
    return createHash('sha256')
      .update(this.#model.id ?? '')
      .update('\u0000')
      .update(text)
      .digest('hex');
  }

  #remembered(key: string): Float32Array | undefined {
    const vector = this.#memory.get(key);
    if (vector !== undefined) {
      this.#memory.delete(key);
      this.#memory.set(key, vector);
    }
    return vector;
  }

  #remember(key: string, vector: Float32Array): void {
    if (this.#memoryCacheSize === 0) return;
    this.#memory.delete(key);
    this.#memory.set(key, vector);
    if (this.#memory.size > this.#memoryCacheSize) {
      this.#memory.delete(this.#memory.keys().next().value as string);
    }
  }

  /** {@inheritDoc ToolIndex.search} */
  async search(request: ToolSearchRequest): Promise<ToolSearchResponse> {
    checkSearchRequest(request);
    const started = performance.now();
    const session = isBlank(request.sessionId) ? undefined : this.#sessions.get(request.sessionId);
    const toolReferences: ToolReference[] = [];
    let categoryFilterApplied = false;
    let scoreStatistics: SearchMetadata['scoreStatistics'];
    if (session !== undefined && session.size > 0 && !isBlank(request.query)) {
      const texts = [
        request.query,
        ...(this.#queryClauses ? requestClauses(request.query) : []),
      ].map((text) => text.slice(0, MAX_QUERY_LENGTH));
      const queries = embeddedVectors(await this.#embed(texts, request.signal), texts.length);
      const entries = [...session.values()];
      const dimension = (queries[0] as Float32Array).length;
      const mismatched = entries.find((entry) => entry.vector.length !== dimension);
      if (mismatched !== undefined) {
        throw new IllegalStateError(
          `the query vector has ${dimension} dimensions, the tools of session ${request.sessionId} have ${mismatched.vector.length}: give each embedding model its own id`,
        );
      }
      const inCategory = categoryMatcher(
        entries.map((entry) => entry.reference),
        request.categoryFilter,
      );
      categoryFilterApplied = inCategory !== undefined;
      const scored: ToolReference[] = [];
      let count = 0;
      let sum = 0;
      let sumOfSquares = 0;
      for (const entry of entries) {
        if (inCategory !== undefined && !inCategory(entry.reference)) continue;
        let similarity = -Infinity;
        for (const query of queries) similarity = Math.max(similarity, dot(query, entry.vector));
        count++;
        sum += similarity;
        sumOfSquares += similarity * similarity;
        if (similarity >= this.#threshold)
          scored.push({ ...entry.reference, relevanceScore: similarity });
      }
      if (count > 0) {
        const mean = sum / count;
        scoreStatistics = {
          mean,
          standardDeviation: Math.sqrt(Math.max(0, sumOfSquares / count - mean * mean)),
        };
      }
      scored.sort((a, b) => (b.relevanceScore ?? 0) - (a.relevanceScore ?? 0));
      toolReferences.push(...scored.slice(0, request.maxResults ?? this.#defaultMaxResults));
    }
    return {
      toolReferences,
      totalMatches: toolReferences.length,
      searchMetadata: {
        searchType: 'VectorToolIndex',
        query: request.query,
        searchTimeMs: performance.now() - started,
        categoryFilterApplied,
        ...(scoreStatistics === undefined ? {} : { scoreStatistics }),
      },
    };
  }

  /** {@inheritDoc ToolIndex.clearIndex} */
  clearIndex(sessionId: string): void {
    this.#sessions.delete(sessionId);
    const flight = this.#inFlight.get(sessionId);
    if (flight !== undefined) flight.clears++;
  }

  /** Number of tools indexed for the session. */
  size(sessionId: string): number {
    return this.#sessions.get(sessionId)?.size ?? 0;
  }
}

function reportCacheFailure(
  cache: ToolEmbeddingCache,
  error: unknown,
  options: IndexToolsOptions,
): void {
  options.onFallback?.({
    phase: 'index',
    source: errorTypeName(cache),
    reason: error instanceof ToolIndexTimeoutError ? 'timeout' : 'error',
    error: describeError(error),
  });
}

function dot(a: Float32Array, b: Float32Array): number {
  const length = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
