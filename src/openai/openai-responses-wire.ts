/*
 * The parts of the Responses API wire format (`POST /responses`) this adapter writes and reads.
 * The request side is checked against the `openai` package's own published types by tests;
 * answers are read leniently, field by field, since compatible servers (Azure, LM Studio, vLLM)
 * differ.
 */

/** A content part of a user message. */
export type ResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string }
  | { type: 'input_file'; file_url: string };

/** A reasoning item, as the API returned it and as it is sent back. */
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  content?: { type: 'reasoning_text'; text: string }[];
  /** Present when the request asked for `reasoning.encrypted_content` (always with `store: false`). */
  encrypted_content?: string;
}

/** A function call, as the API returned it and as it is sent back. */
export interface ResponsesFunctionCallItem {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  /** The item id (`fc_…`), which a reasoning item before it refers to. */
  id?: string;
}

/** One item of a request's `input`. */
export type ResponsesInputItem =
  | { role: 'system' | 'user'; content: string | ResponsesInputContent[] }
  | { role: 'assistant'; content: string; phase?: 'commentary' | 'final_answer' }
  | {
      type: 'message';
      role: 'assistant';
      id: string;
      status: 'completed';
      content: { type: 'output_text'; text: string; annotations: [] }[];
      phase?: 'commentary' | 'final_answer';
    }
  | ResponsesReasoningItem
  | ResponsesFunctionCallItem
  | { type: 'function_call_output'; call_id: string; output: string | ResponsesOutputContent[] };

/** A part of a `function_call_output` with content: text, an image or a file. */
export type ResponsesOutputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename?: string }
  | { type: 'input_file'; file_url: string; filename?: string };

/** A function tool of a request. */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** `tool_choice` of a request. */
export type ResponsesToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; name: string };

/** `text.format` of a request (structured output). */
export type ResponsesTextFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean };

/** A Responses API request body. */
export interface ResponsesRequest {
  model: string;
  input: ResponsesInputItem[];
  store: boolean;
  tools?: ResponsesFunctionTool[];
  tool_choice?: ResponsesToolChoice;
  parallel_tool_calls?: boolean;
  include?: 'reasoning.encrypted_content'[];
  previous_response_id?: string;
  reasoning?: {
    effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
    summary?: 'auto' | 'concise' | 'detailed';
  };
  text?: { format?: ResponsesTextFormat; verbosity?: 'low' | 'medium' | 'high' };
  temperature?: number;
  top_p?: number;
  max_output_tokens?: number;
  stream?: boolean;
  [extra: string]: unknown;
}

/**
 * How one output item of a response is kept on the assistant message (`metadata.responseItems`,
 * in output order), so the next request sends the same items back in the same order: reasoning
 * items whole (with their encrypted content), a message by its id and the length of its text in
 * the message's `text`, a function call by its `call_id` (the call itself is in `toolCalls`), and
 * any other item (a hosted tool's call and result) as it came.
 */
export type ResponsesItemRecord =
  | ResponsesReasoningItem
  | { type: 'message'; id?: string; textLength: number; phase?: 'commentary' | 'final_answer' }
  | { type: 'function_call'; call_id: string }
  | { type: string; [field: string]: unknown };
