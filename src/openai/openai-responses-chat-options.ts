import type { ChatOptions } from '../model/index.js';

/**
 * The Responses API's own request options, beyond the common `ChatOptions`
 * (`model`, `temperature`, `maxTokens`, `toolChoice`): set them as its defaults in the
 * constructor, or per request (see {@link OpenAiResponsesChatOptions}).
 */
export type OpenAiResponsesOptions = {
  /** `reasoning.effort` of a reasoning model. */
  reasoningEffort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | undefined;
  /** `reasoning.summary`: ask for a summary of the reasoning (kept as `metadata.reasoningContent`). */
  reasoningSummary?: 'auto' | 'concise' | 'detailed' | undefined;
  /** `false` asks the model for at most one function call per response. */
  parallelToolCalls?: boolean | undefined;
  /**
   * Whether OpenAI keeps the response (`store`). Default `false`: nothing is kept at OpenAI, and
   * reasoning is carried from one request to the next as encrypted content.
   */
  store?: boolean | undefined;
  /**
   * Continue a stored response (`previous_response_id`, needs `store: true`): the messages that
   * response already holds are not sent again. `'auto'`: the response of the last assistant
   * message of the prompt that has one (`metadata.responseId`).
   */
  previousResponseId?: string | undefined;
  /**
   * Ask for reasoning items' `encrypted_content` (`include: ['reasoning.encrypted_content']`), which
   * is how reasoning crosses a tool round with `store: false`. Default: on with `store: false` for
   * OpenAI's reasoning models (o-series, gpt-5, codex) and whenever a reasoning option is set;
   * other models refuse it.
   */
  includeEncryptedReasoning?: boolean | undefined;
  /** `text.verbosity` (gpt-5 models). */
  verbosity?: 'low' | 'medium' | 'high' | undefined;
  /** `top_p`. */
  topP?: number | undefined;
};

/**
 * The request options of an {@link OpenAiResponsesChatModel}: the common `ChatOptions`, the
 * Responses API's own ({@link OpenAiResponsesOptions}), and the tool switches every adapter
 * takes. A `ChatClient` over the model checks `.options()` against it.
 */
export type OpenAiResponsesChatOptions = ChatOptions &
  OpenAiResponsesOptions & {
    /** Send tools in strict schema mode (schemas adapted and reported). */
    strictTools?: boolean | undefined;
    /** Body fields merged into the request last, for what this type does not name. */
    extraBody?: Record<string, unknown> | undefined;
  };
