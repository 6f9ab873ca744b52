import { unusedToolCallId } from '../internal/fallback-tool-call-id.js';
import { parseEventJson } from '../internal/parse-event-json.js';
import { ProviderErrors } from '../internal/provider-errors.js';
import type { StreamConverter } from '../internal/provider-transport.js';
import type { ServerSentEvent } from '../internal/server-sent-events.js';
import { WireReader } from '../internal/wire-reader.js';
import type { Metadata, ToolCall } from '../messages/index.js';
import type {
  ChatResponse,
  ChatResponseMetadata,
  FinishReason,
  Generation,
  ToolCallDelta,
} from '../model/index.js';
import { openAiReportedError } from './from-openai-response.js';
import {
  type FinishedResponsesItem,
  MAX_RESPONSES_OUTPUT_ITEMS,
  type ResponsesOutputItem,
  readResponsesItem,
  responsesFinishReason,
  responsesMessageMetadata,
  responsesResponseMetadata,
  responsesToolCall,
} from './from-openai-responses-response.js';

/** One output item of the response being streamed, from `output_item.added` on. */
interface StreamedItem {
  type: string;
  /** The message text streamed for it (`output_text.delta`). */
  text: string;
  /** A `function_call` item's call, once announced. */
  call?: StreamedCall;
  /** Set by `output_item.done` (or by the response's `output` when no such event came). */
  finished?: ResponsesOutputItem;
  /** The complete call emitted for a finished `function_call` item. */
  toolCall?: ToolCall;
}

interface StreamedCall {
  id: string;
  name: string;
  /** Counts the response's function calls from 0: the `index` of its deltas. */
  ordinal: number;
  arguments: string;
  /** `function_call_arguments.done`'s text, which wins over the deltas when they differ. */
  doneArguments?: string;
  /** Whether any argument text went out in a delta. */
  streamedText: boolean;
}

/**
 * Assembles a Responses API event stream into `ChatResponse` chunks: each `output_text.delta`
 * becomes a chunk with `output.text`; a `function_call` item is announced as a display-only
 * `toolCallDelta` at `output_item.added` (its `call_id` as id, its position among the response's
 * calls as index), each `function_call_arguments.delta` goes out as the next piece, and the whole
 * call is emitted at the item's `output_item.done` (the done item's arguments win; a server that
 * sends them only in `function_call_arguments.done`, as LM Studio does, is read too). The last
 * chunk, at `response.completed` or `response.incomplete`, carries the finish reason, the usage
 * (reasoning tokens included) and the assistant metadata: the reasoning items (with their
 * encrypted content) and the order of every output item, which the next request sends back.
 *
 * A function call still open when the response ends incomplete is emitted marked
 * `metadata.truncated`, so the loop never runs it. An `error` event or a failed response, an
 * output index outside 0 to 9,999, an item added twice, a call whose name changes between its
 * announcement and its end, a second response starting inside the first, an event of another
 * shape than the API's, or a stream that ends before its terminal event throws a
 * {@link ChatModelError} built by `errors`. Events of types it does not know are skipped.
 */
export class OpenAiResponsesStreamAssembler implements StreamConverter<ChatResponse> {
  private readonly errors: ProviderErrors;
  private readonly read: WireReader;
  private readonly items = new Map<number, StreamedItem>();
  private response: Record<string, unknown> = {};
  private started = false;
  private done = false;
  private callCount = 0;
  /** The ids the response's calls were given: a repeated one is replaced. */
  private readonly usedIds = new Set<string>();

  constructor(errors: ProviderErrors = new ProviderErrors('openai')) {
    this.errors = errors;
    this.read = new WireReader(errors);
  }

  /** Feeds one server-sent event. */
  *event(event: ServerSentEvent): Iterable<ChatResponse> {
    if (this.done) return;
    const data = event.data.trim();
    if (data === '' || data === '[DONE]') return;
    const parsed = parseEventJson(data, this.errors);
    const payload = this.read.object(parsed, 'a stream event');
    const type = this.read.optionalString(payload.type, 'the type of a stream event');
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
      case 'response.queued': {
        const response = this.read.optionalObject(payload.response, `${type}.response`) ?? {};
        if (type === 'response.created' && this.started && this.items.size > 0) {
          throw this.errors.malformed('a second response started before the first one finished');
        }
        this.started = true;
        this.response = { ...this.response, ...response };
        return;
      }
      case 'response.output_item.added': {
        const index = this.outputIndex(payload, type);
        if (this.items.has(index))
          throw this.errors.malformed(`output item ${index} was added twice`);
        const item = this.read.object(payload.item, `${type}.item`);
        const itemType = this.read.optionalString(item.type, `${type}.item.type`) ?? '';
        const streamed: StreamedItem = { type: itemType, text: '' };
        this.items.set(index, streamed);
        if (itemType !== 'function_call') return;
        const name = this.read.optionalString(item.name, `${type}.item.name`) ?? '';
        const callId = this.read.optionalString(item.call_id, `${type}.item.call_id`) ?? '';
        const args = this.read.optionalString(item.arguments, `${type}.item.arguments`) ?? '';
        const call: StreamedCall = {
          id: unusedToolCallId(callId, this.usedIds, 'call'),
          name,
          ordinal: this.callCount++,
          arguments: args,
          streamedText: args !== '',
        };
        streamed.call = call;
        yield this.chunk({
          deltas: [{ id: call.id, index: call.ordinal, name, arguments: args }],
        });
        return;
      }
      case 'response.output_text.delta': {
        const text = this.read.optionalString(payload.delta, `${type}.delta`) ?? '';
        const item = this.items.get(this.outputIndex(payload, type));
        if (text === '' || item?.finished !== undefined) return;
        if (item) item.text += text;
        else this.items.set(this.outputIndex(payload, type), { type: 'message', text });
        yield this.chunk({ text });
        return;
      }
      case 'response.function_call_arguments.delta': {
        const piece = this.read.optionalString(payload.delta, `${type}.delta`) ?? '';
        const call = this.openCall(payload, type);
        if (call === undefined || piece === '') return;
        call.arguments += piece;
        call.streamedText = true;
        yield this.chunk({ deltas: [{ id: call.id, index: call.ordinal, arguments: piece }] });
        return;
      }
      case 'response.function_call_arguments.done': {
        const args = this.read.optionalString(payload.arguments, `${type}.arguments`);
        const call = this.openCall(payload, type);
        if (call !== undefined && args !== undefined) call.doneArguments = args;
        return;
      }
      case 'response.output_item.done': {
        const index = this.outputIndex(payload, type);
        const item = readResponsesItem(this.read, payload.item, `${type}.item`);
        const chunk = this.finishItem(index, item, false);
        if (chunk) yield chunk;
        return;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = this.read.object(payload.response, `${type}.response`);
        this.response = { ...this.response, ...response };
        yield* this.finishResponse(type === 'response.incomplete');
        return;
      }
      case 'response.failed': {
        const response = this.read.optionalObject(payload.response, `${type}.response`) ?? {};
        throw openAiReportedError(response.error, this.errors, 'stream');
      }
      case 'error':
        // The error is nested in `error`, or (as the API documents the event) its fields are the
        // event's own.
        throw openAiReportedError(
          payload.error ?? { code: payload.code, message: payload.message },
          this.errors,
          'stream',
        );
      case undefined:
        throw this.errors.malformed('a stream event has no type');
      default:
        return;
    }
  }

  /** Called when the byte stream ended. */
  end(): Iterable<ChatResponse> {
    if (this.done) return [];
    throw this.errors.create({
      message: `${this.errors.provider} stream ended before the response finished`,
      retryable: true,
    });
  }

  /** Events without data, and `keepalive` events, only keep the connection open. */
  isKeepAlive(event: ServerSentEvent): boolean {
    const data = event.data.trim();
    return (
      data === '' || event.event === 'keepalive' || /^\{\s*"type"\s*:\s*"keepalive"/.test(data)
    );
  }

  /** True once `response.completed` or `response.incomplete` arrived. */
  isComplete(): boolean {
    return this.done;
  }

  private outputIndex(payload: Record<string, unknown>, type: string): number {
    const index = this.read.optionalIndex(
      payload.output_index,
      `${type}.output_index`,
      MAX_RESPONSES_OUTPUT_ITEMS,
    );
    if (index === undefined) throw this.errors.malformed(`${type} has no output_index`);
    return index;
  }

  /** The call an arguments event belongs to; none for an item that is no call or already ended. */
  private openCall(payload: Record<string, unknown>, type: string): StreamedCall | undefined {
    const item = this.items.get(this.outputIndex(payload, type));
    return item?.finished === undefined ? item?.call : undefined;
  }

  /**
   * Ends one output item; for a function call, returns the chunk with the complete call. An item
   * that ends without having been added (a server that skips `output_item.added`) is taken as is.
   */
  private finishItem(
    index: number,
    item: ResponsesOutputItem,
    responseIncomplete: boolean,
  ): ChatResponse | undefined {
    let streamed = this.items.get(index);
    if (streamed?.finished !== undefined) return undefined;
    if (!streamed) {
      streamed = { type: item.kind, text: '' };
      this.items.set(index, streamed);
    }
    streamed.finished = item;
    if (item.kind === 'message') {
      // A server that sent the text only with the finished item: it goes out now.
      if (streamed.text === '' && item.text !== '') {
        streamed.text = item.text;
        return this.chunk({ text: item.text });
      }
      return undefined;
    }
    if (item.kind !== 'function_call') return undefined;
    const announced = streamed.call;
    if (announced && announced.name !== '' && item.name !== '' && announced.name !== item.name) {
      throw this.errors.malformed(
        `the function call at output index ${index} changed its name while it streamed`,
      );
    }
    const finished =
      item.arguments === undefined && announced
        ? { ...item, arguments: announced.doneArguments ?? announced.arguments }
        : item;
    const call = responsesToolCall(
      { ...finished, name: finished.name || announced?.name || '' },
      {
        id: announced?.id ?? unusedToolCallId(finished.callId, this.usedIds, 'call'),
        responseIncomplete,
      },
    );
    streamed.toolCall = call;
    const ordinal = announced?.ordinal ?? this.callCount++;
    const deltas: ToolCallDelta[] = [];
    if (!announced) deltas.push({ id: call.id, index: ordinal, name: call.name, arguments: '' });
    // No argument text streamed: the whole text goes out as the call's last delta, so its deltas
    // still add up to its arguments.
    if (!announced?.streamedText && call.arguments !== '' && !call.metadata?.nonTextArguments) {
      deltas.push({ id: call.id, index: ordinal, arguments: call.arguments });
    }
    return this.chunk({ toolCalls: [call], deltas });
  }

  /**
   * The last chunk: items the response lists but no event finished are finished from its
   * `output`; calls still open are emitted truncated; then the finish reason, the usage and the
   * assistant metadata.
   */
  private *finishResponse(incomplete: boolean): Iterable<ChatResponse> {
    this.done = true;
    const output = this.read.optionalArray(this.response.output, 'response.output') ?? [];
    if (output.length > MAX_RESPONSES_OUTPUT_ITEMS) {
      throw this.errors.malformed(`output has more than ${MAX_RESPONSES_OUTPUT_ITEMS} items`);
    }
    for (let index = 0; index < output.length; index++) {
      if (this.items.get(index)?.finished !== undefined) continue;
      const item = readResponsesItem(this.read, output[index], `response.output[${index}]`);
      const chunk = this.finishItem(index, item, incomplete);
      if (chunk) yield chunk;
    }
    const cutOff: ToolCall[] = [];
    for (const streamed of this.items.values()) {
      if (streamed.finished !== undefined || !streamed.call) continue;
      const call: ToolCall = {
        id: streamed.call.id,
        name: streamed.call.name,
        arguments: streamed.call.arguments,
        metadata: { truncated: true },
      };
      streamed.toolCall = call;
      cutOff.push(call);
    }
    const ordered = [...this.items.entries()].sort(([a], [b]) => a - b);
    const finished: FinishedResponsesItem[] = [];
    const calls: ToolCall[] = [];
    for (const [, streamed] of ordered) {
      if (streamed.toolCall) calls.push(streamed.toolCall);
      if (streamed.finished)
        finished.push({ item: streamed.finished, textLength: streamed.text.length });
      else if (streamed.call) {
        finished.push({
          item: {
            kind: 'function_call',
            id: undefined,
            callId: streamed.call.id,
            name: streamed.call.name,
            arguments: streamed.call.arguments,
            status: 'incomplete',
          },
        });
      } else if (streamed.type === 'message' && streamed.text !== '') {
        // A message cut off: the text the user saw is kept (without an item id).
        finished.push({
          item: {
            kind: 'message',
            id: undefined,
            text: streamed.text,
            refusal: '',
            phase: undefined,
          },
          textLength: streamed.text.length,
        });
      }
    }
    const status = this.read.optionalString(this.response.status, 'response.status');
    const details = this.read.optionalObject(
      this.response.incomplete_details,
      'response.incomplete_details',
    );
    const reason = this.read.optionalString(details?.reason, 'response.incomplete_details.reason');
    const metadata = responsesResponseMetadata(this.response);
    const finishReason = responsesFinishReason(
      status ?? (incomplete ? 'incomplete' : 'completed'),
      reason,
      calls.length > 0,
    );
    yield this.chunk({
      toolCalls: cutOff,
      finishReason,
      messageMetadata: responsesMessageMetadata(finished, calls, metadata.id),
      metadata,
    });
  }

  private chunk(parts: {
    text?: string;
    toolCalls?: ToolCall[];
    deltas?: ToolCallDelta[];
    finishReason?: FinishReason | null;
    messageMetadata?: Metadata;
    metadata?: ChatResponseMetadata;
  }): ChatResponse {
    const generation: Generation = {
      output: {
        role: 'assistant',
        text: parts.text ?? null,
        toolCalls: parts.toolCalls ?? [],
      },
      metadata: { finishReason: parts.finishReason ?? null },
    };
    if (parts.messageMetadata && Object.keys(parts.messageMetadata).length > 0) {
      generation.output.metadata = parts.messageMetadata;
    }
    if (parts.deltas && parts.deltas.length > 0) generation.toolCallDeltas = parts.deltas;
    return { results: [generation], metadata: parts.metadata ?? this.baseMetadata() };
  }

  private baseMetadata(): ChatResponseMetadata {
    const metadata: ChatResponseMetadata = {};
    if (typeof this.response.id === 'string' && this.response.id !== '')
      metadata.id = this.response.id;
    if (typeof this.response.model === 'string' && this.response.model !== '') {
      metadata.model = this.response.model;
    }
    return metadata;
  }
}
