import type { AssistantMessage, ToolCall } from '../messages/index.js';

/** Token counts of one model response (or of a whole turn, once summed). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Tokens read from a provider's prompt cache, when reported. */
  cacheReadTokens?: number;
  /** Tokens written to a provider's prompt cache, when reported. */
  cacheWriteTokens?: number;
}

/** Metadata of one generation. `finishReason` is the provider's reason mapped to toolloop's names. */
export interface GenerationMetadata {
  finishReason: string | null;
  [key: string]: unknown;
}

/** One candidate answer of the model. */
export interface Generation {
  output: AssistantMessage;
  metadata: GenerationMetadata;
}

/** Metadata of a whole response. */
export interface ChatResponseMetadata {
  id?: string;
  model?: string;
  usage?: Usage;
  [key: string]: unknown;
}

/** What a model returns: its generations and response metadata. Plain JSON. */
export interface ChatResponse {
  results: Generation[];
  metadata: ChatResponseMetadata;
}

/** Finish reasons toolloop sets itself, beside the providers' mapped ones. */
export const FinishReason = {
  STOP: 'stop',
  LENGTH: 'length',
  TOOL_CALLS: 'tool_calls',
  CONTENT_FILTER: 'content_filter',
  RETURN_DIRECT: 'returnDirect',
  TOOL_CALL_LIMIT_EXCEEDED: 'toolCallLimitExceeded',
  MAX_ITERATIONS: 'maxIterations',
  /** The turn paused: tool calls wait for a human decision (see `pendingApprovalOf`). */
  APPROVAL_PENDING: 'approvalPending',
} as const;

/** Creates a response with one generation. */
export function chatResponse(
  output: AssistantMessage,
  options: { finishReason?: string | null; metadata?: ChatResponseMetadata } = {},
): ChatResponse {
  return {
    results: [{ output, metadata: { finishReason: options.finishReason ?? null } }],
    metadata: options.metadata ?? {},
  };
}

/** The first generation, or `undefined` when there is none (the reference's `getResult()`). */
export function firstGeneration(response: ChatResponse | null | undefined): Generation | undefined {
  return response?.results[0];
}

/** The first generation's text, or `null` (what `.content()` returns). */
export function responseText(response: ChatResponse | null | undefined): string | null {
  return response?.results[0]?.output.text ?? null;
}

/** True when any generation requests at least one tool call. */
export function hasToolCalls(response: ChatResponse | null | undefined): boolean {
  if (!response) return false;
  for (const generation of response.results) {
    if (generation.output.toolCalls.length > 0) return true;
  }
  return false;
}

/** The tool calls of the first generation that has any, or `[]`. */
export function responseToolCalls(response: ChatResponse | null | undefined): ToolCall[] {
  if (!response) return [];
  for (const generation of response.results) {
    if (generation.output.toolCalls.length > 0) return generation.output.toolCalls;
  }
  return [];
}

/** Adds two usages field by field; cache counts are kept when either side has them. */
export function addUsage(left: Usage | undefined, right: Usage | undefined): Usage | undefined {
  if (!left) return right;
  if (!right) return left;
  const sum: Usage = {
    promptTokens: left.promptTokens + right.promptTokens,
    completionTokens: left.completionTokens + right.completionTokens,
    totalTokens: left.totalTokens + right.totalTokens,
  };
  if (left.cacheReadTokens !== undefined || right.cacheReadTokens !== undefined) {
    sum.cacheReadTokens = (left.cacheReadTokens ?? 0) + (right.cacheReadTokens ?? 0);
  }
  if (left.cacheWriteTokens !== undefined || right.cacheWriteTokens !== undefined) {
    sum.cacheWriteTokens = (left.cacheWriteTokens ?? 0) + (right.cacheWriteTokens ?? 0);
  }
  return sum;
}

/** True when a usage carries any non-zero count. */
export function isUsageEmpty(usage: Usage | undefined): boolean {
  return (
    !usage || (usage.promptTokens === 0 && usage.completionTokens === 0 && usage.totalTokens === 0)
  );
}
