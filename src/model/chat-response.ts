import type { AssistantMessage, ToolCall } from '../messages/index.js';
import type { FinishReason } from './finish-reason.js';

/** Token counts of one model response (or of a whole turn, once summed). */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Tokens read from a provider's prompt cache, when reported. */
  cacheReadTokens?: number;
  /** Tokens written to a provider's prompt cache, when reported. */
  cacheWriteTokens?: number;
  /**
   * Of `completionTokens`, those the model spent reasoning (OpenAI's `reasoning_tokens`, Gemini's
   * `thoughtsTokenCount`), when reported.
   */
  reasoningTokens?: number;
}

/** Metadata of one generation. `finishReason` is the provider's reason mapped to toolloop's names. */
export interface GenerationMetadata {
  finishReason: FinishReason | null;
  [key: string]: unknown;
}

/**
 * A piece of a tool call the model is still writing, carried by a streamed chunk so a UI can show
 * the call as it forms. A stream announces each call with a first delta that has its `name` (and
 * possibly empty `arguments`); later deltas of the call carry the same `id` and `index` and the
 * next piece of argument text. The concatenated `arguments` of a call's deltas are its argument
 * text as streamed (the whole call still arrives, complete, in `output.toolCalls` of a later chunk,
 * with the same id). Deltas are display-only: the loop never executes them, and aggregation,
 * memory and transcripts ignore them. Plain JSON.
 */
export interface ToolCallDelta {
  /** The call's id: the same on every delta of the call and on the complete call. */
  id: string;
  /** Counts the calls of this generation from 0, in the order their first delta arrived. */
  index: number;
  /** The tool's name, on the first delta of the call. */
  name?: string;
  /** The next piece of argument text (may be empty on the first delta). */
  arguments: string;
}

/** One candidate answer of the model. */
export interface Generation {
  output: AssistantMessage;
  metadata: GenerationMetadata;
  /**
   * Stream chunks only: pieces of tool calls still being written, in arrival order (see
   * {@link ToolCallDelta}). Absent on a chunk that carries none and on every aggregated response.
   */
  toolCallDeltas?: ToolCallDelta[];
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

/** Creates a response with one generation. */
export function chatResponse(
  output: AssistantMessage,
  options: { finishReason?: FinishReason | null; metadata?: ChatResponseMetadata } = {},
): ChatResponse {
  return {
    results: [{ output, metadata: { finishReason: options.finishReason ?? null } }],
    metadata: options.metadata ?? {},
  };
}

/** The first generation, or `undefined` when there is none (Spring AI's `getResult()`). */
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

/** Adds two usages field by field; cache and reasoning counts are kept when either side has them. */
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
  if (left.reasoningTokens !== undefined || right.reasoningTokens !== undefined) {
    sum.reasoningTokens = (left.reasoningTokens ?? 0) + (right.reasoningTokens ?? 0);
  }
  return sum;
}

/** True when a usage carries any non-zero count. */
export function isUsageEmpty(usage: Usage | undefined): boolean {
  return (
    !usage || (usage.promptTokens === 0 && usage.completionTokens === 0 && usage.totalTokens === 0)
  );
}
