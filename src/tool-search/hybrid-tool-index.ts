import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import type { ToolEmbeddingCache } from '../embeddings/tool-embedding-cache.js';
import { InvalidArgumentError } from '../errors/index.js';
import { optionNames, rejectUnknownOptions } from '../internal/option-names.js';
import { errorTypeName } from '../tool-calling/tool-execution-exception-processor.js';
import { describeError } from '../tool-calling/tool-loop-events.js';
import { checkSearchRequest } from './check-search-request.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { runWithTimeout, settledWithin, ToolIndexTimeoutError } from './run-with-timeout.js';
import type { IndexToolsOptions, ToolIndex } from './tool-index.js';
import type { ToolReference, ToolSearchRequest, ToolSearchResponse } from './tool-reference.js';
import type { ToolSearchFallback } from './tool-search-fallback.js';
import { VectorToolIndex } from './vector-tool-index.js';

/** How a {@link HybridToolIndex} merges the rankings of its indexes. */
export type HybridFusion = 'score' | 'rank';

/**
 * How {@link HybridToolIndex}'s score fusion scales an index's weight by how far its best hit
 * stands out (a z-score over every tool it scored): × 0 up to `zeroAt`, × 1 from `fullAt`.
 */
export interface HybridConfidence {
  /** The z-score of the best hit at and below which the index adds nothing. */
  readonly zeroAt: number;
  /** The z-score of the best hit from which the index counts at its full weight. */
  readonly fullAt: number;
}

/** Options of {@link HybridToolIndex}: an `embeddingModel` (the common case) or `indexes`. */
export interface HybridToolIndexOptions {
  /**
   * The model of the semantic side: the hybrid fuses a `LexicalToolIndex` with a
   * `VectorToolIndex` over this model. Give this or `indexes`.
   */
  readonly embeddingModel?: EmbeddingModel;
  /** With `embeddingModel`: the shared store of tool embeddings (see `VectorToolIndex`). */
  readonly embeddingCache?: ToolEmbeddingCache;
  /** With `embeddingModel`: the lexical side. Default `new LexicalToolIndex()`. */
  readonly lexicalIndex?: ToolIndex;
  /**
   * With `embeddingModel`: the semantic side also embeds each clause of a request that asks for
   * several things, and scores a tool by its best clause (see `VectorToolIndex`). Default `true`.
   */
  readonly queryClauses?: boolean;
  /**
   * The indexes to fuse, best-understood first, e.g.
   * `[new LexicalToolIndex(), new VectorToolIndex({ embeddingModel })]`. Give this or
   * `embeddingModel`.
   */
  readonly indexes?: readonly ToolIndex[];
  /**
   * `'score'` (default): each tool scores Σ weightᵢ × its score in index i divided by index i's
   * best score in this search, so how far ahead the best hits are counts (an index that gives no
   * `relevanceScore` adds nothing). `'rank'`: reciprocal rank fusion, Σ weightᵢ / (k + rankᵢ),
   * which needs no scores.
   */
  readonly fusion?: HybridFusion;
  /**
   * Per-index weight, in the order of the indexes. Default 1 each, except for score fusion with
   * an `embeddingModel`: `[1, 0.8]` (lexical, semantic), chosen on one data set and checked on
   * six others (docs/semantic-tool-search.md).
   */
  readonly weights?: readonly number[];
  /**
   * Score fusion weighs an index that reports `searchMetadata.scoreStatistics` (`VectorToolIndex`
   * does) by how far its best hit stands out from every tool's score, z = (best − mean) /
   * standard deviation: weight × 0 up to z = `zeroAt`, × 1 from z = `fullAt`, linear in between.
   * A vector side whose scores are flat (no tool much nearer the request than the rest of the
   * library) then cannot push the lexical side's hits out. Indexes that report no statistics
   * (the lexical ones) keep their weight; rank fusion ignores this. Default
   * `{ zeroAt: 2, fullAt: 8 }`, chosen on one data set's tuning half; `false` weighs every index
   * by its weight alone.
   */
  readonly confidence?: HybridConfidence | false;
  /** The RRF constant k in 1/(k + rank) of `'rank'` fusion. Default 60. */
  readonly rankConstant?: number;
  /**
   * Candidates taken from each index before fusing (more when a request asks for more results).
   * Default 100, chosen with the weights on one data set (50 measured the same within a request).
   */
  readonly candidates?: number;
  /** Results when a request gives no `maxResults`. Default 10. */
  readonly defaultMaxResults?: number;
  /**
   * An index that has not answered a search after this many ms is left out of it (its request
   * aborted). Default 3,000: a search is a step of a conversation.
   */
  readonly searchTimeoutMs?: number;
  /**
   * How long indexing may keep the caller waiting (the start of a turn): an index not done by
   * then goes on in the background, and the session's searches leave it out until it is done.
   * Default 10,000. A large library on a slow in-process model is best indexed once at startup
   * (docs/semantic-tool-search.md).
   */
  readonly indexTimeoutMs?: number;
  /**
   * After an index failed (threw, or a search passed `searchTimeoutMs`), it is left out of
   * searches and indexing for this many ms, so a model that is down does not cost every search
   * its timeout. Default 30,000; 0 tries again at once.
   */
  readonly retryAfterMs?: number;
}

/** Every option name of {@link HybridToolIndexOptions}, to refuse a misspelt one. */
const OPTION_NAMES = optionNames<HybridToolIndexOptions>()(
  'embeddingModel',
  'embeddingCache',
  'lexicalIndex',
  'queryClauses',
  'indexes',
  'fusion',
  'weights',
  'confidence',
  'rankConstant',
  'candidates',
  'defaultMaxResults',
  'searchTimeoutMs',
  'indexTimeoutMs',
  'retryAfterMs',
);

/**
 * Weights of the lexical and the semantic side that a hybrid built from an `embeddingModel` uses
 * with score fusion: chosen on the tuning half of BFCL live_multiple (best recall@5, then recall@1
 * and MRR) and checked on the other six sets (bench/semantic-tool-retrieval.ts).
 */
const DEFAULT_SEMANTIC_WEIGHTS: readonly number[] = Object.freeze([1, 0.8]);

/**
 * The confidence ramp of score fusion: chosen on the same tuning half (best recall@5, then the
 * fewest requests made worse than the lexical side alone) over z from 1.5 to 3 for `zeroAt` and
 * 6 to 12 for `fullAt` (bench/hybrid-fusion-study.ts).
 */
const DEFAULT_CONFIDENCE: HybridConfidence = Object.freeze({ zeroAt: 2, fullAt: 8 });

/** One fused index and what the hybrid knows about its state. */
interface Part {
  readonly index: ToolIndex;
  readonly weight: number;
  readonly name: string;
  /** `performance.now()` before which the index is left out, after a failure. */
  unavailableUntil: number;
  /**
   * Per session, the tools this index has not (yet) indexed, by name: the session's searches
   * leave the index out until they are indexed.
   */
  readonly pending: Map<string, Map<string, ToolReference>>;
  /** Per session, indexing still running (past the caller's wait, or a retry). */
  readonly indexing: Map<string, Promise<void>>;
}

/** An index left out after a recent failure. */
class ToolIndexUnavailableError extends Error {
  override readonly name = 'ToolIndexUnavailableError';
}

type PartResult =
  | { readonly response: ToolSearchResponse; readonly weight: number }
  | { readonly fallback: ToolSearchFallback; readonly error?: unknown };

/**
 * Several indexes searched together, typically the lexical default and a vector index over the
 * user's embedding model (`new HybridToolIndex({ embeddingModel })` builds that pair): every index
 * is searched and their results fused, by normalised scores (default) or by reciprocal ranks.
 *
 * A failing index never fails the hybrid while another answers. An index that throws or passes
 * `searchTimeoutMs` (an embedding model that is down or hangs) is left out of that search, which
 * ranks with the others (lexical only), and out of the next ones for `retryAfterMs`. An index
 * that fails to index a session's tools, or is not done within `indexTimeoutMs` (it then goes on
 * in the background), is left out of that session's searches until it has them; a later search
 * indexes them again when nothing is running. The response's `searchMetadata.fallbacks` and the
 * indexing call's `onFallback` say what was left out and why; `ToolSearchToolCallingAdvisor` turns
 * both into `tool-search-fallback` turn events. Only when every index fails does a search or an
 * indexing call reject.
 */
export class HybridToolIndex implements ToolIndex {
  readonly #parts: readonly Part[];
  readonly #fusion: HybridFusion;
  readonly #k: number;
  readonly #confidence: HybridConfidence | undefined;
  readonly #candidates: number;
  readonly #defaultMaxResults: number;
  readonly #searchTimeoutMs: number;
  readonly #indexTimeoutMs: number;
  readonly #retryAfterMs: number;

  /**
   * @throws InvalidArgumentError without an `embeddingModel` or `indexes` (or with both), with
   *   `weights` not one per index, with a count or duration that is not a positive number, or
   *   with a `confidence` whose `zeroAt` is not a finite number below a finite `fullAt`.
   */
  constructor(options: HybridToolIndexOptions) {
    rejectUnknownOptions(options, OPTION_NAMES, 'HybridToolIndex');
    const indexes = hybridIndexes(options);
    const fusion = options.fusion ?? 'score';
    if (fusion !== 'score' && fusion !== 'rank') {
      throw new InvalidArgumentError("fusion must be 'score' or 'rank'");
    }
    const weights =
      options.weights ??
      (options.embeddingModel !== undefined && fusion === 'score'
        ? DEFAULT_SEMANTIC_WEIGHTS
        : indexes.map(() => 1));
    if (weights.length !== indexes.length) {
      throw new InvalidArgumentError('weights must have one entry per index');
    }
    if (!weights.every((weight) => Number.isFinite(weight) && weight >= 0)) {
      throw new InvalidArgumentError('weights must be finite and not negative');
    }
    this.#parts = indexes.map((index, i) => ({
      index,
      weight: weights[i] as number,
      name: errorTypeName(index),
      unavailableUntil: 0,
      pending: new Map(),
      indexing: new Map(),
    }));
    this.#fusion = fusion;
    this.#k = positive(options.rankConstant ?? 60, 'rankConstant');
    this.#confidence = confidenceRamp(options.confidence);
    this.#candidates = positiveInteger(options.candidates ?? 100, 'candidates');
    this.#defaultMaxResults = positiveInteger(options.defaultMaxResults ?? 10, 'defaultMaxResults');
    this.#searchTimeoutMs = positive(options.searchTimeoutMs ?? 3_000, 'searchTimeoutMs');
    this.#indexTimeoutMs = positive(options.indexTimeoutMs ?? 10_000, 'indexTimeoutMs');
    const retryAfterMs = options.retryAfterMs ?? 30_000;
    if (!Number.isFinite(retryAfterMs) || retryAfterMs < 0) {
      throw new InvalidArgumentError('retryAfterMs must be a non-negative number');
    }
    this.#retryAfterMs = retryAfterMs;
  }

  /** {@inheritDoc ToolIndex.indexTools} */
  async indexTools(
    sessionId: string,
    references: readonly ToolReference[],
    options: IndexToolsOptions = {},
  ): Promise<void> {
    if (references.length === 0) return;
    const failures = await Promise.all(
      this.#parts.map((part) => this.#indexInto(part, sessionId, references, options)),
    );
    if (failures.every((failure) => failure !== undefined)) throw failures[0]?.error;
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
   * Indexes into one part, waiting at most `indexTimeoutMs`; the tools stay pending there until
   * the part has them. What went wrong is reported and returned.
   */
  async #indexInto(
    part: Part,
    sessionId: string,
    references: readonly ToolReference[],
    options: IndexToolsOptions,
  ): Promise<{ error: unknown } | undefined> {
    const report = (fallback: ToolSearchFallback) => options.onFallback?.(fallback);
    addPending(part, sessionId, references);
    if (performance.now() < part.unavailableUntil) {
      report({ phase: 'index', source: part.name, reason: 'unavailable' });
      return {
        error: new ToolIndexUnavailableError(`${part.name} is unavailable after a failure`),
      };
    }
    const work = this.#startIndexing(part, sessionId, references, options);
    const outcome = await settledWithin(work, this.#indexTimeoutMs, options.signal);
    if (outcome === 'done') return undefined;
    if (outcome === 'running') {
      const error = new ToolIndexTimeoutError(
        `${part.name} did not finish indexing within ${this.#indexTimeoutMs} ms; it goes on in the background`,
      );
      report({ phase: 'index', source: part.name, reason: 'timeout', error: describeError(error) });
      return { error };
    }
    if (options.signal?.aborted) throw outcome.error;
    report({
      phase: 'index',
      source: part.name,
      reason: 'error',
      error: describeError(outcome.error),
    });
    return outcome;
  }

  /**
   * Indexes tools into a part, tracked as the session's running indexing: success clears them
   * from the pending ones, failure (not an abort) leaves the part out for `retryAfterMs`.
   */
  #startIndexing(
    part: Part,
    sessionId: string,
    references: readonly ToolReference[],
    options: IndexToolsOptions,
  ): Promise<void> {
    const work = Promise.resolve()
      .then(() =>
        part.index.indexTools(sessionId, references, {
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.onFallback === undefined ? {} : { onFallback: options.onFallback }),
        }),
      )
      .then(
        () => removePending(part, sessionId, references),
        (error: unknown) => {
          if (!options.signal?.aborted) this.#failed(part);
          throw error;
        },
      );
    const tracked: Promise<void> = work.finally(() => {
      if (part.indexing.get(sessionId) === tracked) part.indexing.delete(sessionId);
    });
    // Nobody may be waiting any more when it fails: not an unhandled rejection.
    tracked.catch(() => undefined);
    part.indexing.set(sessionId, tracked);
    return tracked;
  }

  /** {@inheritDoc ToolIndex.search} */
  async search(request: ToolSearchRequest): Promise<ToolSearchResponse> {
    checkSearchRequest(request);
    const started = performance.now();
    const candidates = Math.max(this.#candidates, request.maxResults ?? 0);
    const results = await Promise.all(
      this.#parts.map((part) => this.#searchIn(part, request, candidates)),
    );
    const answered: { response: ToolSearchResponse; weight: number }[] = [];
    const fallbacks: ToolSearchFallback[] = [];
    for (const result of results) {
      if ('response' in result) {
        answered.push(result);
        fallbacks.push(...(result.response.searchMetadata.fallbacks ?? []));
      } else {
        fallbacks.push(result.fallback);
      }
    }
    if (answered.length === 0) {
      const failed = results.find((result) => 'error' in result && result.error !== undefined);
      throw failed !== undefined && 'error' in failed
        ? failed.error
        : new ToolIndexUnavailableError('no index of the hybrid can search the session yet');
    }
    const k = this.#k;
    const fused =
      this.#fusion === 'rank'
        ? // Reciprocal rank fusion: Σ weight / (k + rank).
          fuse(answered, (weight, rank) => weight / (k + rank + 1))
        : // Score fusion: Σ weight × score / the index's best score (an index whose best is not
          // positive adds nothing), the weight scaled by how far that best stands out.
          fuse(
            answered.map((part) => ({
              ...part,
              weight: part.weight * confidenceOf(part.response, this.#confidence),
            })),
            (weight, _rank, score, best) => (best > 0 && score > 0 ? (weight * score) / best : 0),
          );
    const toolReferences = fused.slice(0, request.maxResults ?? this.#defaultMaxResults);
    return {
      toolReferences,
      totalMatches: toolReferences.length,
      searchMetadata: {
        searchType: 'HybridToolIndex',
        query: request.query,
        searchTimeMs: performance.now() - started,
        categoryFilterApplied: answered.some(
          ({ response }) => response.searchMetadata.categoryFilterApplied === true,
        ),
        ...(fallbacks.length === 0 ? {} : { fallbacks }),
      },
    };
  }

  /**
   * Searches one part once it has the session's tools (indexing the pending ones first when
   * nothing else is); never throws but on an abort.
   */
  async #searchIn(part: Part, request: ToolSearchRequest, candidates: number): Promise<PartResult> {
    const leftOut = (reason: ToolSearchFallback['reason'], error?: unknown): PartResult => ({
      fallback: {
        phase: 'search',
        source: part.name,
        reason,
        ...(error === undefined ? {} : { error: describeError(error) }),
      },
      ...(error === undefined ? {} : { error }),
    });
    if (performance.now() < part.unavailableUntil) return leftOut('unavailable');
    const started = performance.now();
    const pending = part.pending.get(request.sessionId);
    if (pending !== undefined && pending.size > 0) {
      // Indexing still running is not waited for: the search must not take its time.
      if (part.indexing.has(request.sessionId)) return leftOut('unavailable');
      const retry = this.#startIndexing(part, request.sessionId, [...pending.values()], {});
      const outcome = await settledWithin(retry, this.#searchTimeoutMs, request.signal);
      if (outcome === 'running') {
        return leftOut(
          'timeout',
          new ToolIndexTimeoutError(
            `${part.name} was still indexing the session's tools after ${this.#searchTimeoutMs} ms`,
          ),
        );
      }
      if (outcome !== 'done') return leftOut('error', outcome.error);
    }
    const remaining = Math.max(1, this.#searchTimeoutMs - (performance.now() - started));
    try {
      const response = await runWithTimeout(
        (signal) => part.index.search({ ...request, maxResults: candidates, signal }),
        remaining,
        `${part.name} did not answer within ${this.#searchTimeoutMs} ms`,
        request.signal,
      );
      return { response, weight: part.weight };
    } catch (error) {
      if (request.signal?.aborted) throw error;
      this.#failed(part);
      return leftOut(error instanceof ToolIndexTimeoutError ? 'timeout' : 'error', error);
    }
  }

  #failed(part: Part): void {
    part.unavailableUntil = performance.now() + this.#retryAfterMs;
  }

  /** {@inheritDoc ToolIndex.clearIndex} */
  async clearIndex(sessionId: string): Promise<void> {
    for (const part of this.#parts) {
      part.pending.delete(sessionId);
      part.indexing.delete(sessionId);
    }
    await Promise.all(this.#parts.map((part) => part.index.clearIndex(sessionId)));
  }
}

/** The indexes of the options: the lexical + vector pair for an `embeddingModel`, else `indexes`. */
function hybridIndexes(options: HybridToolIndexOptions): readonly ToolIndex[] {
  const hasModel = options?.embeddingModel !== undefined;
  const hasIndexes = options?.indexes !== undefined;
  if (hasModel === hasIndexes) {
    throw new InvalidArgumentError('give either an embeddingModel or indexes');
  }
  if (hasIndexes) {
    if (
      options.lexicalIndex !== undefined ||
      options.embeddingCache !== undefined ||
      options.queryClauses !== undefined
    ) {
      throw new InvalidArgumentError(
        'lexicalIndex, embeddingCache and queryClauses go with an embeddingModel',
      );
    }
    if (options.indexes?.length === 0) {
      throw new InvalidArgumentError('at least one index is required');
    }
    return [...(options.indexes as readonly ToolIndex[])];
  }
  return [
    options.lexicalIndex ?? new LexicalToolIndex(),
    new VectorToolIndex({
      embeddingModel: options.embeddingModel as EmbeddingModel,
      similarityThreshold: -1,
      ...(options.embeddingCache === undefined ? {} : { embeddingCache: options.embeddingCache }),
      ...(options.queryClauses === undefined ? {} : { queryClauses: options.queryClauses }),
    }),
  ];
}

/**
 * Adds up each tool's contributions over the indexes that found it (`contribution` of the index
 * weight, the tool's 0-based rank and score there, and that index's best score) and ranks the
 * tools by the sum; ties keep the order first seen.
 */
function fuse(
  answered: readonly { response: ToolSearchResponse; weight: number }[],
  contribution: (weight: number, rank: number, score: number, best: number) => number,
): ToolReference[] {
  const fused = new Map<string, { reference: ToolReference; score: number; order: number }>();
  let order = 0;
  for (const { response, weight } of answered) {
    const best = response.toolReferences[0]?.relevanceScore ?? 0;
    response.toolReferences.forEach((reference, rank) => {
      const add = contribution(weight, rank, reference.relevanceScore ?? 0, best);
      const entry = fused.get(reference.toolName);
      if (entry === undefined) {
        fused.set(reference.toolName, { reference, score: add, order: order++ });
      } else {
        entry.score += add;
      }
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ reference, score }) => ({ ...reference, relevanceScore: score }));
}

/** The options' confidence ramp: the default, or none for `false`. */
function confidenceRamp(
  confidence: HybridConfidence | false | undefined,
): HybridConfidence | undefined {
  if (confidence === false) return undefined;
  if (confidence === undefined) return DEFAULT_CONFIDENCE;
  const { zeroAt, fullAt } = confidence;
  if (!(Number.isFinite(zeroAt) && Number.isFinite(fullAt) && zeroAt < fullAt)) {
    throw new InvalidArgumentError('confidence needs finite numbers with zeroAt below fullAt');
  }
  return { zeroAt, fullAt };
}

/**
 * The share of its weight an index keeps in score fusion: 1 when it reports no score statistics
 * (or there is no ramp), else how far its best hit stands out from every tool it scored.
 */
function confidenceOf(response: ToolSearchResponse, ramp: HybridConfidence | undefined): number {
  const statistics = response.searchMetadata.scoreStatistics;
  const best = response.toolReferences[0]?.relevanceScore;
  if (ramp === undefined || statistics === undefined || best === undefined) return 1;
  // Every tool scored alike: the index cannot tell them apart.
  if (!(statistics.standardDeviation > 0)) return 0;
  const z = (best - statistics.mean) / statistics.standardDeviation;
  return Math.min(1, Math.max(0, (z - ramp.zeroAt) / (ramp.fullAt - ramp.zeroAt)));
}

function addPending(part: Part, sessionId: string, references: readonly ToolReference[]): void {
  let pending = part.pending.get(sessionId);
  if (pending === undefined) {
    pending = new Map();
    part.pending.set(sessionId, pending);
  }
  for (const reference of references) pending.set(reference.toolName, reference);
}

/** Forgets pending tools that are now indexed (unless a newer version of one is pending). */
function removePending(part: Part, sessionId: string, references: readonly ToolReference[]): void {
  const pending = part.pending.get(sessionId);
  if (pending === undefined) return;
  for (const reference of references) {
    if (pending.get(reference.toolName) === reference) pending.delete(reference.toolName);
  }
  if (pending.size === 0) part.pending.delete(sessionId);
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new InvalidArgumentError(`${name} must be a positive number`);
  }
  return value;
}

function positiveInteger(value: number, name: string): number {
  if (!(Number.isInteger(value) && value > 0)) {
    throw new InvalidArgumentError(`${name} must be a positive integer`);
  }
  return value;
}
