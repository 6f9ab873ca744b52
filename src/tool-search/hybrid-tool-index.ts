import { InvalidArgumentError } from '../errors/index.js';
import type { IndexToolsOptions, ToolIndex } from './tool-index.js';
import type { ToolReference, ToolSearchRequest, ToolSearchResponse } from './tool-reference.js';

/** Options of {@link HybridToolIndex}. */
export interface HybridToolIndexOptions {
  /** The indexes to fuse, e.g. `[new Bm25ToolIndex(), new VectorToolIndex({ embeddingModel })]`. */
  readonly indexes: readonly ToolIndex[];
  /** Per-index weight of its reciprocal ranks, in the order of `indexes`. Default 1 each. */
  readonly weights?: readonly number[];
  /** The RRF constant k in 1/(k + rank). Default 60. */
  readonly rankConstant?: number;
  /** Candidates taken from each index before fusing. Default 50. */
  readonly candidates?: number;
  /** Results when a request gives no `maxResults`. Default 10. */
  readonly defaultMaxResults?: number;
}

/**
 * Reciprocal rank fusion of several indexes (typically BM25 and a vector index): every index is
 * searched, and a tool's score is Σ weightᵢ / (k + rankᵢ) over the indexes that found it. Rank
 * fusion needs no score calibration between lexical and semantic scores; a tool that both find
 * rises to the top. Indexing and clearing go to every index. Measured with the no-network
 * `HashingEmbeddingModel` as the vector side, the fusion beats BM25 alone on BFCL's synthetic sets
 * and loses on LiveMCPBench and BFCL's live sets (bench/RESULTS.md); it is meant for a real
 * embedding model.
 */
export class HybridToolIndex implements ToolIndex {
  readonly #indexes: readonly ToolIndex[];
  readonly #weights: readonly number[];
  readonly #k: number;
  readonly #candidates: number;
  readonly #defaultMaxResults: number;

  constructor(options: HybridToolIndexOptions) {
    if (options?.indexes === undefined || options.indexes.length === 0) {
      throw new InvalidArgumentError('at least one index is required');
    }
    if (options.weights !== undefined && options.weights.length !== options.indexes.length) {
      throw new InvalidArgumentError('weights must have one entry per index');
    }
    this.#indexes = [...options.indexes];
    this.#weights = options.weights ?? options.indexes.map(() => 1);
    this.#k = options.rankConstant ?? 60;
    this.#candidates = options.candidates ?? 50;
    this.#defaultMaxResults = options.defaultMaxResults ?? 10;
  }

  /** {@inheritDoc ToolIndex.indexTools} */
  async indexTools(
    sessionId: string,
    references: readonly ToolReference[],
    options?: IndexToolsOptions,
  ): Promise<void> {
    await Promise.all(
      this.#indexes.map((index) => index.indexTools(sessionId, references, options)),
    );
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
    const responses = await Promise.all(
      this.#indexes.map((index) =>
        index.search({
          ...request,
          maxResults: Math.max(this.#candidates, request.maxResults ?? 0),
        }),
      ),
    );
    const fused = new Map<string, { reference: ToolReference; score: number; order: number }>();
    let order = 0;
    responses.forEach((response, i) => {
      const weight = this.#weights[i] ?? 1;
      response.toolReferences.forEach((reference, rank) => {
        const entry = fused.get(reference.toolName);
        const contribution = weight / (this.#k + rank + 1);
        if (entry === undefined) {
          fused.set(reference.toolName, { reference, score: contribution, order: order++ });
        } else {
          entry.score += contribution;
        }
      });
    });
    const toolReferences = [...fused.values()]
      .sort((a, b) => b.score - a.score || a.order - b.order)
      .slice(0, request.maxResults ?? this.#defaultMaxResults)
      .map(({ reference, score }) => ({ ...reference, relevanceScore: score }));
    return {
      toolReferences,
      totalMatches: toolReferences.length,
      searchMetadata: {
        searchType: 'HybridToolIndex',
        query: request.query,
        searchTimeMs: performance.now() - started,
        categoryFilterApplied: responses.some(
          (r) => r.searchMetadata.categoryFilterApplied === true,
        ),
      },
    };
  }

  /** {@inheritDoc ToolIndex.clearIndex} */
  async clearIndex(sessionId: string): Promise<void> {
    await Promise.all(this.#indexes.map((index) => index.clearIndex(sessionId)));
  }
}
