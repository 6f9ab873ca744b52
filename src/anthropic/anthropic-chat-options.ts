import type { ChatOptions } from '../model/index.js';

/**
 * Extended thinking (the Messages API `thinking`): `enabled` with a token budget (at least 1024
 * and below `maxTokens`), `adaptive` (the model decides), or `disabled`.
 */
export type AnthropicThinking =
  | { type: 'enabled'; budgetTokens: number; display?: 'summarized' | 'omitted' }
  | { type: 'adaptive'; display?: 'summarized' | 'omitted' }
  | { type: 'disabled' };

/** A prompt-cache breakpoint: `ephemeral`, kept 5 minutes (default) or 1 hour. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h' | undefined;
}

/**
 * The request options of an `AnthropicChatModel`: the common {@link ChatOptions} and what the
 * Messages API adds. A `ChatClient` over the model checks `.options()` against it, so a key the
 * API does not take is a type error; `extraBody` is the explicit way to send anything else.
 */
export interface AnthropicChatOptions extends ChatOptions {
  /** `false` sets `disable_parallel_tool_use`: at most one tool call per response. */
  parallelToolCalls?: boolean | undefined;
  /** Send tools with `strict: true` (schemas adapted and reported). */
  strictTools?: boolean | undefined;
  /** `top_k` sampling. */
  topK?: number | undefined;
  /** Extended thinking (`thinking`); its blocks are kept and sent back within a tool turn. */
  thinking?: AnthropicThinking | undefined;
  /**
   * Prompt caching (the request's top-level `cache_control`): the API puts the breakpoint on the
   * last cacheable block, so tools, system text and the conversation so far are read from cache
   * on the next round of the loop.
   */
  cacheControl?: AnthropicCacheControl | undefined;
  /** Body fields merged into the request last, for what this type does not name. */
  extraBody?: Record<string, unknown> | undefined;
}
