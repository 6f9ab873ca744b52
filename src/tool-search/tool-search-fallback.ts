/**
 * A part of a tool search that failed and was left out, the rest going on without it: an index of
 * a {@link HybridToolIndex} (typically the vector side when the embedding model throws or does
 * not answer in time; the search then ranks with the lexical side only) or the shared embedding
 * cache (the tools are then embedded instead of read).
 */
export interface ToolSearchFallback {
  /** Indexing a session's tools, or one search. */
  readonly phase: 'index' | 'search';
  /** What was left out: the class name of the index or of the embedding cache. */
  readonly source: string;
  /**
   * `'error'`: it threw; `'timeout'`: it did not answer in time; `'unavailable'`: skipped
   * without trying, after a recent failure or while the session's tools wait to be indexed.
   */
  readonly reason: 'error' | 'timeout' | 'unavailable';
  /** The error behind an `'error'` or `'timeout'`: its class name, toolloop code and message. */
  readonly error?: { readonly type: string; readonly code?: string; readonly message: string };
}

/** Receives the fallbacks of an indexing call. */
export type ToolSearchFallbackListener = (fallback: ToolSearchFallback) => void;
