import type { ToolInputIssue } from '../errors/index.js';
import { InvalidToolInputError, isAbortError, ToolExecutionError } from '../errors/index.js';
import { jsonPointer } from '../tools/input/json-pointer.js';
import { parseToolArguments } from '../tools/input/parse-tool-arguments.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { ToolCallback, ToolContext } from '../tools/tool-callback.js';
import { extractToolNameReferences } from './extract-tool-name-references.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolSearchFallback } from './tool-search-fallback.js';
import { TOOL_SEARCH_TOOL_NAME } from './tool-search-tool-name.js';

/** The tool-context key under which the advisor puts the session whose index the tool searches. */
export const TOOL_SEARCH_TOOL_SESSION_ID_KEY = 'toolSearchToolSessionId';

export { TOOL_SEARCH_TOOL_NAME } from './tool-search-tool-name.js';

/**
 * The search tool's description: what it searches, that other phrasings help (in `queries`), and
 * what the result holds. It says nothing of how the index matches (words, meaning or both), which
 * depends on the index behind it. Shorter than Spring AI's 396 characters although it says
 * more, so the first call's footprint stays small.
 */
export const TOOL_SEARCH_TOOL_DESCRIPTION =
  'Find tools for the current task by their names, descriptions and parameters; found tools become callable. ' +
  'Other phrasings of the need (synonyms, technical terms, plain words) find more: pass them in queries. ' +
  'Returns {"found": [names, best first], "alreadyOffered": [those already callable]}.';

/** The most phrasings one search call may carry (`query` plus `queries`). */
export const MAX_TOOL_SEARCH_PHRASINGS = 6;

/**
 * The tool-context key under which the advisor passes the names of the tools already offered in
 * the turn, so the result can tell the model which matches are not new.
 */
export const TOOL_SEARCH_OFFERED_TOOL_NAMES_KEY = 'toolSearchToolOfferedToolNames';

/** The constant k of reciprocal rank fusion, 1 / (k + rank), when several phrasings are searched. */
const RANK_FUSION_CONSTANT = 60;

/** The search tool's input schema: Spring AI's parameters plus `queries`, other phrasings. */
export const TOOL_SEARCH_TOOL_INPUT_SCHEMA: JsonSchema = Object.freeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description: 'The capability you need, in the words a tool description would use.',
    },
    queries: {
      type: 'array',
      items: { type: 'string' },
      maxItems: MAX_TOOL_SEARCH_PHRASINGS - 1,
      description: 'Other phrasings of the same need; results are merged.',
    },
    maxResults: {
      type: 'integer',
      description: 'Maximum number of tool references to return (1-10). Default is 5.',
    },
    categoryFilter: {
      type: 'string',
      description: 'Optional filter to narrow search to a specific tool category.',
    },
  },
  required: ['query'],
  additionalProperties: false,
});

/** Options of {@link toolSearchTool}. */
export interface ToolSearchToolOptions {
  /** The index searched. */
  readonly toolIndex: ToolIndex;
  /** Results when the model gives no `maxResults`; the index's default when absent. */
  readonly maxResults?: number;
  /**
   * When given, only these names are ever returned: the tools attached to the current request, so
   * the model never learns of a tool it could not call.
   */
  readonly allowedToolNames?: ReadonlySet<string>;
  /**
   * Told when a search went on without a part of the index that failed (see
   * `SearchMetadata.fallbacks`), once per part and call.
   */
  readonly onFallback?: (fallback: ToolSearchFallback, toolCallId: string | undefined) => void;
}

/**
 * The one tool offered to the model by progressive tool disclosure: it searches the index of the
 * session named in its tool context (`TOOL_SEARCH_TOOL_SESSION_ID_KEY`) with `query` and every
 * phrasing in `queries`, fuses the rankings (reciprocal rank fusion, so a tool several phrasings
 * find rises), and returns `{"found": [...], "alreadyOffered": [...]}`: the matching names, best
 * first, and those of them the model could already call (passed by the advisor under
 * `TOOL_SEARCH_OFFERED_TOOL_NAMES_KEY`, else read from the conversation). Bad arguments fail with
 * `InvalidToolInputError` and a failing search with `ToolExecutionError`, so the loop turns both
 * into an error tool response the model can read.
 */
export function toolSearchTool(options: ToolSearchToolOptions): ToolCallback {
  const { toolIndex, allowedToolNames } = options;
  return Object.freeze({
    definition: Object.freeze({
      name: TOOL_SEARCH_TOOL_NAME,
      description: TOOL_SEARCH_TOOL_DESCRIPTION,
      inputSchema: TOOL_SEARCH_TOOL_INPUT_SCHEMA,
    }),
    metadata: Object.freeze({
      readOnly: true,
      discoversTools: true,
      ...(allowedToolNames === undefined ? {} : { discoverableToolNames: allowedToolNames }),
    }),
    async call(input: string, context?: ToolContext): Promise<string> {
      const args = parseSearchArguments(input);
      const sessionId = context?.context[TOOL_SEARCH_TOOL_SESSION_ID_KEY];
      if (typeof sessionId !== 'string' || sessionId.length === 0) {
        throw new ToolExecutionError({
          toolName: TOOL_SEARCH_TOOL_NAME,
          toolCallId: context?.toolCallId,
          message: `the tool context has no '${TOOL_SEARCH_TOOL_SESSION_ID_KEY}' entry`,
        });
      }
      const maxResults = args.maxResults ?? options.maxResults;
      const phrasings = [...new Set([args.query, ...args.queries])];
      // Fusing needs more than the final count from each phrasing.
      const perPhrasing =
        maxResults === undefined || phrasings.length === 1
          ? maxResults
          : Math.max(2 * maxResults, 20);
      let rankings: string[][];
      const fellBack = new Set<string>();
      try {
        rankings = await Promise.all(
          phrasings.map(async (query) => {
            const response = await toolIndex.search({
              sessionId,
              query,
              ...(perPhrasing === undefined ? {} : { maxResults: perPhrasing }),
              ...(args.categoryFilter === undefined ? {} : { categoryFilter: args.categoryFilter }),
              ...(context?.signal === undefined ? {} : { signal: context.signal }),
            });
            for (const fallback of response.searchMetadata.fallbacks ?? []) {
              const key = `${fallback.source}:${fallback.reason}`;
              if (fellBack.has(key)) continue;
              fellBack.add(key);
              options.onFallback?.(fallback, context?.toolCallId);
            }
            const names = response.toolReferences.map((reference) => reference.toolName);
            return allowedToolNames === undefined
              ? names
              : names.filter((name) => allowedToolNames.has(name));
          }),
        );
      } catch (error) {
        if (isAbortError(error)) throw error;
        throw new ToolExecutionError({
          toolName: TOOL_SEARCH_TOOL_NAME,
          toolCallId: context?.toolCallId,
          message: 'the tool search failed',
          cause: error,
        });
      }
      const ranked = rankings.length === 1 ? (rankings[0] as string[]) : fuseRankings(rankings);
      const limit = maxResults ?? Math.max(...rankings.map((ranking) => ranking.length));
      const found = ranked.slice(0, limit);
      const offered = offeredToolNames(context);
      return JSON.stringify({
        found,
        alreadyOffered: found.filter((name) => offered.has(name)),
      });
    },
  });
}

/** Reciprocal rank fusion of several rankings of names: Σ 1 / (k + rank), ties in first-seen order. */
function fuseRankings(rankings: readonly (readonly string[])[]): string[] {
  const scores = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((name, rank) => {
      scores.set(name, (scores.get(name) ?? 0) + 1 / (RANK_FUSION_CONSTANT + rank + 1));
    });
  }
  return [...scores].sort((a, b) => b[1] - a[1]).map(([name]) => name);
}

/** The tools the model could already call: as the advisor passed them, else from the conversation. */
function offeredToolNames(context: ToolContext | undefined): ReadonlySet<string> {
  const passed = context?.context[TOOL_SEARCH_OFFERED_TOOL_NAMES_KEY];
  if (Array.isArray(passed)) {
    return new Set(passed.filter((name): name is string => typeof name === 'string'));
  }
  return new Set(extractToolNameReferences(context?.messages ?? [], true));
}

interface SearchArguments {
  query: string;
  queries: string[];
  maxResults?: number;
  categoryFilter?: string;
}

/** Validates the model's arguments; `null` for an optional field counts as absent. */
function parseSearchArguments(input: string): SearchArguments {
  const parsed = parseToolArguments(input);
  if (!parsed.ok)
    throw new InvalidToolInputError({ toolName: TOOL_SEARCH_TOOL_NAME, issues: parsed.issues });
  const { query, queries, maxResults, categoryFilter, ...rest } = parsed.value;
  const issues: ToolInputIssue[] = [];
  if (typeof query !== 'string') {
    issues.push({
      path: '/query',
      message: query === undefined ? 'is required' : 'must be string',
    });
  }
  const hasQueries = queries !== undefined && queries !== null;
  if (hasQueries) {
    if (!Array.isArray(queries)) {
      issues.push({ path: '/queries', message: 'must be array' });
    } else {
      if (queries.length > MAX_TOOL_SEARCH_PHRASINGS - 1) {
        issues.push({
          path: '/queries',
          message: `must have at most ${MAX_TOOL_SEARCH_PHRASINGS - 1} items`,
        });
      }
      queries.forEach((item, i) => {
        if (typeof item !== 'string')
          issues.push({ path: `/queries/${i}`, message: 'must be string' });
      });
    }
  }
  const hasMax = maxResults !== undefined && maxResults !== null;
  if (hasMax && !(Number.isInteger(maxResults) && (maxResults as number) >= 1)) {
    issues.push({ path: '/maxResults', message: 'must be an integer >= 1' });
  }
  const hasCategory = categoryFilter !== undefined && categoryFilter !== null;
  if (hasCategory && typeof categoryFilter !== 'string') {
    issues.push({ path: '/categoryFilter', message: 'must be string' });
  }
  for (const key of Object.keys(rest)) {
    issues.push({ path: jsonPointer([key]), message: 'is not an allowed property' });
  }
  if (issues.length > 0)
    throw new InvalidToolInputError({ toolName: TOOL_SEARCH_TOOL_NAME, issues });
  return {
    query: query as string,
    queries: hasQueries ? (queries as string[]).filter((item) => item.trim() !== '') : [],
    ...(hasMax ? { maxResults: maxResults as number } : {}),
    ...(hasCategory ? { categoryFilter: categoryFilter as string } : {}),
  };
}
