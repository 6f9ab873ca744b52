/*
 * The parts of the Chat Completions wire format this adapter writes and reads. Kept structural and
 * lenient on input, since OpenAI-compatible servers differ; tests check the request side against
 * the `openai` package's own published types.
 */

/** A content part of a user message. */
export type OpenAiContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data: string; filename?: string } };

/** A tool call as sent back in an assistant message. */
export interface OpenAiToolCallParam {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One message of a request. */
export type OpenAiMessageParam =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAiContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: OpenAiToolCallParam[];
      /** Only sent with `sendReasoningContent` (DeepSeek and other reasoning servers). */
      reasoning_content?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A function tool of a request. */
export interface OpenAiToolParam {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    strict?: boolean;
  };
}

/** `tool_choice` of a request. */
export type OpenAiToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | { type: 'function'; function: { name: string } };

/** `response_format` of a request. */
export type OpenAiResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean };
    };

/** A Chat Completions request body. */
export interface OpenAiChatRequest {
  model: string;
  messages: OpenAiMessageParam[];
  tools?: OpenAiToolParam[];
  tool_choice?: OpenAiToolChoice;
  parallel_tool_calls?: boolean;
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string | string[];
  response_format?: OpenAiResponseFormat;
  reasoning_effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
  seed?: number;
  stream?: boolean;
  stream_options?: { include_usage: boolean };
  [extra: string]: unknown;
}

/** A usage object as sent by OpenAI and compatible servers. */
export interface OpenAiWireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  /** `reasoning_tokens`: output tokens an o-series or GPT-5 model spent reasoning. */
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  [extra: string]: unknown;
}

/** A tool call in a response (or, partial, in a stream delta). */
export interface OpenAiWireToolCall {
  index?: number;
  id?: string | null;
  type?: string;
  function?: { name?: string | null; arguments?: string | null };
}

/** The message of a non-streamed choice, or the delta of a streamed one. */
export interface OpenAiWireMessage {
  role?: string;
  content?: string | null;
  refusal?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: OpenAiWireToolCall[] | null;
}

/** A response body or one stream chunk. */
export interface OpenAiWireResponse {
  id?: string;
  model?: string;
  choices?: {
    index?: number;
    message?: OpenAiWireMessage;
    delta?: OpenAiWireMessage;
    finish_reason?: string | null;
  }[];
  usage?: OpenAiWireUsage | null;
  x_groq?: { usage?: OpenAiWireUsage | null } | null;
  error?: unknown;
  [extra: string]: unknown;
}
