import { ChatModelError } from '../errors/index.js';
import type { StreamConverter } from '../internal/provider-transport.js';
import type { ServerSentEvent } from '../internal/server-sent-events.js';
import type { Metadata, ToolCall } from '../messages/index.js';
import { type ChatResponse, FinishReason } from '../model/index.js';
import type {
  AnthropicWireBlock,
  AnthropicWireMessage,
  AnthropicWireUsage,
} from './anthropic-wire.js';
import {
  anthropicStreamError,
  mapAnthropicStopReason,
  mapAnthropicUsage,
  messageMetadata,
  thinkingBlock,
} from './from-anthropic-response.js';

interface OpenBlock {
  start: AnthropicWireBlock;
  json: string;
  thinking: string;
  signature: string;
}

/**
 * Assembles a Messages API event stream into `ChatResponse` chunks: `text_delta`s become chunks
 * with `output.text`; a `tool_use` block's `input_json_delta`s are collected and the whole call
 * is emitted at its `content_block_stop` (empty input becomes `{}`, and the JSON text is written
 * as `JSON.stringify` writes the non-streamed input, so call and stream agree); thinking blocks
 * (with signatures) and server-run blocks go to the assistant metadata; the stop reason and
 * usage come with `message_delta`. A block still open when the output limit stops the message
 * is emitted marked `metadata.truncated = true`. A second `message_start` before the first
 * message ended starts over: the unfinished blocks of the abandoned message are dropped. `ping`
 * events and the event names are ignored (events are dispatched on their `type`); an `error`
 * event or a stream cut before the message ended throws a {@link ChatModelError}.
 */
export class AnthropicStreamAssembler implements StreamConverter<ChatResponse> {
  private message: AnthropicWireMessage = {};
  private inputUsage: AnthropicWireUsage = {};
  private outputTokens = 0;
  private readonly blocks = new Map<number, OpenBlock>();
  private thinking: AnthropicWireBlock[] = [];
  private serverToolBlocks: AnthropicWireBlock[] = [];
  private started = false;
  private stopped = false;
  private finished = false;

  /** Feeds one server-sent event. */
  *event(event: ServerSentEvent): Iterable<ChatResponse> {
    const data = event.data.trim();
    if (data === '' || data === '[DONE]') return;
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(data) as Record<string, unknown>;
    } catch {
      throw new ChatModelError({
        provider: 'anthropic',
        message: 'anthropic stream carried an event that is not JSON',
        retryable: false,
      });
    }
    if (typeof payload !== 'object' || payload === null) return;
    switch (payload.type) {
      case 'message_start':
        this.startMessage((payload.message ?? {}) as AnthropicWireMessage);
        return;
      case 'content_block_start': {
        const block = (payload.content_block ?? { type: 'unknown' }) as AnthropicWireBlock;
        this.blocks.set(Number(payload.index), {
          start: block,
          json: '',
          thinking: '',
          signature: '',
        });
        if (block.type === 'text' && block.text) yield this.chunk({ text: block.text });
        return;
      }
      case 'content_block_delta': {
        const block = this.blocks.get(Number(payload.index));
        const delta = (payload.delta ?? {}) as Record<string, unknown>;
        if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') {
          yield this.chunk({ text: delta.text });
        } else if (!block) {
          return;
        } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          block.json += delta.partial_json;
        } else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') {
          block.thinking += delta.thinking;
        } else if (delta.type === 'signature_delta' && typeof delta.signature === 'string') {
          block.signature += delta.signature;
        }
        return;
      }
      case 'content_block_stop': {
        const index = Number(payload.index);
        const block = this.blocks.get(index);
        if (!block) return;
        this.blocks.delete(index);
        yield* this.closeBlock(block, false);
        return;
      }
      case 'message_delta': {
        const delta = (payload.delta ?? {}) as Record<string, unknown>;
        const usage = (payload.usage ?? {}) as AnthropicWireUsage;
        if (typeof usage.output_tokens === 'number') this.outputTokens = usage.output_tokens;
        for (const key of [
          'input_tokens',
          'cache_read_input_tokens',
          'cache_creation_input_tokens',
        ]) {
          if (typeof usage[key] === 'number') this.inputUsage[key] = usage[key];
        }
        const finishReason = mapAnthropicStopReason(delta.stop_reason as string | null | undefined);
        if (finishReason === FinishReason.LENGTH) yield* this.closeOpenBlocks();
        if (finishReason !== null) this.finished = true;
        yield this.chunk({ finishReason, usage: true });
        return;
      }
      case 'message_stop':
        yield* this.closeOpenBlocks();
        this.stopped = true;
        return;
      case 'error':
        throw anthropicStreamError(payload.error);
      default:
        return;
    }
  }

  /** Called when the byte stream ended. */
  end(): Iterable<ChatResponse> {
    if (this.stopped || (this.finished && this.blocks.size === 0)) return [];
    throw new ChatModelError({
      provider: 'anthropic',
      message: 'anthropic stream ended before the message finished',
      retryable: true,
    });
  }

  private startMessage(message: AnthropicWireMessage): void {
    this.message = message;
    this.inputUsage = { ...(message.usage ?? {}) };
    this.outputTokens =
      typeof message.usage?.output_tokens === 'number' ? message.usage.output_tokens : 0;
    // A message_start inside an unfinished message: the abandoned message's open blocks never
    // ended, so they are dropped rather than emitted half-done, and its thinking (whose signature
    // belongs to that message) is not sent back.
    this.blocks.clear();
    this.thinking = [];
    this.serverToolBlocks = [];
    this.started = true;
    this.stopped = false;
    this.finished = false;
  }

  private *closeOpenBlocks(): Iterable<ChatResponse> {
    const open = [...this.blocks.entries()].sort(([a], [b]) => a - b);
    this.blocks.clear();
    for (const [, block] of open) yield* this.closeBlock(block, true);
  }

  private *closeBlock(block: OpenBlock, truncated: boolean): Iterable<ChatResponse> {
    const { start } = block;
    if (start.type === 'tool_use') {
      const call: ToolCall = {
        id: start.id ?? '',
        name: start.name ?? '',
        arguments: truncated ? block.json : inputText(block.json, start.input),
      };
      if (truncated) call.metadata = { truncated: true };
      yield this.chunk({ toolCalls: [call] });
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

  private chunk(parts: {
    text?: string;
    toolCalls?: ToolCall[];
    metadata?: Metadata;
    finishReason?: string | null;
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
