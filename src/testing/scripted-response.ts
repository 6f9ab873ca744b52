import type { ToolCall } from '../messages/index.js';
import { type ChatResponse, FinishReason, type Usage } from '../model/index.js';

const STREAMED_RESPONSE = Symbol.for('toolloop.testing.streamedResponse');

/** How a scripted response is cut into chunks when it is streamed. */
export interface StreamChunking {
  /** Number of text deltas per generation (fewer when the text is shorter). Default 3. */
  textChunks?: number;
  /**
   * Stream each tool call's argument text in this many pieces (fewer when it is shorter), as
   * `toolCallDeltas` chunks before the chunk with the complete calls, the way providers stream
   * them: the first piece of a call carries its name. Default 0: calls arrive whole only.
   */
  argumentChunks?: number;
}

/** A scripted response with its own streaming layout; made by {@link streamedResponse}. */
export interface StreamedResponse {
  readonly [STREAMED_RESPONSE]: true;
  readonly response: ChatResponse;
  readonly textChunks: number;
  readonly argumentChunks: number;
}

/**
 * Wraps a response so `stream()` splits its text into `textChunks` deltas and, with
 * `argumentChunks`, streams its tool calls' arguments in pieces.
 */
export function streamedResponse(
  response: ChatResponse,
  chunking: StreamChunking = {},
): StreamedResponse {
  return {
    [STREAMED_RESPONSE]: true,
    response,
    textChunks: chunking.textChunks ?? 3,
    argumentChunks: chunking.argumentChunks ?? 0,
  };
}

/** True for a value made by {@link streamedResponse}. */
export function isStreamedResponse(value: unknown): value is StreamedResponse {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[STREAMED_RESPONSE] === true
  );
}

/** Options of the response factories. */
export interface ScriptedResponseOptions {
  usage?: Usage;
  /** Overrides the finish reason (`stop` for text, `tool_calls` for tool calls). */
  finishReason?: FinishReason | null;
  /** Response id and model name for the response metadata. */
  id?: string;
  model?: string;
}

function metadata(options: ScriptedResponseOptions): ChatResponse['metadata'] {
  const result: ChatResponse['metadata'] = {};
  if (options.id !== undefined) result.id = options.id;
  if (options.model !== undefined) result.model = options.model;
  if (options.usage !== undefined) result.usage = options.usage;
  return result;
}

/** A model answer with text and no tool calls. */
export function textResponse(text: string, options: ScriptedResponseOptions = {}): ChatResponse {
  return {
    results: [
      {
        output: { role: 'assistant', text, toolCalls: [] },
        metadata: { finishReason: options.finishReason ?? FinishReason.STOP },
      },
    ],
    metadata: metadata(options),
  };
}

/**
 * A tool call to script: `arguments` may be an object (serialised) or raw text (kept as is, so
 * malformed JSON can be scripted too); `id` defaults to `call-<n>` by position.
 */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments?: string | object;
  metadata?: Record<string, unknown>;
}

/** A model answer that requests tool calls (optionally with some text beside them). */
export function toolCallResponse(
  calls: readonly ScriptedToolCall[],
  options: ScriptedResponseOptions & { text?: string } = {},
): ChatResponse {
  const toolCalls: ToolCall[] = calls.map((call, index) => {
    const args = call.arguments ?? {};
    const result: ToolCall = {
      id: call.id ?? `call-${index + 1}`,
      name: call.name,
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    };
    if (call.metadata !== undefined) result.metadata = call.metadata;
    return result;
  });
  return {
    results: [
      {
        output: { role: 'assistant', text: options.text ?? null, toolCalls },
        metadata: { finishReason: options.finishReason ?? FinishReason.TOOL_CALLS },
      },
    ],
    metadata: metadata(options),
  };
}
