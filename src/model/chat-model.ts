import type { ChatOptions } from './chat-options.js';
import type { ChatResponse } from './chat-response.js';
import type { Prompt } from './prompt.js';

/** Per-request options of a model call. */
export interface ChatModelCallOptions {
  signal?: AbortSignal;
}

/**
 * A chat model. It sends tool definitions and returns tool calls; it never executes tools.
 * `Options` is its option type: {@link ChatOptions} extended with what its API takes (a
 * `ChatClient` over it checks `.options()` against it).
 * A streaming model emits each `ToolCall` whole (arguments assembled) in the chunk where it ends;
 * it may also announce calls as they are written, with `toolCallDeltas` on the chunks before (see
 * `ToolCallDelta`): the loop turns those into `tool-call-delta` events and otherwise ignores them.
 */
export interface ChatModel<Options extends ChatOptions = ChatOptions> {
  /** Options merged under every request's options (model name, temperature, default tools, …). */
  readonly defaultOptions?: Options;
  /**
   * Answers one request. `prompt.options` is the model's own option type: the tools as their
   * definitions, never the tool context.
   */
  call(prompt: Prompt<Options>, options?: ChatModelCallOptions): Promise<ChatResponse>;
  /** Absent: the loop uses one chunk from `call()`. */
  stream?(prompt: Prompt<Options>, options?: ChatModelCallOptions): AsyncIterable<ChatResponse>;
}
