import { STOP_WORDS } from '../internal/search-text/stop-words.js';
import { categoryMatcher } from './category-filter.js';
import { checkSearchRequest } from './check-search-request.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolReference, ToolSearchRequest, ToolSearchResponse } from './tool-reference.js';
import { isBlank } from './tool-search-text.js';

/** Longest pattern the index builds; tokens are dropped from the end until it fits. */
export const MAX_REGEX_PATTERN_LENGTH = 200;
/** Only this many characters of a query are read; the rest cannot change a 200-char pattern. */
const MAX_QUERY_LENGTH = 4096;
const DEFAULT_MAX_RESULTS = 10;
/** Longest token kept; no tool name or description word is longer. */
const MAX_TOKEN_LENGTH = 64;
const TOKEN_SEPARATOR = /[\s,;:.!?()[\]{}"']+/u;
const MATCH_ALL = '.*';
// Spring AI spells case-insensitivity inline, '(?i)(…)', and caps that whole string; counting
// the prefix keeps exactly the tokens it keeps.
const PATTERN_BUDGET = MAX_REGEX_PATTERN_LENGTH - '(?i)'.length;

/**
 * Converts a query into the index's pattern (without flags; it is compiled case-insensitive):
 * lower-cased tokens of at least 2 characters that are not stop words, regex-escaped,
 * de-duplicated (each cut to 64 characters), joined as an alternation and capped where Spring
 * AI's `(?i)(…)` reaches 200 characters (196 here, without the flag). Because every token is
 * escaped the pattern is a plain list of literals, which matches in linear time whatever the
 * query holds. `'weather tools'` → `'(weather|tools)'`; a blank query → `'.*'`.
 */
export function queryToRegexPattern(query: string | null | undefined): string {
  if (query === null || query === undefined || isBlank(query)) return MATCH_ALL;
  const tokens = query
    .slice(0, MAX_QUERY_LENGTH)
    .toLowerCase()
    .split(TOKEN_SEPARATOR)
    .filter((token) => token.length > 0);
  let kept = unique(tokens.filter((t) => t.length >= 2 && !STOP_WORDS.has(t)).map(escapeToken));
  if (kept.length === 0) kept = unique(tokens.map(escapeToken));
  if (kept.length === 0) return MATCH_ALL;
  // Keep the longest prefix of tokens that fits (Spring AI drops tokens from the end).
  let pattern = `(${kept[0]}`;
  for (const token of kept.slice(1)) {
    if (pattern.length + token.length + 2 > PATTERN_BUDGET) break;
    pattern += `|${token}`;
  }
  return `${pattern})`;
}

/** True when `pattern` is non-blank, at most 200 characters and compiles. */
export function isValidRegexPattern(pattern: string | null | undefined): boolean {
  if (pattern === null || pattern === undefined || isBlank(pattern)) return false;
  if (pattern.length > MAX_REGEX_PATTERN_LENGTH) return false;
  try {
    new RegExp(pattern, 'iu');
    return true;
  } catch {
    return false;
  }
}

/** Escapes a token, cut to 64 characters first so that a lone token stays within the pattern cap. */
function escapeToken(token: string): string {
  return Array.from(token)
    .slice(0, MAX_TOKEN_LENGTH)
    .join('')
    .replace(/[\\.*+?^${}[\]|()/]/g, '\\$&');
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * Spring AI's default index: the query becomes a case-insensitive alternation of its
 * keywords, matched against tool names and descriptions (not parameters). A name hit weighs
 * twice a description hit and earlier hits weigh more: score = 2·nameHits + 1/(1 + 0.1·firstNamePos)
 * + descHits + 0.5/(1 + 0.1·firstDescPos). Ties keep indexing order. No dependencies, no
 * semantic matching: `'vacation days left'` does not find `hr_lookup_pto_balance`.
 */
export class RegexToolIndex implements ToolIndex {
  readonly #sessions = new Map<string, Map<string, ToolReference>>();

  /** {@inheritDoc ToolIndex.indexTools} */
  indexTools(sessionId: string, references: readonly ToolReference[]): void {
    if (references.length === 0) return;
    let session = this.#sessions.get(sessionId);
    if (session === undefined) {
      session = new Map();
      this.#sessions.set(sessionId, session);
    }
    for (const reference of references) {
      session.delete(reference.toolName);
      session.set(reference.toolName, reference);
    }
  }

  /** {@inheritDoc ToolIndex.indexTool} */
  indexTool(sessionId: string, reference: ToolReference): void {
    this.indexTools(sessionId, [reference]);
  }

  /** {@inheritDoc ToolIndex.search} */
  search(request: ToolSearchRequest): ToolSearchResponse {
    checkSearchRequest(request);
    const started = performance.now();
    const session = isBlank(request.sessionId) ? undefined : this.#sessions.get(request.sessionId);
    const pattern = queryToRegexPattern(request.query);
    const entries = session === undefined ? [] : [...session.values()];
    const inCategory = categoryMatcher(entries, request.categoryFilter);
    const regex = new RegExp(pattern, 'giu');
    const scored: ToolReference[] = [];
    for (const entry of entries) {
      if (inCategory !== undefined && !inCategory(entry)) continue;
      const score =
        matchScore(regex, entry.toolName, 2, 1) + matchScore(regex, entry.summary, 1, 0.5);
      if (score > 0) scored.push({ ...entry, relevanceScore: score });
    }
    // Array.prototype.sort is stable, so equal scores keep indexing order.
    scored.sort((a, b) => (b.relevanceScore ?? 0) - (a.relevanceScore ?? 0));
    const toolReferences = scored.slice(0, request.maxResults ?? DEFAULT_MAX_RESULTS);
    return {
      toolReferences,
      totalMatches: toolReferences.length,
      searchMetadata: {
        searchType: 'RegexToolIndex',
        query: request.query,
        searchTimeMs: performance.now() - started,
        categoryFilterApplied: inCategory !== undefined,
      },
    };
  }

  /** {@inheritDoc ToolIndex.clearIndex} */
  clearIndex(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /** Number of tools indexed for the session. */
  size(sessionId: string): number {
    return this.#sessions.get(sessionId)?.size ?? 0;
  }

  /** Number of tools indexed across all sessions. */
  totalSize(): number {
    let total = 0;
    for (const session of this.#sessions.values()) total += session.size;
    return total;
  }

  /** Forgets every session. */
  close(): void {
    this.#sessions.clear();
  }
}

function matchScore(regex: RegExp, text: string, perMatch: number, positionWeight: number): number {
  let count = 0;
  let first = -1;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    if (first < 0) first = match.index;
    count++;
    // An empty match (the blank-query pattern) must still advance, as Matcher.find() does.
    if (match[0].length === 0) regex.lastIndex++;
    if (regex.lastIndex > text.length) break;
  }
  return count === 0 ? 0 : perMatch * count + positionWeight / (1 + 0.1 * first);
}
