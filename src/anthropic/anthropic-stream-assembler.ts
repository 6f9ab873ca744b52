import { fallbackToolCallId, unusedToolCallId } from '../internal/fallback-tool-call-id.js';
import { textArguments } from '../internal/non-text-arguments.js';
import { parseEventJson } from '../internal/parse-event-json.js';
import { ProviderErrors } from '../internal/provider-errors.js';
import type { StreamConverter } from '../internal/provider-transport.js';
import type { ServerSentEvent } from '../internal/server-sent-events.js';
import { WireReader } from '../internal/wire-reader.js';
import type { Metadata, ToolCall } from '../messages/index.js';
import {
  type ChatResponse,
  FinishReason,
  type Generation,
  type ToolCallDelta,
} from '../model/index.js';
import type { AnthropicWireBlock, AnthropicWireUsage } from './anthropic-wire.js';
import {
  anthropicReportedError,
  MAX_ANTHROPIC_CONTENT_BLOCKS,
  mapAnthropicStopReason,
  mapAnthropicUsage,
  messageMetadata,
  readAnthropicBlock,
  thinkingBlock,
} from './from-anthropic-response.js';
import { JsonWhitespaceCompactor } from './json-whitespace-compactor.js';

interface OpenBlock {
  start: AnthropicWireBlock;
  json: string;
  /** A `tool_use` block's call as its deltas name it (its id is the complete call's id too). */
  call?: StreamedCall;
  /** The first `partial_json` value that was not text, kept so the call is refused, not guessed. */
  nonTextJson?: unknown;
  /** Input for this block arrived outside its start and stop: its arguments cannot be known. */
  lostInput?: true;
  thinking: string;
  signature: string;
}

interface StreamedCall {
  id: string;
  /** Counts the message's `tool_use` blocks from 0: the `index` of its deltas. */
  ordinal: number;
  compactor: JsonWhitespaceCompactor;
  /** Whether any argument text went out in a delta. */
  streamedText: boolean;
}

const USAGE_COUNTS = ['input_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'];

/**
 * Assembles a Messages API event stream into `ChatResponse` chunks: `text_delta`s become chunks
 * with `output.text`; a `tool_use` block's `input_json_delta`s are collected into its call, and
 * the message's calls are emitted together at `message_stop` (empty input becomes `{}`, and the
 * JSON text is written as `JSON.stringify` writes the non-streamed input, so call and stream
 * agree; a block without an id, or with the id of an earlier block of its message, gets a fresh
 * random one). A stream that ends after the stop reason
 * but without `message_stop` was cut off: its calls are emitted marked `metadata.truncated =
 * true`, so the loop never executes them (as for an OpenAI stream cut before `[DONE]`). So is a
 * call whose block got an `input_json_delta` before its `content_block_start` or after its
 * `content_block_stop`: its arguments cannot be known. A `partial_json` that is not text makes the
 * call's arguments that value's JSON text, marked `metadata.nonTextArguments` (the loop refuses
 * the call).
 *
 * As the input streams, the call also goes out piece by piece as display-only `toolCallDeltas`:
 * a first delta with its name at `content_block_start`, then each `input_json_delta` with the
 * whitespace between JSON tokens dropped (so the pieces add up to the finished call's arguments;
 * `{}` goes out at the end when no input streamed), all with the id of the finished call and the
 * block's position among the message's `tool_use` blocks as `index`; thinking blocks (with
 * signatures) and server-run blocks go to the assistant metadata; the stop reason and usage come
 * with `message_delta`. A block still open when the output limit stops the message is emitted
 * marked `metadata.truncated = true`. A second `message_start` before the first message ended
 * starts over: the unfinished blocks and calls of the abandoned message are dropped. `ping`
 * events are keep-alives and the event names are ignored (events are dispatched on their
 * `type`). Content-block indexes from 0 to 9,999 are accepted (open blocks are kept per index).
 * An `error` event, an event of another shape than the API's, or a stream cut before the message
 * ended (no `message_stop` and no stop reason) throws a {@link ChatModelError} built by `errors`.
 */
export class AnthropicStreamAssembler implements StreamConverter<ChatResponse> {
  private readonly errors: ProviderErrors;
  private readonly read: WireReader;
  private message: Record<string, unknown> = {};
  private inputUsage: AnthropicWireUsage = {};
  private outputTokens = 0;
  private readonly blocks = new Map<number, OpenBlock>();
  private thinking: AnthropicWireBlock[] = [];
  private serverToolBlocks: AnthropicWireBlock[] = [];
  private started = false;
  private stopped = false;
  private finished = false;
  /** `tool_use` blocks started in the current message. */
  private toolUseCount = 0;
  /** The ids the current message's calls were given: a repeated one is replaced. */
  private usedIds = new Set<string>();
  /**
   * The current message's finished calls, by block index: they go out with `message_stop`, so a
   * stream cut before it runs none of them (see {@link end}).
   */
  private readonly calls = new Map<number, ToolCall>();
  /** Block indexes that received input before their `content_block_start`. */
  private readonly earlyInput = new Set<number>();

  constructor(errors: ProviderErrors = new ProviderErrors('anthropic')) {
    this.errors = errors;
    this.read = new WireReader(errors);
  }

  /** Feeds one server-sent event. */
  *event(event: ServerSentEvent): Iterable<ChatResponse> {
    const data = event.data.trim();
    if (data === '' || data === '[DONE]') return;
    const parsed = parseEventJson(data, this.errors);
    const payload = this.read.object(parsed, 'a stream event');
    const type = this.read.optionalString(payload.type, 'the type of a stream event');
    switch (type) {
      case 'message_start':
        this.startMessage(this.read.optionalObject(payload.message, 'message_start.message'));
        return;
      case 'content_block_start': {
        const index = this.blockIndex(payload.index, 'content_block_start');
        if (this.blocks.has(index)) {
          throw this.errors.malformed(`content block ${index} started twice`);
        }
        const block = readAnthropicBlock(
          this.read,
          payload.content_block,
          'content_block_start.content_block',
        );
        const open: OpenBlock = { start: block, json: '', thinking: '', signature: '' };
        if (this.earlyInput.delete(index)) open.lostInput = true;
        this.blocks.set(index, open);
        if (block.type === 'text' && block.text) yield this.chunk({ text: block.text });
        // No new local here: every event allocates this generator's frame, one slot per local.
        if (block.type === 'tool_use') yield this.announceCall(index, block);
        return;
      }
      case 'content_block_delta': {
        const index = this.blockIndex(payload.index, 'content_block_delta');
        const block = this.blocks.get(index);
        const delta = this.read.object(payload.delta, 'content_block_delta.delta');
        const where = 'content_block_delta.delta';
        switch (delta.type) {
          case 'text_delta': {
            const text = this.read.optionalString(delta.text, `${where}.text`);
            if (text) yield this.chunk({ text });
            return;
          }
          case 'input_json_delta': {
            if (block === undefined) {
              this.inputOutsideBlock(index);
              return;
            }
            const streamed = this.addInputJson(block, delta.partial_json);
            if (streamed !== undefined) yield streamed;
            return;
          }
          case 'thinking_delta':
            if (block) block.thinking += this.read.optionalString(delta.thinking, where) ?? '';
            return;
          case 'signature_delta':
            if (block) block.signature += this.read.optionalString(delta.signature, where) ?? '';
            return;
          default:
            return;
        }
      }
      case 'content_block_stop': {
        const index = this.blockIndex(payload.index, 'content_block_stop');
        const block = this.blocks.get(index);
        if (!block) return;
        this.blocks.delete(index);
        yield* this.closeBlock(index, block, false);
        return;
      }
      case 'message_delta': {
        const delta = this.read.optionalObject(payload.delta, 'message_delta.delta') ?? {};
        const usage = this.read.optionalObject(payload.usage, 'message_delta.usage') ?? {};
        if (Number.isFinite(usage.output_tokens)) this.outputTokens = usage.output_tokens as number;
        for (const key of USAGE_COUNTS) {
          if (Number.isFinite(usage[key])) this.inputUsage[key] = usage[key];
        }
        const finishReason = mapAnthropicStopReason(
          this.read.optionalString(delta.stop_reason, 'message_delta.delta.stop_reason'),
        );
        if (finishReason === FinishReason.LENGTH) yield* this.closeOpenBlocks();
        if (finishReason !== null) this.finished = true;
        yield this.chunk({ finishReason, usage: true });
        return;
      }
      case 'message_stop':
        yield* this.closeOpenBlocks();
        this.stopped = true;
        if (this.calls.size > 0) yield this.releaseCalls(false);
        return;
      case 'error':
        throw anthropicReportedError(payload.error, this.errors, 'stream');
      case undefined:
        throw this.errors.malformed('a stream event has no type');
      default:
        return;
    }
  }

  /**
   * Called when the byte stream ended. Without `message_stop` the message was cut off: when its
   * stop reason had arrived, its calls (finished or still open) go out marked truncated, so the
   * loop answers them without running any, as for an OpenAI stream cut before `[DONE]`; without a
   * stop reason the stream fails.
   */
  end(): Iterable<ChatResponse> {
    if (this.stopped) return [];
    if (!this.finished) {
      throw this.errors.create({
        message: 'anthropic stream ended before the message finished',
        retryable: true,
      });
    }
    const closing = [...this.closeOpenBlocks()];
    if (this.calls.size > 0) closing.push(this.releaseCalls(true));
    return closing;
  }

  /** `ping` events (and events without data) only keep the connection open. */
  isKeepAlive(event: ServerSentEvent): boolean {
    const data = event.data.trim();
    return data === '' || event.event === 'ping' || /^\{\s*"type"\s*:\s*"ping"\s*\}$/.test(data);
  }

  /** True once `message_stop` arrived. */
  isComplete(): boolean {
    return this.stopped;
  }

  /** Starts the call of the `tool_use` block just opened at `index`: the chunk announcing it. */
  private announceCall(index: number, start: AnthropicWireBlock): ChatResponse {
    const call: StreamedCall = {
      id: unusedToolCallId(start.id, this.usedIds, 'toolu'),
      ordinal: this.toolUseCount++,
      compactor: new JsonWhitespaceCompactor(),
      streamedText: false,
    };
    (this.blocks.get(index) as OpenBlock).call = call;
    return this.callChunk([
      { id: call.id, index: call.ordinal, name: start.name ?? '', arguments: '' },
    ]);
  }

  /**
   * Adds an `input_json_delta` to its block; returns the chunk with the call's next argument
   * piece when there is one to show. Input that is not text is kept (for the manager to refuse)
   * and ends the call's pieces.
   */
  private addInputJson(block: OpenBlock, json: unknown): ChatResponse | undefined {
    if (json === undefined || json === null) return undefined;
    if (typeof json !== 'string') {
      if (!('nonTextJson' in block)) block.nonTextJson = json;
      return undefined;
    }
    block.json += json;
    const call = block.call;
    if (call === undefined || 'nonTextJson' in block) return undefined;
    const piece = call.compactor.push(json);
    if (piece === '') return undefined;
    call.streamedText = true;
    return this.callChunk([{ id: call.id, index: call.ordinal, arguments: piece }]);
  }

  /**
   * An `input_json_delta` for a block that is not open: before its start, the block's call is
   * marked truncated when it starts (its arguments would otherwise be guessed from what followed,
   * `{}` when nothing did); after its stop, the finished call is. Either way it never runs.
   */
  private inputOutsideBlock(index: number): void {
    const finished = this.calls.get(index);
    if (finished !== undefined) finished.metadata = { ...finished.metadata, truncated: true };
    else this.earlyInput.add(index);
  }

  /** The chunk with the message's finished calls, in block order; `cutOff` marks them truncated. */
  private releaseCalls(cutOff: boolean): ChatResponse {
    const calls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    this.calls.clear();
    if (cutOff) for (const call of calls) call.metadata = { ...call.metadata, truncated: true };
    return this.chunk({ toolCalls: calls });
  }

  private blockIndex(value: unknown, event: string): number {
    const index = this.read.optionalIndex(value, `${event}.index`, MAX_ANTHROPIC_CONTENT_BLOCKS);
    if (index === undefined) throw this.errors.malformed(`${event} has no index`);
    return index;
  }

  private startMessage(message: Record<string, unknown> = {}): void {
    this.message = message;
    const usage = this.read.optionalObject(message.usage, 'message_start.message.usage') ?? {};
    this.inputUsage = { ...usage };
    this.outputTokens = Number.isFinite(usage.output_tokens) ? (usage.output_tokens as number) : 0;
    // A message_start inside an unfinished message: the abandoned message's open blocks never
    // ended, so they are dropped rather than emitted half-done, and its thinking (whose signature
    // belongs to that message) is not sent back.
    this.blocks.clear();
    this.calls.clear();
    this.earlyInput.clear();
    this.thinking = [];
    this.serverToolBlocks = [];
    this.toolUseCount = 0;
    this.usedIds = new Set();
    this.started = true;
    this.stopped = false;
    this.finished = false;
  }

  private *closeOpenBlocks(): Iterable<ChatResponse> {
    const open = [...this.blocks.entries()].sort(([a], [b]) => a - b);
    this.blocks.clear();
    for (const [index, block] of open) yield* this.closeBlock(index, block, true);
  }

  private *closeBlock(index: number, block: OpenBlock, truncated: boolean): Iterable<ChatResponse> {
    const { start } = block;
    if (start.type === 'tool_use') {
      const streamed = block.call;
      const call: ToolCall = {
        id: streamed?.id ?? (start.id || fallbackToolCallId('toolu')),
        name: start.name ?? '',
        ...textArguments(
          'nonTextJson' in block
            ? block.nonTextJson
            : truncated
              ? block.json
              : inputText(block.json, start.input),
        ),
      };
      if (truncated || block.lostInput) call.metadata = { ...call.metadata, truncated: true };
      this.calls.set(index, call);
      // No argument text streamed (an empty input becomes `{}`): the whole text goes out as the
      // call's last delta, so its deltas still add up to its arguments.
      if (streamed !== undefined && !streamed.streamedText && !('nonTextJson' in block)) {
        yield this.callChunk([
          { id: streamed.id, index: streamed.ordinal, arguments: call.arguments },
        ]);
      }
    } else if (start.type === 'thinking' || start.type === 'redacted_thinking') {
      this.thinking = [
        ...this.thinking,
        thinkingBlock({
          ...start,
          thinking: (start.thinking ?? '') + block.thinking,
          signature: (start.signature ?? '') + block.signature,
        }),
      ];
      yield this.chunk({ metadata: { thinking: this.thinking } });
    } else if (start.type !== 'text') {
      const finished: AnthropicWireBlock = { ...start };
      if (block.json !== '' || 'input' in start)
        finished.input = parsedInput(block.json, start.input);
      this.serverToolBlocks = [...this.serverToolBlocks, finished];
      yield this.chunk({ metadata: { serverToolBlocks: this.serverToolBlocks } });
    }
  }

  /**
   * A chunk with tool-call pieces (and the complete call, when it ends): the pieces are set on
   * the generation afterwards, so `chunk`, which every text delta goes through, stays as it was.
   */
  private callChunk(toolCallDeltas: ToolCallDelta[] | undefined, toolCalls?: ToolCall[]) {
    const chunk = this.chunk(toolCalls === undefined ? {} : { toolCalls });
    if (toolCallDeltas !== undefined)
      (chunk.results[0] as Generation).toolCallDeltas = toolCallDeltas;
    return chunk;
  }

  private chunk(parts: {
    text?: string;
    toolCalls?: ToolCall[];
    metadata?: Metadata;
    finishReason?: FinishReason | null;
    usage?: boolean;
  }): ChatResponse {
    const usage = parts.usage
      ? mapAnthropicUsage({ ...this.inputUsage, output_tokens: this.outputTokens })
      : undefined;
    return {
      results: [
        {
          output: {
            role: 'assistant',
            text: parts.text ?? null,
            toolCalls: parts.toolCalls ?? [],
            ...(parts.metadata ? { metadata: parts.metadata } : {}),
          },
          metadata: { finishReason: parts.finishReason ?? null },
        },
      ],
      metadata: messageMetadata(this.started ? this.message : {}, usage),
    };
  }
}

/**
 * The arguments text of a finished `tool_use` block: the streamed JSON re-serialised the way the
 * non-streamed API's `input` object serialises, `{}` for an empty input.
 */
function inputText(json: string, startInput: unknown): string {
  if (json.trim() === '') return JSON.stringify(startInput ?? {});
  try {
    return JSON.stringify(JSON.parse(json));
  } catch {
    return json;
  }
}

function parsedInput(json: string, startInput: unknown): unknown {
  if (json.trim() === '') return startInput ?? {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}
