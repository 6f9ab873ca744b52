import type { ToolReference, ToolSearchRequest, ToolSearchResponse } from './tool-reference.js';
import type { ToolSearchFallbackListener } from './tool-search-fallback.js';

/** Options of an indexing call. */
export interface IndexToolsOptions {
  /** Aborts indexing that needs I/O (e.g. embedding the tools). */
  readonly signal?: AbortSignal;
  /**
   * Told of each part of the indexing that failed and was left out while the call still
   * succeeded (an index that degrades instead of failing, such as `HybridToolIndex`).
   */
  readonly onFallback?: ToolSearchFallbackListener;
}

/**
 * A searchable catalogue of tools, partitioned by session: a search of one session never sees
 * another session's tools. Indexing a name already in the session replaces that entry.
 */
export interface ToolIndex {
  /** Adds (or replaces, by name) the tools of a session. */
  indexTools(
    sessionId: string,
    references: readonly ToolReference[],
    options?: IndexToolsOptions,
  ): void | Promise<void>;
  /** Adds (or replaces, by name) one tool of a session. */
  indexTool(
    sessionId: string,
    reference: ToolReference,
    options?: IndexToolsOptions,
  ): void | Promise<void>;
  /** The session's best matches for the query; an unknown or blank session finds nothing. */
  search(request: ToolSearchRequest): ToolSearchResponse | Promise<ToolSearchResponse>;
  /** Forgets every tool of the session; an unknown session is a no-op. */
  clearIndex(sessionId: string): void | Promise<void>;
}
