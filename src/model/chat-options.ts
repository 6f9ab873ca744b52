import type { ToolCallback, ToolDefinition } from '../tools/tool-callback.js';

/**
 * How the model should pick tools: let it decide, forbid tools, require some tool, or force one
 * named tool.
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/**
 * A structured-output request: JSON matching `schema` (the client's `.entity()` sets it), or any
 * JSON object, or plain text. Each adapter maps it to its API's parameter.
 */
export type ResponseFormat =
  | { type: 'json_schema'; name?: string; schema: Record<string, unknown>; strict?: boolean }
  | { type: 'json_object' }
  | { type: 'text' };

/**
 * A tool as a model receives it: its definition, and nothing it could run. The loop hands a
 * model frozen `{ definition }` objects; a `ToolCallback` given to a model directly is read the
 * same way (only its definition).
 */
export interface OfferedTool {
  readonly definition: ToolDefinition;
}

/**
 * The options a `ChatModel` receives: what a model needs for one request. The tools come as
 * their definitions only, and the tool context cannot be here (`toolContext?: never`): it stays
 * with the loop (see {@link ToolCallingChatOptions}). A provider adapter extends this with its
 * own typed options (`OpenAiChatOptions`, `AnthropicChatOptions`, …); there is no open index, so
 * a key no adapter declares is a type error rather than a value silently sent.
 */
export interface ChatOptions {
  /** The provider's model name; default the model's own default. */
  model?: string | undefined;
  /** Sampling temperature. */
  temperature?: number | undefined;
  /** Most tokens of the answer. */
  maxTokens?: number | undefined;
  /** Nucleus sampling. */
  topP?: number | undefined;
  /** Sequences that end the answer. */
  stop?: string | string[] | undefined;
  /** Which tools the model may or must call. */
  toolChoice?: ToolChoice | undefined;
  /** Structured output (set by the client's `.entity()`). */
  responseFormat?: ResponseFormat | undefined;
  /**
   * The tools the model may call, as their definitions (Spring AI's name for the field). A model
   * reads `definition` of each entry and nothing else: it never executes tools.
   */
  toolCallbacks?: readonly OfferedTool[] | undefined;
  /** Never given to a model: the tool context travels beside the prompt, with the loop. */
  toolContext?: never;
}

/**
 * The options of a request the loop owns (Spring AI's `ToolCallingChatOptions`): a model's
 * options plus the tools to execute and the caller's context for them. What `.options()`,
 * `createPrompt`, advisors and the `ToolCallingManager` take. Before a model is called, the loop
 * lifts the callbacks and the context out: the model receives `Options`, with the tools'
 * definitions only. `Options` is the model's own option type (`OpenAiChatOptions`, …).
 */
export type ToolCallingChatOptions<Options extends ChatOptions = ChatOptions> = Omit<
  Options,
  'toolCallbacks' | 'toolContext'
> & {
  /** The tools attached to the request: their definitions go to the model, the loop runs them. */
  toolCallbacks?: ToolCallback[] | undefined;
  /** The caller's data for the tools; never reaches a model. */
  toolContext?: Record<string, unknown> | undefined;
};
