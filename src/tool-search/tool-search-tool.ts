import type { ToolInputIssue } from '../errors/index.js';
import { InvalidToolInputError, isAbortError, ToolExecutionError } from '../errors/index.js';
import { jsonPointer } from '../tools/input/json-pointer.js';
import { parseToolArguments } from '../tools/input/parse-tool-arguments.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { ToolCallback, ToolContext } from '../tools/tool-callback.js';
import type { ToolIndex } from './tool-index.js';

/** The tool-context key under which the advisor puts the session whose index the tool searches. */
export const TOOL_SEARCH_TOOL_SESSION_ID_KEY = 'toolSearchToolSessionId';

/** The search tool's name. */
export const TOOL_SEARCH_TOOL_NAME = 'toolSearchTool';

/** The search tool's description, exactly as in the reference. */
export const TOOL_SEARCH_TOOL_DESCRIPTION =
  'Search for tools in the tool registry to discover capabilities for completing the current task.\n' +
  'Use this when you need functionality not provided by your currently available tools.\n' +
  'The search queries against tool names, descriptions, and parameter information to find the most relevant tools.\n' +
  'Returns references to matching tools which will be expanded into full definitions you can then invoke.\n';

/** The search tool's input schema (the reference's parameters, in its key order). */
export const TOOL_SEARCH_TOOL_INPUT_SCHEMA: JsonSchema = Object.freeze({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description:
        'A natural language search query describing the tool capability you need. Be specific and include relevant keywords.',
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
}

/**
 * The one tool offered to the model by progressive tool disclosure: it searches the index of the
 * session named in its tool context (`TOOL_SEARCH_TOOL_SESSION_ID_KEY`) and returns the names of
 * the matching tools as a JSON array, e.g. `["finance_lookup_invoice"]`. Bad arguments fail with
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
    metadata: Object.freeze({}),
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
      try {
        const response = await toolIndex.search({
          sessionId,
          query: args.query,
          ...(maxResults === undefined ? {} : { maxResults }),
          ...(args.categoryFilter === undefined ? {} : { categoryFilter: args.categoryFilter }),
          ...(context?.signal === undefined ? {} : { signal: context.signal }),
        });
        const names = response.toolReferences.map((reference) => reference.toolName);
        return JSON.stringify(
          allowedToolNames === undefined
            ? names
            : names.filter((name) => allowedToolNames.has(name)),
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
    },
  });
}

interface SearchArguments {
  query: string;
  maxResults?: number;
  categoryFilter?: string;
}

/** Validates the model's arguments; `null` for an optional field counts as absent. */
function parseSearchArguments(input: string): SearchArguments {
  const parsed = parseToolArguments(input);
  if (!parsed.ok)
    throw new InvalidToolInputError({ toolName: TOOL_SEARCH_TOOL_NAME, issues: parsed.issues });
  const { query, maxResults, categoryFilter, ...rest } = parsed.value;
  const issues: ToolInputIssue[] = [];
  if (typeof query !== 'string') {
    issues.push({
      path: '/query',
      message: query === undefined ? 'is required' : 'must be string',
    });
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
    ...(hasMax ? { maxResults: maxResults as number } : {}),
    ...(hasCategory ? { categoryFilter: categoryFilter as string } : {}),
  };
}
