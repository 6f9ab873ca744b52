import type { ToolResultPart } from './tool-result-part.js';

/** Free-form JSON metadata carried by messages, tool calls and responses. */
export type Metadata = Record<string, unknown>;

/** Binary or remote content attached to a user message. */
export interface Media {
  /** IANA media type, e.g. `image/png`. */
  mimeType: string;
  /** Base64 data or a URL. */
  data: string;
}

/** Instructions for the model. */
export interface SystemMessage {
  role: 'system';
  text: string;
  metadata?: Metadata;
}

/** What the user said. */
export interface UserMessage {
  role: 'user';
  text: string;
  media?: Media[];
  metadata?: Metadata;
}

/** One tool invocation requested by the model. */
export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text exactly as the model wrote it; may be empty or invalid. */
  arguments: string;
  /** Provider data to send back with the call (signatures, truncation marks, …). */
  metadata?: Metadata;
}

/** What the model answered: text, tool calls, or both. */
export interface AssistantMessage {
  role: 'assistant';
  text: string | null;
  toolCalls: ToolCall[];
  metadata?: Metadata;
}

/**
 * The result of one tool call, matched to it by `id`. `responseData` is always the result as text
 * (what a text-only consumer reads); a result with more than text also keeps its `content` parts
 * (images, files, links) and, when the tool gave it, its `structuredContent`.
 */
export interface ToolResponse {
  id: string;
  name: string;
  /**
   * The result as text. For a result with `content`, its text form: the text parts and a
   * one-line description of every other part (`[image image/png, 48.2 KB]`).
   */
  responseData: string;
  /** True for every error result (maps to the providers' `is_error`). */
  isError?: boolean;
  /**
   * The result's parts in order, present when the tool returned more than text (an image, a
   * file, a resource link). Plain JSON (bytes as base64); provider adapters send the richest form
   * their API accepts.
   */
  content?: ToolResultPart[];
  /**
   * The result as JSON data: the output of a tool with an output schema (checked against it), or
   * an MCP tool's `structuredContent`. `responseData` holds its JSON text when the tool gave no
   * other text.
   */
  structuredContent?: unknown;
}

/** The results of one batch of tool calls, in call order. */
export interface ToolResponseMessage {
  role: 'tool';
  responses: ToolResponse[];
  metadata?: Metadata;
}

/** Any message of a conversation. Plain JSON: `JSON.parse(JSON.stringify(m))` equals `m`. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResponseMessage;

/** The role tags of {@link Message}. */
export type MessageRole = Message['role'];
