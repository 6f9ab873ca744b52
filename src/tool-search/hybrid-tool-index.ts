import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import type { ToolEmbeddingCache } from '../embeddings/tool-embedding-cache.js';
import { InvalidArgumentError } from '../errors/index.js';
import { errorTypeName } from '../tool-calling/tool-execution-exception-processor.js';
import { describeError } from '../tool-calling/tool-loop-events.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import type { IndexToolsOptions, ToolIndex } from './tool-index.js';
import type { ToolReference, ToolSearchRequest, ToolSearchResponse } from './tool-reference.js';
import type { ToolSearchFallback } from './tool-search-fallback.js';
import { VectorToolIndex } from './vector-tool-index.js';

/** How a {@link HybridToolIndex} merges the rankings of its indexes. */
export type HybridFusion = 'score' | 'rank';

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
   * The indexes to fuse, best-understood first, e.g.
   * `[new LexicalToolIndex(), new VectorToolIndex({ embeddingModel })]`. Give this or
   * `embeddingModel`.
   */
  readonly indexes?: readonly ToolIndex[];
  /**
   * `'score'` (default): each tool scores Σ weightᵢ × its score in index i divided by index i's
   * best score in this search, so how far ahead the best hits are counts. `'rank'`: reciprocal
   * rank fusion, Σ weightᵢ / (k + rankᵢ), which needs no comparable scores.
   */
  readonly fusion?: HybridFusion;
  /**
   * Per-index weight, in the order of the indexes. Default 1 each, except for score fusion with
   * an `embeddingModel`: `[1, 0.8]` (lexical, semantic), chosen on one data set and checked on
   * six others (docs/semantic-tool-search.md).
   */
  readonly weights?: readonly number[];
  /** The RRF constant k in 1/(k + rank) of `'rank'` fusion. Default 60. */
  readonly rankConstant?: number;
  /** Candidates taken from each index before fusing. Default 50. */
  readonly candidates?: number;
  /** Results when a request gives no `maxResults`. Default 10. */
  readonly defaultMaxResults?: number;
  /**
   * An index that has not answered a search after this many ms is left out of it (and its
   * request aborted). Default 3,000: a search is a step of a conversation.
   */
  readonly searchTimeoutMs?: number;
  /**
   * An index that has not finished indexing after this many ms is left out until it has (its
   * request aborted, the tools indexed again before a later search; what it embedded meanwhile is
   * kept). Default 10,000, so a turn starts at most that late; a large library on a slow
   * in-process model is better indexed once at startup (see docs/semantic-tool-search.md).
   */
  readonly indexTimeoutMs?: number;
  /**
   * After an index failed or timed out, it is left out of searches and indexing for this many ms
   * (so a model that is down does not cost every search its timeout). Default 30,000; 0 retries
   * at once.
   */
  readonly retryAfterMs?: number;
}

/**
 * Weights of the lexical and the semantic side that a hybrid built from an `embeddingModel` uses
 * with score fusion: chosen on the tuning half of BFCL live_multiple (best recall@5, then recall@1
 * and MRR) and checked on the other six sets (bench/semantic-tool-retrieval.ts).
 */
const DEFAULT_SEMANTIC_WEIGHTS: readonly number[] = Object.freeze([1, 0.8]);

/** One fused index and what the hybrid knows about its health. */
interface Part {
  readonly index: ToolIndex;
  readonly weight: number;
  readonly name: string;
  /** `performance.now()` before which the index is left out, after a failure. */
  unavailableUntil: number;
  /** Per session, the tools this index failed to index, by name: indexed again before a search. */
  readonly pending: Map<string, Map<string, ToolReference>>;
  /** Per session, the re-indexing of pending tools in progress. */
  readonly retries: Map<string, Promise<void>>;
}

/** An index that did not answer in time. */
class IndexTimeoutError extends Error {
  override readonly name = 'IndexTimeoutError';
}

/** An index left out after a recent failure. */
class IndexUnavailableError extends Error {
  override readonly name = 'IndexUnavailableError';
}

type PartResult =
  | { readonly response: ToolSearchResponse; readonly weight: number }
  | { readonly fallback: ToolSearchFallback; readonly error?: unknown };

/**
 * Several indexes searched together, typically the lexical default and a vector index over the
 * user's embedding model (`new HybridToolIndex({ embeddingModel })` builds that pair): every index
 * is searched and their results fused, by normalised scores (default) or by reciprocal ranks.
 *
 * A failing index never fails the hybrid while another answers: an index that throws or passes
 * its timeout (an embedding model that is down or hangs) is left out of that search or indexing,
 * which then ranks with the others (lexical only), and the response's `searchMetadata.fallbacks`
 * (or the indexing call's `onFallback`) says what was left out; `ToolSearchToolCallingAdvisor`
 * turns these into `tool-search-fallback` turn events. Tools an index failed to index are indexed
 * again before a later search of their session; until they are, that index stays out of the
 * session's searches. Only when every index fails does a search or an indexing call reject.
 */
export class HybridToolIndex implements ToolIndex {
  readonly #parts: readonly Part[];
  readonly #fusion: HybridFusion;
  readonly #k: number;
  readonly #candidates: number;
  readonly #defaultMaxResults: number;
  readonly #searchTimeoutMs: number;
  readonly #indexTimeoutMs: number;
  readonly #retryAfterMs: number;

  /**
   * @throws InvalidArgumentError without an `embeddingModel` or `indexes` (or with both), with
   *   `weights` not one per index, or with a count or duration that is not a positive number.
   */
  constructor(options: HybridToolIndexOptions) {
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
      retries: new Map(),
    }));
    this.#fusion = fusion;
    this.#k = positive(options.rankConstant ?? 60, 'rankConstant');
    this.#candidates = positiveInteger(options.candidates ?? 50, 'candidates');
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

  /** Indexes into one part; a failure leaves the tools pending there and is reported. */
  async #indexInto(
    part: Part,
    sessionId: string,
    references: readonly ToolReference[],
    options: IndexToolsOptions,
  ): Promise<{ error: unknown } | undefined> {
    const report = (fallback: ToolSearchFallback) => options.onFallback?.(fallback);
    if (performance.now() < part.unavailableUntil) {
      addPending(part, sessionId, references);
      report({ phase: 'index', source: part.name, reason: 'unavailable' });
      return { error: new IndexUnavailableError(`${part.name} is unavailable after a failure`) };
    }
    try {
      await withTimeout(
        (signal) =>
          part.index.indexTools(sessionId, references, {
            signal,
            ...(options.onFallback === undefined ? {} : { onFallback: options.onFallback }),
          }),
        this.#indexTimeoutMs,
        `${part.name} did not finish indexing within ${this.#indexTimeoutMs} ms`,
        options.signal,
      );
      removePending(part, sessionId, references);
      return undefined;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      addPending(part, sessionId, references);
      this.#failed(part);
      report({ phase: 'index', source: part.name, ...failureOf(error) });
      return { error };
    }
  }

  /** {@inheritDoc ToolIndex.search} */
  async search(request: ToolSearchRequest): Promise<ToolSearchResponse> {
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
        : new IndexUnavailableError('every index is unavailable after a failure');
    }
    const fused = this.#fusion === 'rank' ? this.#rankFusion(answered) : scoreFusion(answered);
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

  /** Searches one part, after indexing its pending tools of the session; never throws but aborts. */
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
    if (part.pending.get(request.sessionId)?.size) {
      const retry = this.#retryPending(part, request.sessionId);
      const outcome = await settledWithin(retry, this.#searchTimeoutMs, request.signal);
      if (outcome === 'pending') {
        return leftOut(
          'timeout',
          new IndexTimeoutError(
            `${part.name} was still indexing the session's tools after ${this.#searchTimeoutMs} ms`,
          ),
        );
      }
      if (outcome !== 'done') return leftOut('error', outcome.error);
    }
    const remaining = Math.max(1, this.#searchTimeoutMs - (performance.now() - started));
    try {
      const response = await withTimeout(
        (signal) => part.index.search({ ...request, maxResults: candidates, signal }),
        remaining,
        `${part.name} did not answer within ${this.#searchTimeoutMs} ms`,
        request.signal,
      );
      return { response, weight: part.weight };
    } catch (error) {
      if (request.signal?.aborted) throw error;
      this.#failed(part);
      return leftOut(error instanceof IndexTimeoutError ? 'timeout' : 'error', error);
    }
  }

  /**
   * Indexes a session's pending tools of one part again (one attempt at a time per session); the
   * promise rejects when that fails.
   */
  #retryPending(part: Part, sessionId: string): Promise<void> {
    const running = part.retries.get(sessionId);
    if (running !== undefined) return running;
    const pending = part.pending.get(sessionId) as Map<string, ToolReference>;
    const references = [...pending.values()];
    const retry = withTimeout(
      (signal) => part.index.indexTools(sessionId, references, { signal }),
      this.#indexTimeoutMs,
      `${part.name} did not finish indexing within ${this.#indexTimeoutMs} ms`,
    ).then(
      () => {
        removePending(part, sessionId, references);
      },
      (error: unknown) => {
        this.#failed(part);
        throw error;
      },
    );
    const settled = retry.finally(() => {
      if (part.retries.get(sessionId) === settled) part.retries.delete(sessionId);
    });
    // A retry nobody waits for any more must not be an unhandled rejection.
    settled.catch(() => undefined);
    part.retries.set(sessionId, settled);
    return settled;
  }

  #failed(part: Part): void {
    part.unavailableUntil = performance.now() + this.#retryAfterMs;
  }

  /** Reciprocal rank fusion: Σ weight / (k + rank), ties in the order first seen. */
  #rankFusion(
    answered: readonly { response: ToolSearchResponse; weight: number }[],
  ): ToolReference[] {
    const fused = new Map<string, { reference: ToolReference; score: number; order: number }>();
    let order = 0;
    for (const { response, weight } of answered) {
      response.toolReferences.forEach((reference, rank) => {
        const contribution = weight / (this.#k + rank + 1);
        const entry = fused.get(reference.toolName);
        if (entry === undefined) {
          fused.set(reference.toolName, { reference, score: contribution, order: order++ });
        } else {
          entry.score += contribution;
        }
      });
    }
    return ranked(fused);
  }

  /** {@inheritDoc ToolIndex.clearIndex} */
  async clearIndex(sessionId: string): Promise<void> {
    for (const part of this.#parts) {
      part.pending.delete(sessionId);
      part.retries.delete(sessionId);
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
    if (options.lexicalIndex !== undefined || options.embeddingCache !== undefined) {
      throw new InvalidArgumentError('lexicalIndex and embeddingCache go with an embeddingModel');
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
    }),
  ];
}

/**
 * Score fusion: a tool scores Σ weightᵢ × scoreᵢ / bestᵢ over the indexes that found it, where
 * bestᵢ is index i's top score in this search (an index whose top score is not positive adds
 * nothing). Ties keep the order first seen.
 */
function scoreFusion(
  answered: readonly { response: ToolSearchResponse; weight: number }[],
): ToolReference[] {
  const fused = new Map<string, { reference: ToolReference; score: number; order: number }>();
  let order = 0;
  for (const { response, weight } of answered) {
    const best = response.toolReferences[0]?.relevanceScore ?? 0;
    for (const reference of response.toolReferences) {
      const score = reference.relevanceScore ?? 0;
      const contribution = best > 0 && score > 0 ? (weight * score) / best : 0;
      const entry = fused.get(reference.toolName);
      if (entry === undefined) {
        fused.set(reference.toolName, { reference, score: contribution, order: order++ });
      } else {
        entry.score += contribution;
      }
    }
  }
  return ranked(fused);
}

function ranked(
  fused: ReadonlyMap<string, { reference: ToolReference; score: number; order: number }>,
): ToolReference[] {
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ reference, score }) => ({ ...reference, relevanceScore: score }));
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

function failureOf(error: unknown): Pick<ToolSearchFallback, 'reason' | 'error'> {
  return {
    reason: error instanceof IndexTimeoutError ? 'timeout' : 'error',
    error: describeError(error),
  };
}

/**
 * Runs `run` with a signal that aborts when `outer` aborts or after `ms`; rejects with an
 * `IndexTimeoutError` at the timeout (and with the abort reason on an outer abort) without
 * waiting for `run` to notice.
 */
async function withTimeout<T>(
  run: (signal: AbortSignal) => T | Promise<T>,
  ms: number,
  timeoutMessage: string,
  outer?: AbortSignal,
): Promise<T> {
  outer?.throwIfAborted();
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new IndexTimeoutError(timeoutMessage);
      controller.abort(error);
      reject(error);
    }, ms);
    if (outer !== undefined) {
      onAbort = () => {
        controller.abort(outer.reason);
        reject(outer.reason);
      };
      outer.addEventListener('abort', onAbort, { once: true });
    }
  });
  try {
    return await Promise.race([Promise.resolve().then(() => run(controller.signal)), stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) outer?.removeEventListener('abort', onAbort);
  }
}

/** Whether `promise` settled within `ms`: `'done'`, its error, or `'pending'`. Rethrows an abort. */
async function settledWithin(
  promise: Promise<void>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<'done' | 'pending' | { error: unknown }> {
  const pending = Symbol('pending');
  try {
    const outcome = await withTimeout(
      () => Promise.race([promise, delay(ms, pending)]),
      // The race above decides; this timer only backs it up.
      ms + 1_000,
      'pending',
      signal,
    );
    return outcome === pending ? 'pending' : 'done';
  } catch (error) {
    if (signal?.aborted) throw error;
    return { error };
  }
}

function delay<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms, value).unref?.();
  });
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
