import { ChatModelError } from '../errors/index.js';
import type { AssistantMessage, Metadata, ToolCall } from '../messages/index.js';
import {
  type ChatResponse,
  type ChatResponseMetadata,
  FinishReason,
  type Generation,
  type Usage,
} from '../model/index.js';
import type { OpenAiWireResponse, OpenAiWireUsage } from './openai-wire.js';

/** Maps a Chat Completions `finish_reason` to toolloop's finish reason names. */
export function mapOpenAiFinishReason(reason: string | null | undefined): string | null {
  switch (reason) {
    case null:
    case undefined:
    case '':
      return null;
    case 'stop':
    case 'eos':
      return FinishReason.STOP;
    case 'length':
      return FinishReason.LENGTH;
    case 'tool_calls':
    case 'function_call':
      return FinishReason.TOOL_CALLS;
    case 'content_filter':
      return FinishReason.CONTENT_FILTER;
    default:
      return reason.toLowerCase();
  }
}

/** Maps a Chat Completions usage object (also the `x_groq.usage` variant) to {@link Usage}. */
export function mapOpenAiUsage(usage: OpenAiWireUsage | null | undefined): Usage | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  const promptTokens = numberOr(usage.prompt_tokens, 0);
  const completionTokens = numberOr(usage.completion_tokens, 0);
  const result: Usage = {
    promptTokens,
    completionTokens,
    totalTokens: numberOr(usage.total_tokens, promptTokens + completionTokens),
  };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') result.cacheReadTokens = cached;
  return result;
}

/** The id to use for a call the server sent without one (some compatible servers do). */
export function fallbackToolCallId(responseId: string | undefined, position: number): string {
  return `call_${responseId ?? 'response'}_${position}`;
}

/**
 * Converts a non-streamed Chat Completions body to a {@link ChatResponse}. Empty text becomes
 * `null`; a call in a response cut off by the output limit (`finish_reason: 'length'`) is marked
 * `metadata.truncated = true` so the loop never executes it; `reasoning_content` (DeepSeek, xAI,
 * vLLM) and `refusal` are kept in the assistant message's metadata.
 */
export function fromOpenAiResponse(body: OpenAiWireResponse): ChatResponse {
  if (body.error !== undefined && body.error !== null) throw openAiStreamError(body.error);
  const choices = [...(body.choices ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const results: Generation[] = choices.map((choice) => {
    const message = choice.message ?? {};
    const finishReason = mapOpenAiFinishReason(choice.finish_reason);
    const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call, position) => {
      const toolCall: ToolCall = {
        id: call.id || fallbackToolCallId(body.id, position),
        name: call.function?.name ?? '',
        arguments: call.function?.arguments ?? '',
      };
      if (finishReason === FinishReason.LENGTH) toolCall.metadata = { truncated: true };
      return toolCall;
    });
    const output: AssistantMessage = {
      role: 'assistant',
      text: message.content ? message.content : null,
      toolCalls,
    };
    const metadata: Metadata = {};
    const reasoning = message.reasoning_content ?? message.reasoning;
    if (reasoning) metadata.reasoningContent = reasoning;
    if (message.refusal) metadata.refusal = message.refusal;
    if (Object.keys(metadata).length > 0) output.metadata = metadata;
    return { output, metadata: { finishReason } };
  });
  return { results, metadata: responseMetadata(body) };
}

/** The id, model and usage of a body or stream chunk. */
export function responseMetadata(body: OpenAiWireResponse): ChatResponseMetadata {
  const metadata: ChatResponseMetadata = {};
  if (typeof body.id === 'string' && body.id !== '') metadata.id = body.id;
  if (typeof body.model === 'string' && body.model !== '') metadata.model = body.model;
  const usage = mapOpenAiUsage(body.usage ?? body.x_groq?.usage);
  if (usage) metadata.usage = usage;
  return metadata;
}

/** A `ChatModelError` for an `error` object delivered inside a 200 response or stream. */
export function openAiStreamError(error: unknown): ChatModelError {
  const record =
    typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const type =
    typeof record.type === 'string'
      ? record.type
      : typeof record.code === 'string'
        ? record.code
        : 'error';
  const message =
    typeof record.message === 'string' ? record.message : 'the provider reported an error';
  const retryable = /server_error|rate_limit|overloaded|timeout|unavailable/i.test(type);
  return new ChatModelError({
    provider: 'openai',
    message: `openai stream reported ${type}: ${message.slice(0, 500)}`,
    retryable,
  });
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}
