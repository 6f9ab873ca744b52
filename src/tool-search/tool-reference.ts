import type { JsonSchema } from '../tools/json-schema.js';
import type { ToolSearchFallback } from './tool-search-fallback.js';

/**
 * One tool as a tool index knows it. `summary` is the tool's description; `inputSchema` and
 * `category` are optional extra text and a filterable label (the BM25 and vector indexes read the
 * parameter names and descriptions from the schema; the regex index, like Spring AI, reads
 * only name and summary).
 */
export interface ToolReference {
  /** The tool's name, unique within a session's index. */
  readonly toolName: string;
  /** The tool's description. */
  readonly summary: string;
  /** The index's score for this tool in a search result; absent on indexed references. */
  readonly relevanceScore?: number;
  /** The tool's input schema, when the index should also match parameter text. */
  readonly inputSchema?: JsonSchema;
  /** A label a search may filter on (`categoryFilter`), e.g. a domain or MCP server category. */
  readonly category?: string;
}

/** A search of one session's index. */
export interface ToolSearchRequest {
  /** The session whose tools are searched; a blank id finds nothing. */
  readonly sessionId: string;
  /** Natural-language text describing the capability needed. */
  readonly query: string;
  /** At most this many references; the index's default (10) when absent. */
  readonly maxResults?: number;
  /**
   * Only tools of this category (case-insensitive). Ignored when no tool of the session carries
   * that category, since the model guesses category names.
   */
  readonly categoryFilter?: string;
  /** Aborts a search that needs I/O (e.g. embedding the query). */
  readonly signal?: AbortSignal;
}

/** How a search ran. */
export interface SearchMetadata {
  /** The index class, e.g. `'RegexToolIndex'`. */
  readonly searchType: string;
  /** The query as received. */
  readonly query: string;
  /** Wall time of the search in milliseconds. */
  readonly searchTimeMs?: number;
  /** True when `categoryFilter` narrowed the candidates. */
  readonly categoryFilterApplied?: boolean;
  /**
   * The parts left out of this search because they failed (e.g. the vector side of a hybrid
   * when the embedding model did not answer): the results come from the others.
   */
  readonly fallbacks?: readonly ToolSearchFallback[];
  /**
   * The mean and standard deviation of the scores of every tool the search scored (after
   * `categoryFilter`, before `maxResults` and any threshold), when the index reports them
   * (`VectorToolIndex` does): how far the best result stands out from the rest of the library.
   * `HybridToolIndex` weighs an index by it (its `confidence` option).
   */
  readonly scoreStatistics?: { readonly mean: number; readonly standardDeviation: number };
}

/** The result of a search: the best references first. */
export interface ToolSearchResponse {
  readonly toolReferences: readonly ToolReference[];
  /** The number of references returned (after `maxResults`), as in Spring AI. */
  readonly totalMatches: number;
  readonly searchMetadata: SearchMetadata;
}
