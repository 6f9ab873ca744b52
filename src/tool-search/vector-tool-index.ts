import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import { IllegalStateError, InvalidArgumentError } from '../errors/index.js';
import { categoryMatcher } from './category-filter.js';
import type { IndexToolsOptions, ToolIndex } from './tool-index.js';
import type { ToolReference, ToolSearchRequest, ToolSearchResponse } from './tool-reference.js';
import { isBlank, toolSearchText } from './tool-search-text.js';

/** Options of {@link VectorToolIndex}. */
export interface VectorToolIndexOptions {
  /** Embeds tool texts and queries. */
  readonly embeddingModel: EmbeddingModel;
  /** Hits with a cosine similarity below this are dropped. Default `0.2`, as in the reference. */
  readonly similarityThreshold?: number;
  /** Results when a request gives no `maxResults`. Default 10. */
  readonly defaultMaxResults?: number;
  /** Texts per `embed` call when indexing. Default 256. */
  readonly batchSize?: number;
  /** The text embedded for a tool. Default: name words, description and parameter text. */
  readonly toolText?: (reference: ToolReference) => string;
}

/** Only this many characters of a query are embedded. */
const MAX_QUERY_LENGTH = 4096;

interface VectorEntry {
  readonly reference: ToolReference;
  readonly vector: Float64Array;
}

/**
 * Cosine similarity between the query's embedding and each tool's (name, description and
 * parameter text), from any {@link EmbeddingModel}. Finds paraphrases that share no word with the
 * tool ("vacation days left" → a PTO-balance tool) when the model knows the language; it is only
 * as good as its embeddings.
 */
export class VectorToolIndex implements ToolIndex {
  readonly #model: EmbeddingModel;
  readonly #threshold: number;
  readonly #defaultMaxResults: number;
  readonly #batchSize: number;
  readonly #toolText: (reference: ToolReference) => string;
  readonly #sessions = new Map<string, Map<string, VectorEntry>>();
  /**
   * Sessions with an indexing call still embedding: the count of such calls and how often the
   * session was cleared meanwhile, so that a cleared session is not resurrected by a late write.
   */
  readonly #inFlight = new Map<string, { calls: number; clears: number }>();

  constructor(options: VectorToolIndexOptions) {
    if (options?.embeddingModel === undefined) {
      throw new InvalidArgumentError('embeddingModel is required');
    }
    const batchSize = options.batchSize ?? 256;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new InvalidArgumentError('batchSize must be a positive integer');
    }
    this.#model = options.embeddingModel;
    this.#threshold = options.similarityThreshold ?? 0.2;
    this.#defaultMaxResults = options.defaultMaxResults ?? 10;
    this.#batchSize = batchSize;
    this.#toolText = options.toolText ?? toolSearchText;
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
      const vectors = await this.#embedAll(references, options.signal);
      // Written only after every batch succeeded, so a failed indexing call leaves no half index.
      if (flight.clears !== clearsBefore) return;
      let session = this.#sessions.get(sessionId);
      if (session === undefined) {
        session = new Map();
        this.#sessions.set(sessionId, session);
      }
      references.forEach((reference, i) => {
        session.delete(reference.toolName);
        session.set(reference.toolName, { reference, vector: vectors[i] as Float64Array });
      });
    } finally {
      if (--flight.calls === 0) this.#inFlight.delete(sessionId);
    }
  }

  async #embedAll(
    references: readonly ToolReference[],
    signal: AbortSignal | undefined,
  ): Promise<Float64Array[]> {
    const vectors: Float64Array[] = [];
    for (let start = 0; start < references.length; start += this.#batchSize) {
      const batch = references.slice(start, start + this.#batchSize);
      const embedded = await this.#model.embed(
        batch.map((reference) => this.#toolText(reference)),
        { signal },
      );
      if (embedded.length !== batch.length) {
        throw new IllegalStateError(
          `embedding model returned ${embedded.length} vectors for ${batch.length} texts`,
        );
      }
      for (const vector of embedded) vectors.push(normalize(vector));
    }
    return vectors;
  }

  /** {@inheritDoc ToolIndex.indexTool} */
  indexTool(
    sessionId: string,
    reference: ToolReference,
    options?: IndexToolsOptions,
  ): Promise<void> {
    return this.indexTools(sessionId, [reference], options);
  }

  /** {@inheritDoc ToolIndex.search} */
  async search(request: ToolSearchRequest): Promise<ToolSearchResponse> {
    const started = performance.now();
    const session = isBlank(request.sessionId) ? undefined : this.#sessions.get(request.sessionId);
    const toolReferences: ToolReference[] = [];
    let categoryFilterApplied = false;
    if (session !== undefined && session.size > 0 && !isBlank(request.query)) {
      const [embedded] = await this.#model.embed([request.query.slice(0, MAX_QUERY_LENGTH)], {
        signal: request.signal,
      });
      if (embedded === undefined) throw new IllegalStateError('embedding model returned no vector');
      const query = normalize(embedded);
      const entries = [...session.values()];
      const inCategory = categoryMatcher(
        entries.map((entry) => entry.reference),
        request.categoryFilter,
      );
      categoryFilterApplied = inCategory !== undefined;
      const scored: ToolReference[] = [];
      for (const entry of entries) {
        if (inCategory !== undefined && !inCategory(entry.reference)) continue;
        const similarity = dot(query, entry.vector);
        if (similarity >= this.#threshold)
          scored.push({ ...entry.reference, relevanceScore: similarity });
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

function normalize(vector: readonly number[]): Float64Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  const out = new Float64Array(vector.length);
  if (norm === 0 || !Number.isFinite(norm)) return out;
  for (let i = 0; i < vector.length; i++) out[i] = (vector[i] as number) / norm;
  return out;
}

function dot(a: Float64Array, b: Float64Array): number {
  const length = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
