import type { ChatOptions } from '../model/index.js';

/** How long a reasoning model thinks before it answers (Chat Completions `reasoning_effort`). */
export type OpenAiReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

/**
 * The request options of an `OpenAiChatModel`: the common {@link ChatOptions} and what the Chat
 * Completions API adds. A `ChatClient` over the model checks `.options()` against it, so a key
 * the API does not take is a type error; `extraBody` is the explicit way to send anything else.
 */
export interface OpenAiChatOptions extends ChatOptions {
  /** `false` asks the model for at most one tool call per response (`parallel_tool_calls`). */
  parallelToolCalls?: boolean | undefined;
  /** Send tools in strict schema mode (schemas adapted and reported). */
  strictTools?: boolean | undefined;
  /** `reasoning_effort` of reasoning models. */
  reasoningEffort?: OpenAiReasoningEffort | undefined;
  /** `seed`: best-effort deterministic sampling. */
  seed?: number | undefined;
  /** Body fields merged into the request last, for what this type does not name. */
  extraBody?: Record<string, unknown> | undefined;
}
