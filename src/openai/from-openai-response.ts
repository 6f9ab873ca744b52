import type { ChatModelError } from '../errors/index.js';
import { unusedToolCallId } from '../internal/fallback-tool-call-id.js';
import { textArguments } from '../internal/non-text-arguments.js';
import { ProviderErrors } from '../internal/provider-errors.js';
import { isRecord, WireReader } from '../internal/wire-reader.js';
import type { AssistantMessage, Metadata, ToolCall } from '../messages/index.js';
import {
  type ChatResponse,
  type ChatResponseMetadata,
  FinishReason,
  type Generation,
  type Usage,
} from '../model/index.js';
import type { OpenAiWireUsage } from './openai-wire.js';

/**
 * Choice indexes accepted in a response or stream: 0 to 127 (the API's largest `n` is 128). A
 * larger index is refused as malformed rather than given a slot.
 */
export const MAX_OPENAI_CHOICES = 128;
/** Tool-call indexes accepted within one choice: 0 to 9,999. */
export const MAX_OPENAI_TOOL_CALLS = 10_000;

/** Maps a Chat Completions `finish_reason` to toolloop's finish reason names. */
export function mapOpenAiFinishReason(reason: string | null | undefined): FinishReason | null {
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
      return FinishReason.OTHER;
  }
}

/**
 * Maps a Chat Completions usage object (also the `x_groq.usage` variant) to {@link Usage}. A
 * count that is not a number of tokens (negative, not finite, not a number) counts as absent.
 */
export function mapOpenAiUsage(usage: OpenAiWireUsage | null | undefined): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  const promptTokens = numberOr(usage.prompt_tokens, 0);
  const completionTokens = numberOr(usage.completion_tokens, 0);
  const result: Usage = {
    promptTokens,
    completionTokens,
    totalTokens: numberOr(usage.total_tokens, promptTokens + completionTokens),
  };
  const details = usage.prompt_tokens_details;
  const cached = isRecord(details) ? details.cached_tokens : undefined;
  if (isTokenCount(cached)) result.cacheReadTokens = cached;
  const outputDetails = usage.completion_tokens_details;
  const reasoning = isRecord(outputDetails) ? outputDetails.reasoning_tokens : undefined;
  if (isTokenCount(reasoning)) result.reasoningTokens = reasoning;
  return result;
}

/**
 * Converts a non-streamed Chat Completions body to a {@link ChatResponse}. Empty text becomes
 * `null`; a call in a response cut off by the output limit (`finish_reason: 'length'`) is marked
 * `metadata.truncated = true` so the loop never executes it; arguments sent as a JSON value that
 * is not text become its JSON text, marked `metadata.nonTextArguments = true` (the loop refuses
 * the call); a call without an id, or with the id of an earlier call of its message, gets a fresh
 * random one; `reasoning_content` (DeepSeek, xAI, vLLM) and `refusal` are kept in the assistant
 * message's metadata; content sent as a list of parts is joined. An `error` object in the body
 * throws its {@link ChatModelError}; a body of another shape than the API's throws a
 * non-retryable one (choice indexes from 0 to 127). `errors` scrubs credentials from both.
 */
export function fromOpenAiResponse(
  body: unknown,
  errors: ProviderErrors = new ProviderErrors('openai'),
): ChatResponse {
  const read = new WireReader(errors);
  const response = read.object(body, 'the body');
  if (response.error !== undefined && response.error !== null) {
    throw openAiReportedError(response.error, errors, 'response');
  }
  const choices = read.array(response.choices, 'choices').map((value, position) => {
    const where = `choices[${position}]`;
    const choice = read.object(value, where);
    const index =
      read.optionalIndex(choice.index, `${where}.index`, MAX_OPENAI_CHOICES) ?? position;
    const message = readOpenAiMessage(read, choice.message, `${where}.message`);
    const finishReason = mapOpenAiFinishReason(
      read.optionalString(choice.finish_reason, `${where}.finish_reason`),
    );
    const usedIds = new Set<string>();
    const toolCalls = message.toolCalls.map((call, position): ToolCall => {
      const fields = readOpenAiToolCall(read, call, `${where}.message.tool_calls[${position}]`);
      const args = textArguments(fields.arguments);
      const toolCall: ToolCall = {
        id: unusedToolCallId(fields.id, usedIds, 'call'),
        name: fields.name ?? '',
        ...args,
      };
      if (finishReason === FinishReason.LENGTH) {
        toolCall.metadata = { ...toolCall.metadata, truncated: true };
      }
      return toolCall;
    });
    const output: AssistantMessage = {
      role: 'assistant',
      text: message.text === '' ? null : message.text,
      toolCalls,
    };
    const metadata: Metadata = {};
    if (message.reasoning) metadata.reasoningContent = message.reasoning;
    if (message.refusal) metadata.refusal = message.refusal;
    if (Object.keys(metadata).length > 0) output.metadata = metadata;
    return { index, generation: { output, metadata: { finishReason } } as Generation };
  });
  choices.sort((a, b) => a.index - b.index);
  return {
    results: choices.map((choice) => choice.generation),
    metadata: responseMetadata(response),
  };
}

/** The parts of a response message (or of a stream delta) the adapter reads, type-checked. */
export interface OpenAiMessageFields {
  text: string;
  reasoning: string;
  refusal: string;
  toolCalls: unknown[];
}

/**
 * Reads a response `message` or a stream `delta`: text (a string, or a list of content parts
 * whose text parts are joined), reasoning (`reasoning_content`, `reasoning`, thinking parts),
 * refusal, and the raw tool-call list.
 */
export function readOpenAiMessage(
  read: WireReader,
  value: unknown,
  where: string,
): OpenAiMessageFields {
  const message = read.optionalObject(value, where) ?? {};
  const fields: OpenAiMessageFields = { text: '', reasoning: '', refusal: '', toolCalls: [] };
  const content = message.content;
  if (typeof content === 'string') {
    fields.text = content;
  } else if (Array.isArray(content)) {
    content.forEach((part, position) => {
      readContentPart(read, part, `${where}.content[${position}]`, fields);
    });
  } else if (content !== undefined && content !== null) {
    read.optionalString(content, `${where}.content`);
  }
  fields.reasoning +=
    read.optionalString(message.reasoning_content, `${where}.reasoning_content`) ??
    read.optionalString(message.reasoning, `${where}.reasoning`) ??
    '';
  fields.refusal += read.optionalString(message.refusal, `${where}.refusal`) ?? '';
  fields.toolCalls = read.optionalArray(message.tool_calls, `${where}.tool_calls`) ?? [];
  return fields;
}

/** One content part: text parts add text, thinking parts reasoning, refusal parts the refusal. */
function readContentPart(
  read: WireReader,
  value: unknown,
  where: string,
  fields: OpenAiMessageFields,
): void {
  const part = read.object(value, where);
  const type = read.optionalString(part.type, `${where}.type`) ?? 'text';
  switch (type) {
    case 'text':
    case 'output_text':
      fields.text += read.optionalString(part.text, `${where}.text`) ?? '';
      return;
    case 'refusal':
      fields.refusal += read.optionalString(part.refusal, `${where}.refusal`) ?? '';
      return;
    case 'thinking':
    case 'reasoning': {
      const thinking = part.thinking ?? part.text;
      if (Array.isArray(thinking)) {
        const inner: OpenAiMessageFields = { text: '', reasoning: '', refusal: '', toolCalls: [] };
        thinking.forEach((piece, position) => {
          readContentPart(read, piece, `${where}.thinking[${position}]`, inner);
        });
        fields.reasoning += inner.text + inner.reasoning;
      } else {
        fields.reasoning += read.optionalString(thinking, `${where}.thinking`) ?? '';
      }
      return;
    }
    default:
      throw read.errors.malformed(`${where} has the unsupported content part type "${type}"`);
  }
}

/** The fields of one tool call (or one tool-call delta), type-checked. */
export interface OpenAiToolCallFields {
  index: number | undefined;
  id: string;
  name: string | undefined;
  /**
   * The arguments text; a value of any other JSON type (some servers send an object) is kept
   * as it came, for the caller to mark (see `textArguments`), so that the tool-calling manager
   * refuses it as "arguments must be JSON text" instead of running the tool on a guess.
   */
  arguments: unknown;
}

/** Reads one entry of `tool_calls`. */
export function readOpenAiToolCall(
  read: WireReader,
  value: unknown,
  where: string,
): OpenAiToolCallFields {
  const call = read.object(value, where);
  const fn = read.optionalObject(call.function, `${where}.function`) ?? {};
  const args = fn.arguments;
  return {
    index: read.optionalIndex(call.index, `${where}.index`, MAX_OPENAI_TOOL_CALLS),
    id: read.optionalString(call.id, `${where}.id`) ?? '',
    name: read.optionalString(fn.name, `${where}.function.name`),
    arguments: args === null ? undefined : args,
  };
}

/** The id, model and usage of a body or stream chunk. */
export function responseMetadata(body: Record<string, unknown>): ChatResponseMetadata {
  const metadata: ChatResponseMetadata = {};
  if (typeof body.id === 'string' && body.id !== '') metadata.id = body.id;
  if (typeof body.model === 'string' && body.model !== '') metadata.model = body.model;
  const groq = isRecord(body.x_groq) ? body.x_groq.usage : undefined;
  const usage = mapOpenAiUsage((body.usage ?? groq) as OpenAiWireUsage | null | undefined);
  if (usage) metadata.usage = usage;
  return metadata;
}

/** The error an `error` object delivered inside a 200 body or stream stands for. */
export function openAiReportedError(
  error: unknown,
  errors: ProviderErrors,
  where: 'response' | 'stream',
): ChatModelError {
  const record = isRecord(error) ? error : {};
  const type =
    typeof record.type === 'string'
      ? record.type
      : typeof record.code === 'string'
        ? record.code
        : 'error';
  const message =
    typeof record.message === 'string'
      ? record.message
      : typeof error === 'string'
        ? error
        : 'the provider reported an error';
  return errors.create({
    message: `openai ${where} reported an error`,
    detail: `${type}: ${message}`,
    retryable: /server_error|rate_limit|overloaded|timeout|unavailable/i.test(type),
  });
}

function numberOr(value: unknown, fallback: number): number {
  return isTokenCount(value) ? value : fallback;
}

function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
