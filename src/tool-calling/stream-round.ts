import type { ChatClientResponse } from '../advisors/index.js';
import { throwIfAborted } from '../errors/index.js';
import { type StreamStopFlag, stopFlagOf } from '../internal/stream-stop-flags.js';
import {
  addUsage,
  type ChatResponse,
  ChatResponseAggregator,
  isUsageEmpty,
  type ToolCallDelta,
  type Usage,
} from '../model/index.js';
import type { TurnEventEmitter } from '../observability/turn-event-emitter.js';
import type { ToolLoopHooks } from './tool-loop-hooks.js';
import { finalAnswerResponse, textOnly, withChatResponse } from './tool-loop-responses.js';
import type { ToolLoopState } from './tool-loop-state.js';

/**
 * One round of the stream loop seen chunk by chunk: decides what the caller sees of each chunk
 * ({@link accept}) and collects the round's aggregate for the loop core ({@link result}).
 *
 * The caller sees every chunk without tool calls as it arrives (so text of a tool-call round, such
 * as "Let me check…", is not held back); a chunk with tool calls is withheld except for its text,
 * which is passed on alone; in the tools-off round after the iteration cap tool calls are dropped
 * and the finish reason marked. A chunk that carries usage gets the earlier rounds' usage added.
 * With listeners, the first generation's text and tool-call deltas become `text-delta` and
 * `tool-call-delta` events as the chunk arrives.
 */
export class StreamRound {
  readonly #state: ToolLoopState;
  readonly #hooks: ToolLoopHooks;
  /** The signal read on every chunk; `undefined` when there is none or it has a stop flag. */
  readonly #signal: AbortSignal | undefined;
  /** Read instead of the signal when only the stream's `return()` aborts it (stream-stop-flags.ts). */
  readonly #stopFlag: StreamStopFlag | undefined;
  readonly #aggregator = new ChatResponseAggregator();
  /** The turn's usage before this round; `undefined` when it is empty (nothing to add). */
  readonly #previousUsage: Usage | undefined;
  #context: Record<string, unknown>;
  /** The round's usage is the last non-empty one: a trailing zero-usage chunk must not hide it. */
  #roundUsage: Usage | undefined;

  constructor(hooks: ToolLoopHooks, state: ToolLoopState, context: Record<string, unknown>) {
    this.#hooks = hooks;
    this.#state = state;
    this.#stopFlag = stopFlagOf(state.signal);
    this.#signal = this.#stopFlag === undefined ? state.signal : undefined;
    const previousUsage = state.usage.total;
    this.#previousUsage = isUsageEmpty(previousUsage) ? undefined : previousUsage;
    this.#context = context;
  }

  /** What the caller sees of one chunk; `undefined` withholds it. Throws once the caller aborted. */
  accept(chunk: ChatClientResponse): ChatClientResponse | undefined {
    // Every chunk of every stream passes here: the usual text delta (no tool calls, no usage, no
    // listener) is handed on as it is, after as few reads as its checks need.
    if (this.#stopFlag?.stopped || this.#signal?.aborted) throwIfAborted(this.#state.signal);
    this.#context = chunk.context;
    const response = chunk.chatResponse;
    if (response === null) return chunk;
    this.#aggregator.add(response);
    const usage = response.metadata.usage;
    const carriesUsage = usage !== undefined && !isUsageEmpty(usage);
    if (carriesUsage) this.#roundUsage = usage;
    const state = this.#state;
    if (state.events !== undefined) emitDeltas(state.events, state, response);
    if (!state.finalAnswer && !this.#hooks.isToolCallResponse(response)) {
      return carriesUsage && this.#previousUsage !== undefined
        ? withChatResponse(chunk, this.#withPreviousUsage(response))
        : chunk;
    }
    const outgoing = state.finalAnswer
      ? (finalAnswerResponse(response, false) ?? undefined)
      : textOnly(response);
    if (outgoing === undefined) return undefined;
    return withChatResponse(chunk, this.#withPreviousUsage(outgoing));
  }

  /** The round's aggregate for the loop core; `chatResponse: null` when no response streamed. */
  result(): ChatClientResponse {
    if (this.#aggregator.size === 0) return { chatResponse: null, context: this.#context };
    const aggregate = this.#aggregator.result();
    if (this.#roundUsage !== undefined) aggregate.metadata.usage = this.#roundUsage;
    return { chatResponse: aggregate, context: this.#context };
  }

  /** The outgoing chunk with the earlier rounds' usage added to the usage it carries. */
  #withPreviousUsage(outgoing: ChatResponse): ChatResponse {
    const previousUsage = this.#previousUsage;
    const usage = outgoing.metadata.usage;
    if (previousUsage === undefined || isUsageEmpty(usage)) return outgoing;
    return {
      ...outgoing,
      metadata: { ...outgoing.metadata, usage: addUsage(previousUsage, usage) },
    };
  }
}

/**
 * The first generation's `text-delta` and `tool-call-delta` events of one chunk. Tool-call deltas
 * of the tools-off round after the iteration cap are not reported: its tool calls are dropped.
 */
function emitDeltas(events: TurnEventEmitter, state: ToolLoopState, chunk: ChatResponse): void {
  const generation = chunk.results[0];
  if (generation === undefined) return;
  const text = generation.output.text;
  if (text) {
    events.emit({
      type: 'text-delta',
      turnId: events.turnId,
      timestamp: Date.now(),
      iteration: state.iteration,
      text,
    });
  }
  const deltas = generation.toolCallDeltas;
  if (deltas !== undefined && !state.finalAnswer) emitToolCallDeltas(events, state, deltas);
}

function emitToolCallDeltas(
  events: TurnEventEmitter,
  state: ToolLoopState,
  deltas: readonly ToolCallDelta[],
): void {
  for (const delta of deltas) {
    events.emit({
      type: 'tool-call-delta',
      turnId: events.turnId,
      timestamp: Date.now(),
      iteration: state.iteration,
      toolCallId: delta.id,
      ...(delta.name === undefined ? {} : { toolName: delta.name }),
      argumentsDelta: delta.arguments,
    });
  }
}
