import { unusedToolCallId } from '../internal/fallback-tool-call-id.js';
import { textArguments } from '../internal/non-text-arguments.js';
import { ProviderErrors } from '../internal/provider-errors.js';
import { isRecord, WireReader } from '../internal/wire-reader.js';
import type { AssistantMessage, Metadata, ToolCall } from '../messages/index.js';
import {
  type ChatResponse,
  type ChatResponseMetadata,
  FinishReason,
  type Usage,
} from '../model/index.js';
import { openAiReportedError } from './from-openai-response.js';
import type { ResponsesItemRecord, ResponsesReasoningItem } from './openai-responses-wire.js';

/**
 * Output items accepted in one response: positions 0 to 9,999. A larger `output_index` is refused
 * as malformed rather than given a slot.
 */
export const MAX_RESPONSES_OUTPUT_ITEMS = 10_000;

/** One output item of a response, read and type-checked. */
export type ResponsesOutputItem =
  | {
      kind: 'message';
      id: string | undefined;
      text: string;
      refusal: string;
      phase: 'commentary' | 'final_answer' | undefined;
    }
  | {
      kind: 'function_call';
      id: string | undefined;
      callId: string;
      name: string;
      /** The arguments text; a value of another JSON type is kept as it came, to be refused. */
      arguments: unknown;
      status: string | undefined;
    }
  | { kind: 'reasoning'; item: ResponsesReasoningItem | undefined; text: string }
  | { kind: 'other'; record: ResponsesItemRecord };

/** An output item as it ends up in the assistant message. */
export interface FinishedResponsesItem {
  item: ResponsesOutputItem;
  /** For a message: how much of the assistant message's text it holds. */
  textLength?: number;
}

/** Reads one item of `output` (or of an `output_item` stream event). */
export function readResponsesItem(
  read: WireReader,
  value: unknown,
  where: string,
): ResponsesOutputItem {
  const item = read.object(value, where);
  const type = read.optionalString(item.type, `${where}.type`);
  const id = read.optionalString(item.id, `${where}.id`) || undefined;
  switch (type) {
    case 'message': {
      let text = '';
      let refusal = '';
      const content = read.optionalArray(item.content, `${where}.content`) ?? [];
      content.forEach((value, position) => {
        const part = read.object(value, `${where}.content[${position}]`);
        if (part.type === 'output_text') {
          text += read.optionalString(part.text, `${where}.content[${position}].text`) ?? '';
        } else if (part.type === 'refusal') {
          refusal +=
            read.optionalString(part.refusal, `${where}.content[${position}].refusal`) ?? '';
        }
      });
      const phase =
        item.phase === 'commentary' || item.phase === 'final_answer' ? item.phase : undefined;
      return { kind: 'message', id, text, refusal, phase };
    }
    case 'function_call': {
      const args = item.arguments;
      return {
        kind: 'function_call',
        id,
        callId: read.optionalString(item.call_id, `${where}.call_id`) ?? '',
        name: read.optionalString(item.name, `${where}.name`) ?? '',
        arguments: args === null || args === undefined ? undefined : args,
        status: read.optionalString(item.status, `${where}.status`),
      };
    }
    case 'reasoning': {
      const summary = textParts(read, item.summary, `${where}.summary`, 'summary_text');
      const content = textParts(read, item.content, `${where}.content`, 'reasoning_text');
      const encrypted = read.optionalString(item.encrypted_content, `${where}.encrypted_content`);
      const text = [...summary, ...content].map((part) => part.text).join('\n\n');
      if (id === undefined) return { kind: 'reasoning', item: undefined, text };
      const reasoning: ResponsesReasoningItem = { type: 'reasoning', id, summary };
      if (content.length > 0) reasoning.content = content as ResponsesReasoningItem['content'];
      if (encrypted !== undefined) reasoning.encrypted_content = encrypted;
      return { kind: 'reasoning', item: reasoning, text };
    }
    case undefined:
      throw read.errors.malformed(`${where} has no type`);
    default: {
      const { status: _status, ...record } = item;
      return { kind: 'other', record: record as ResponsesItemRecord };
    }
  }
}

function textParts<T extends 'summary_text' | 'reasoning_text'>(
  read: WireReader,
  value: unknown,
  where: string,
  type: T,
): { type: T; text: string }[] {
  const parts: { type: T; text: string }[] = [];
  (read.optionalArray(value, where) ?? []).forEach((entry, position) => {
    const part = read.object(entry, `${where}[${position}]`);
    const text = read.optionalString(part.text, `${where}[${position}].text`);
    if (text !== undefined) parts.push({ type, text });
  });
  return parts;
}

/**
 * The tool call of a finished `function_call` item, with the id `options.id` (its `call_id`, unless
 * that is missing or taken; see `unusedToolCallId`). Marked `metadata.truncated` when the item, or
 * the response it ended in (`incomplete`), says it did not complete; the item id (`fc_…`) is kept
 * as `metadata.itemId`, since a reasoning item sent back refers to it. Arguments sent as a JSON
 * value that is not text become its JSON text, marked `metadata.nonTextArguments` (the loop
 * refuses the call).
 */
export function responsesToolCall(
  item: Extract<ResponsesOutputItem, { kind: 'function_call' }>,
  options: { id: string; responseIncomplete: boolean },
): ToolCall {
  const truncated =
    item.status === 'incomplete' || (options.responseIncomplete && item.status !== 'completed');
  const args = textArguments(item.arguments);
  const call: ToolCall = {
    id: options.id,
    name: item.name,
    arguments: args.arguments,
  };
  const metadata: Metadata = { ...args.metadata };
  if (item.id !== undefined) metadata.itemId = item.id;
  if (truncated) metadata.truncated = true;
  if (Object.keys(metadata).length > 0) call.metadata = metadata;
  return call;
}

/**
 * The assistant message's metadata for a response's finished items, in output order:
 * `responseItems` (what the next request sends back, see {@link ResponsesItemRecord}),
 * `reasoningContent` (the reasoning summaries and texts, for display), `refusal` and
 * `responseId` (for `previousResponseId: 'auto'`).
 */
export function responsesMessageMetadata(
  finished: readonly FinishedResponsesItem[],
  calls: readonly ToolCall[],
  responseId: string | undefined,
): Metadata {
  const records: ResponsesItemRecord[] = [];
  const reasoning: string[] = [];
  let refusal = '';
  let callIndex = 0;
  for (const { item, textLength } of finished) {
    switch (item.kind) {
      case 'message':
        refusal += item.refusal;
        records.push({
          type: 'message',
          ...(item.id === undefined ? {} : { id: item.id }),
          textLength: textLength ?? item.text.length,
          ...(item.phase === undefined ? {} : { phase: item.phase }),
        });
        break;
      case 'function_call': {
        const call = calls[callIndex++];
        if (call) records.push({ type: 'function_call', call_id: call.id });
        break;
      }
      case 'reasoning':
        if (item.text !== '') reasoning.push(item.text);
        if (item.item) records.push(item.item);
        break;
      case 'other':
        records.push(item.record);
        break;
    }
  }
  const metadata: Metadata = {};
  if (records.length > 0) metadata.responseItems = records;
  if (reasoning.length > 0) metadata.reasoningContent = reasoning.join('\n\n');
  if (refusal !== '') metadata.refusal = refusal;
  if (responseId !== undefined) metadata.responseId = responseId;
  return metadata;
}

/** Maps a response's `status` (and `incomplete_details.reason`) to toolloop's finish reasons. */
export function responsesFinishReason(
  status: string | undefined,
  incompleteReason: string | undefined,
  hasToolCalls: boolean,
): FinishReason | null {
  switch (status) {
    case undefined:
    case 'completed':
      return hasToolCalls ? FinishReason.TOOL_CALLS : FinishReason.STOP;
    case 'incomplete':
      if (incompleteReason === 'max_output_tokens') return FinishReason.LENGTH;
      if (incompleteReason === 'content_filter') return FinishReason.CONTENT_FILTER;
      return FinishReason.OTHER;
    case 'in_progress':
    case 'queued':
      return null;
    default:
      return FinishReason.OTHER;
  }
}

/** Maps a Responses API usage object to {@link Usage}, reasoning tokens included. */
export function mapResponsesUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const promptTokens = count(value.input_tokens) ?? 0;
  const completionTokens = count(value.output_tokens) ?? 0;
  const usage: Usage = {
    promptTokens,
    completionTokens,
    totalTokens: count(value.total_tokens) ?? promptTokens + completionTokens,
  };
  const input = isRecord(value.input_tokens_details) ? value.input_tokens_details : {};
  const output = isRecord(value.output_tokens_details) ? value.output_tokens_details : {};
  const cached = count(input.cached_tokens);
  if (cached !== undefined) usage.cacheReadTokens = cached;
  const reasoning = count(output.reasoning_tokens);
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

/** The id, model and usage of a response object. */
export function responsesResponseMetadata(response: Record<string, unknown>): ChatResponseMetadata {
  const metadata: ChatResponseMetadata = {};
  if (typeof response.id === 'string' && response.id !== '') metadata.id = response.id;
  if (typeof response.model === 'string' && response.model !== '') metadata.model = response.model;
  const usage = mapResponsesUsage(response.usage);
  if (usage) metadata.usage = usage;
  return metadata;
}

/**
 * Converts a non-streamed Responses API body to a {@link ChatResponse}: one generation whose text
 * is the messages' text, whose tool calls are the `function_call` items (ids from `call_id`, a
 * fresh one for a `call_id` missing or already used by an earlier call), and
 * whose metadata keeps the reasoning items and the order of every item for the next request. A
 * failed response or an `error` in the body throws its {@link ChatModelError}; a body of another
 * shape than the API's throws a non-retryable one. `errors` scrubs credentials from both.
 */
export function fromOpenAiResponsesResponse(
  body: unknown,
  errors: ProviderErrors = new ProviderErrors('openai'),
): ChatResponse {
  const read = new WireReader(errors);
  const response = read.object(body, 'the body');
  if (response.error !== undefined && response.error !== null) {
    throw openAiReportedError(response.error, errors, 'response');
  }
  const status = read.optionalString(response.status, 'status');
  if (status === 'failed') throw openAiReportedError(undefined, errors, 'response');
  const incomplete = read.optionalObject(response.incomplete_details, 'incomplete_details');
  const reason = read.optionalString(incomplete?.reason, 'incomplete_details.reason');
  const output = read.optionalArray(response.output, 'output') ?? [];
  if (output.length > MAX_RESPONSES_OUTPUT_ITEMS) {
    throw errors.malformed(`output has more than ${MAX_RESPONSES_OUTPUT_ITEMS} items`);
  }
  const finished: FinishedResponsesItem[] = [];
  const toolCalls: ToolCall[] = [];
  const usedIds = new Set<string>();
  let text = '';
  let sawText = false;
  output.forEach((value, position) => {
    const item = readResponsesItem(read, value, `output[${position}]`);
    finished.push({ item });
    if (item.kind === 'message') {
      text += item.text;
      sawText = true;
    } else if (item.kind === 'function_call') {
      toolCalls.push(
        responsesToolCall(item, {
          id: unusedToolCallId(item.callId, usedIds, 'call'),
          responseIncomplete: status === 'incomplete',
        }),
      );
    }
  });
  const metadata = responsesResponseMetadata(response);
  const assistant: AssistantMessage = {
    role: 'assistant',
    text: sawText && text !== '' ? text : null,
    toolCalls,
  };
  const messageMetadata = responsesMessageMetadata(finished, toolCalls, metadata.id);
  if (Object.keys(messageMetadata).length > 0) assistant.metadata = messageMetadata;
  return {
    results: [
      {
        output: assistant,
        metadata: { finishReason: responsesFinishReason(status, reason, toolCalls.length > 0) },
      },
    ],
    metadata,
  };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
