/*
 * The parts of the Messages API wire format this adapter writes and reads. Tests check the
 * request side against the `@anthropic-ai/sdk` package's own published types.
 */

/** A thinking block kept from a response so it can be sent back with the tool results. */
export type AnthropicThinkingBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/** A text, image or document block: what a message and a `tool_result` may hold. */
export type AnthropicToolResultBlock =
  | { type: 'text'; text: string }
  | {
      type: 'image';
      source:
        | {
            type: 'base64';
            media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
            data: string;
          }
        | { type: 'url'; url: string };
    }
  | {
      type: 'document';
      source:
        | { type: 'base64'; media_type: 'application/pdf'; data: string }
        | { type: 'text'; media_type: 'text/plain'; data: string }
        | { type: 'url'; url: string };
      title?: string;
    };

/** A content block of a request message: text, image or document, or a tool use, result or thought. */
export type AnthropicContentBlockParam =
  | AnthropicToolResultBlock
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: string | AnthropicToolResultBlock[];
      is_error?: boolean;
    }
  | AnthropicThinkingBlock;

/** One message of a request. */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlockParam[];
}

/** A client tool of a request. */
export interface AnthropicToolParam {
  name: string;
  description: string;
  input_schema: { type: 'object'; [keyword: string]: unknown };
  strict?: boolean;
}

/** `tool_choice` of a request. */
export type AnthropicToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

/** A Messages API request body. */
export interface AnthropicMessagesRequest {
  model: string;
  max_tokens: number;
  messages: AnthropicMessageParam[];
  system?: string;
  tools?: AnthropicToolParam[];
  tool_choice?: AnthropicToolChoice;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  stream?: boolean;
  output_config?: { format: { type: 'json_schema'; schema: Record<string, unknown> } };
  thinking?:
    | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' }
    | { type: 'adaptive'; display?: 'summarized' | 'omitted' }
    | { type: 'disabled' };
  cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' };
  [extra: string]: unknown;
}

/** A usage object of a response, `message_start` or `message_delta`. */
export interface AnthropicWireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  [extra: string]: unknown;
}

/** A content block of a response (or the start of a streamed one). */
export interface AnthropicWireBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  thinking?: string;
  signature?: string;
  data?: string;
  [extra: string]: unknown;
}

/** A non-streamed response body (also the `message` of `message_start`). */
export interface AnthropicWireMessage {
  id?: string;
  model?: string;
  content?: AnthropicWireBlock[];
  stop_reason?: string | null;
  usage?: AnthropicWireUsage | null;
  [extra: string]: unknown;
}
