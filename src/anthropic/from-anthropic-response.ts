import type { ChatModelError } from '../errors/index.js';
import { unusedToolCallId } from '../internal/fallback-tool-call-id.js';
import { ProviderErrors } from '../internal/provider-errors.js';
import { isRecord, WireReader } from '../internal/wire-reader.js';
import type { AssistantMessage, Metadata, ToolCall } from '../messages/index.js';
import {
  type ChatResponse,
  type ChatResponseMetadata,
  FinishReason,
  type Usage,
} from '../model/index.js';
import type { AnthropicWireBlock, AnthropicWireUsage } from './anthropic-wire.js';

/** Maps a Messages API `stop_reason` to toolloop's finish reason names. */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason | null {
  switch (reason) {
    case null:
    case undefined:
    case '':
      return null;
    case 'end_turn':
    case 'stop_sequence':
      return FinishReason.STOP;
    case 'tool_use':
      return FinishReason.TOOL_CALLS;
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return FinishReason.LENGTH;
    case 'refusal':
      return FinishReason.CONTENT_FILTER;
    default:
      return FinishReason.OTHER;
  }
}

/**
 * Maps a Messages API usage object to {@link Usage}. `promptTokens` counts every input token:
 * uncached input plus cache reads and cache writes (Anthropic reports them apart, OpenAI
 * includes them), and the cache counts are also given on their own. A count that is not a number
 * of tokens (negative, not finite, not a number) counts as absent.
 */
export function mapAnthropicUsage(usage: AnthropicWireUsage | null | undefined): Usage | undefined {
  if (!isRecord(usage)) return undefined;
  const input = numberOr(usage.input_tokens);
  const cacheRead = usage.cache_read_input_tokens;
  const cacheWrite = usage.cache_creation_input_tokens;
  const promptTokens = input + numberOr(cacheRead) + numberOr(cacheWrite);
  const completionTokens = numberOr(usage.output_tokens);
  const result: Usage = {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
  };
  if (isTokenCount(cacheRead)) result.cacheReadTokens = cacheRead;
  if (isTokenCount(cacheWrite)) result.cacheWriteTokens = cacheWrite;
  return result;
}

/** Client tool calls are `tool_use`; these block types are thinking kept for the next request. */
const THINKING_TYPES = new Set(['thinking', 'redacted_thinking']);

/** Content-block indexes accepted in a stream: 0 to 9,999. */
export const MAX_ANTHROPIC_CONTENT_BLOCKS = 10_000;

/**
 * Converts a non-streamed Messages API body to a {@link ChatResponse}: text blocks joined,
 * each `tool_use` block one `ToolCall` (arguments = its input as JSON text, id kept, a fresh
 * random id when the block has none or one an earlier block has), thinking blocks kept in `output.metadata.thinking` (sent
 * back on the next request), and server-run blocks (MCP, web search, tool search) kept in
 * `output.metadata.serverToolBlocks` and never turned into calls the loop would execute. When
 * the output limit stopped the message during a `tool_use` block, that call is marked
 * `metadata.truncated = true`. An error body throws its {@link ChatModelError}; a body of
 * another shape than the API's throws a non-retryable one. `errors` scrubs credentials from both.
 */
export function fromAnthropicResponse(
  body: unknown,
  errors: ProviderErrors = new ProviderErrors('anthropic'),
): ChatResponse {
  const read = new WireReader(errors);
  const message = read.object(body, 'the body');
  if (message.type === 'error') throw anthropicReportedError(message.error, errors, 'response');
  const finishReason = mapAnthropicStopReason(
    read.optionalString(message.stop_reason, 'stop_reason'),
  );
  const content = read.array(message.content, 'content');
  let text: string | null = null;
  const toolCalls: ToolCall[] = [];
  const thinking: AnthropicWireBlock[] = [];
  const serverToolBlocks: AnthropicWireBlock[] = [];
  const usedIds = new Set<string>();
  content.forEach((value, position) => {
    const block = readAnthropicBlock(read, value, `content[${position}]`);
    if (block.type === 'text') {
      if (block.text) text = (text ?? '') + block.text;
    } else if (block.type === 'tool_use') {
      const call: ToolCall = {
        id: unusedToolCallId(block.id, usedIds, 'toolu'),
        name: block.name ?? '',
        arguments: JSON.stringify(block.input ?? {}),
      };
      if (finishReason === FinishReason.LENGTH && position === content.length - 1) {
        call.metadata = { truncated: true };
      }
      toolCalls.push(call);
    } else if (THINKING_TYPES.has(block.type)) {
      thinking.push(thinkingBlock(block));
    } else {
      serverToolBlocks.push(block);
    }
  });
  const output: AssistantMessage = { role: 'assistant', text, toolCalls };
  const metadata: Metadata = {};
  if (thinking.length > 0) metadata.thinking = thinking;
  if (serverToolBlocks.length > 0) metadata.serverToolBlocks = serverToolBlocks;
  if (Object.keys(metadata).length > 0) output.metadata = metadata;
  return {
    results: [{ output, metadata: { finishReason } }],
    metadata: messageMetadata(message, mapAnthropicUsage(message.usage as AnthropicWireUsage)),
  };
}

/**
 * A content block (or a streamed block's start) with the fields the adapter reads type-checked:
 * a string `type`, and strings where text, ids, names, thinking and signatures go.
 */
export function readAnthropicBlock(
  read: WireReader,
  value: unknown,
  where: string,
): AnthropicWireBlock {
  const block = read.object(value, where);
  const type = read.optionalString(block.type, `${where}.type`);
  if (type === undefined) throw read.errors.malformed(`${where}.type is missing`);
  for (const field of ['text', 'id', 'name', 'thinking', 'signature', 'data']) {
    read.optionalString(block[field], `${where}.${field}`);
  }
  return block as AnthropicWireBlock;
}

/** The id, model and usage of a message. */
export function messageMetadata(
  message: Record<string, unknown>,
  usage: Usage | undefined,
): ChatResponseMetadata {
  const metadata: ChatResponseMetadata = {};
  if (typeof message.id === 'string' && message.id !== '') metadata.id = message.id;
  if (typeof message.model === 'string' && message.model !== '') metadata.model = message.model;
  if (usage) metadata.usage = usage;
  return metadata;
}

/** A thinking block reduced to the fields the API wants back. */
export function thinkingBlock(block: AnthropicWireBlock): AnthropicWireBlock {
  if (block.type === 'redacted_thinking')
    return { type: 'redacted_thinking', data: block.data ?? '' };
  return { type: 'thinking', thinking: block.thinking ?? '', signature: block.signature ?? '' };
}

const ERROR_STATUS = new Map<string, number>([
  ['invalid_request_error', 400],
  ['authentication_error', 401],
  ['permission_error', 403],
  ['not_found_error', 404],
  ['request_too_large', 413],
  ['rate_limit_error', 429],
  ['api_error', 500],
  ['overloaded_error', 529],
]);

/** The error an `error` event (or error body) delivered inside a 200 response stands for. */
export function anthropicReportedError(
  error: unknown,
  errors: ProviderErrors,
  where: 'response' | 'stream',
): ChatModelError {
  const record = isRecord(error) ? error : {};
  const type = typeof record.type === 'string' ? record.type : 'error';
  const message =
    typeof record.message === 'string' ? record.message : 'the provider reported an error';
  const status = ERROR_STATUS.get(type);
  return errors.create({
    message: `anthropic ${where} reported an error`,
    detail: `${type}: ${message}`,
    status,
    retryable: status === 429 || status === 500 || status === 529,
  });
}

function numberOr(value: unknown): number {
  return isTokenCount(value) ? value : 0;
}

function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
