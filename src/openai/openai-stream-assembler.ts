import { unusedToolCallId } from '../internal/fallback-tool-call-id.js';
import { textArguments } from '../internal/non-text-arguments.js';
import { parseEventJson } from '../internal/parse-event-json.js';
import { ProviderErrors } from '../internal/provider-errors.js';
import type { StreamConverter } from '../internal/provider-transport.js';
import type { ServerSentEvent } from '../internal/server-sent-events.js';
import { WireReader } from '../internal/wire-reader.js';
import type { AssistantMessage, Metadata, ToolCall } from '../messages/index.js';
import {
  type ChatResponse,
  FinishReason,
  type Generation,
  type ToolCallDelta,
} from '../model/index.js';
import {
  MAX_OPENAI_CHOICES,
  mapOpenAiFinishReason,
  openAiReportedError,
  readOpenAiMessage,
  readOpenAiToolCall,
  responseMetadata,
} from './from-openai-response.js';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
  /** The first arguments value that was not text, kept so the call is refused, not guessed. */
  nonTextArguments?: unknown;
  /** Counts the choice's calls from 0 in first-seen order: the `index` of its deltas. */
  ordinal: number;
  /** The id its deltas carry once the call was announced; the complete call gets the same. */
  announcedId?: string;
}

interface ChoiceState {
  calls: Map<string, PendingCall>;
  /** The ids its calls were given: a repeated one is replaced (see `unusedToolCallId`). */
  usedIds: Set<string>;
  /** Calls seen so far in this choice (their ordinals). */
  callCount: number;
  lastKey: string | undefined;
  reasoning: string;
  refusal: string;
  finished: boolean;
}

/**
 * Assembles a Chat Completions event stream into `ChatResponse` chunks: each text delta becomes a
 * chunk with `output.text`; tool-call argument deltas are collected per call and the whole calls
 * are emitted in the chunk that carries the choice's `finish_reason`; usage comes in the chunk
 * where the server sends it. As the arguments stream, each piece also goes out at once as a
 * display-only `toolCallDeltas` entry of its choice's generation: the call's first delta once its
 * name is known, then each piece of argument text, all with the id the complete call will carry
 * (the provider's, or a fresh one when it sent none or an earlier call of the choice has it) and the call's first-seen position as
 * `index` (provider indexes are only used to tell calls apart). Quirks of compatible servers are absorbed: empty continuation ids
 * (`"id": ""`), a first call index of 1, a missing `index`, the name or id repeated on later
 * deltas, `reasoning_content` deltas, content sent as parts, and usage in `x_groq`.
 *
 * A choice that has not finished when `[DONE]` arrives was cut off: its calls are emitted marked
 * `metadata.truncated = true`, so the loop never executes them. Arguments sent as a JSON value that
 * is not text become its JSON text, marked `metadata.nonTextArguments = true` (the loop refuses
 * the call). Choice indexes from 0 to 127 are
 * accepted (state is kept per index, and a chunk carries generations only up to its highest
 * index); a larger one, an `error` event, an event of another shape than the API's, or a stream
 * that stops before the response finished ends with a {@link ChatModelError} built by `errors`.
 */
export class OpenAiStreamAssembler implements StreamConverter<ChatResponse> {
  private readonly choices = new Map<number, ChoiceState>();
  private readonly errors: ProviderErrors;
  private readonly read: WireReader;
  private done = false;
  private sawFinish = false;
  private syntheticKeys = 0;

  constructor(errors: ProviderErrors = new ProviderErrors('openai')) {
    this.errors = errors;
    this.read = new WireReader(errors);
  }

  /** Feeds one server-sent event. */
  *event(event: ServerSentEvent): Iterable<ChatResponse> {
    if (this.done) return;
    const data = event.data.trim();
    if (data === '') return;
    if (data === '[DONE]') {
      this.done = true;
      yield* this.flushUnfinished();
      return;
    }
    const parsed = parseEventJson(data, this.errors);
    const chunk = this.read.object(parsed, 'a stream event');
    if (chunk.error !== undefined && chunk.error !== null) {
      throw openAiReportedError(chunk.error, this.errors, 'stream');
    }
    const results: Generation[] = [];
    let meaningful = false;
    const choices = this.read.optionalArray(chunk.choices, 'choices') ?? [];
    choices.forEach((value, position) => {
      const where = `choices[${position}]`;
      const choice = this.read.object(value, where);
      const index =
        this.read.optionalIndex(choice.index, `${where}.index`, MAX_OPENAI_CHOICES) ?? 0;
      const state = this.choiceState(index);
      const delta = readOpenAiMessage(this.read, choice.delta ?? choice.message, `${where}.delta`);
      const finishReason = this.read.optionalString(choice.finish_reason, `${where}.finish_reason`);
      const generation = results[index] ?? emptyGeneration();
      results[index] = generation;
      if (delta.text !== '') {
        generation.output.text = (generation.output.text ?? '') + delta.text;
        meaningful = true;
      }
      state.reasoning += delta.reasoning;
      state.refusal += delta.refusal;
      // A loop, not a callback: a closure here would move `generation` into a context object
      // that every chunk, text-only ones included, would allocate.
      const toolCalls = delta.toolCalls;
      for (let callPosition = 0; callPosition < toolCalls.length; callPosition++) {
        const streamed = this.addToolCallDelta(
          state,
          toolCalls[callPosition],
          `${where}.delta.tool_calls[${callPosition}]`,
        );
        if (streamed === undefined) continue;
        if (generation.toolCallDeltas === undefined) generation.toolCallDeltas = [streamed];
        else generation.toolCallDeltas.push(streamed);
        meaningful = true;
      }
      if (finishReason && !state.finished) {
        this.sawFinish = true;
        this.finishChoice(state, generation, mapOpenAiFinishReason(finishReason), false);
        meaningful = true;
      }
    });
    const metadata = responseMetadata(chunk);
    if (metadata.usage) meaningful = true;
    if (!meaningful) return;
    for (let index = 0; index < results.length; index++) {
      results[index] ??= emptyGeneration();
    }
    yield { results, metadata };
  }

  /** Called when the byte stream ended. */
  end(): Iterable<ChatResponse> {
    if (this.done) return [];
    const unfinished = [...this.choices.values()].some((state) => !state.finished);
    if (!this.sawFinish || unfinished) {
      throw this.errors.create({
        message: 'openai stream ended before the response finished',
        retryable: true,
      });
    }
    return [];
  }

  /** Only an event with no data at all keeps the connection open without being progress. */
  isKeepAlive(event: ServerSentEvent): boolean {
    return event.data.trim() === '';
  }

  /** True once `[DONE]` arrived. */
  isComplete(): boolean {
    return this.done;
  }

  private *flushUnfinished(): Iterable<ChatResponse> {
    const results: Generation[] = [];
    let any = false;
    for (const [index, state] of this.choices) {
      const generation = emptyGeneration();
      if (!state.finished) {
        this.finishChoice(state, generation, null, true);
        any = true;
      }
      results[index] = generation;
    }
    if (!any) return;
    for (let index = 0; index < results.length; index++) results[index] ??= emptyGeneration();
    yield { results, metadata: {} };
  }

  private choiceState(index: number): ChoiceState {
    let state = this.choices.get(index);
    if (!state) {
      state = {
        calls: new Map(),
        usedIds: new Set(),
        callCount: 0,
        lastKey: undefined,
        reasoning: '',
        refusal: '',
        finished: false,
      };
      this.choices.set(index, state);
    }
    return state;
  }

  /**
   * Adds one wire delta to its pending call; returns what a UI may see of it: the call's first
   * delta once its name is known (with the argument text so far), then each further piece of
   * argument text. Nothing for a choice that already finished (its calls were emitted; a late
   * delta never becomes a call) or for arguments that are not text.
   */
  private addToolCallDelta(
    state: ChoiceState,
    value: unknown,
    where: string,
  ): ToolCallDelta | undefined {
    const delta = readOpenAiToolCall(this.read, value, where);
    if (state.finished) return undefined;
    const id = delta.id;
    let key: string | undefined;
    if (delta.index !== undefined) {
      key = String(delta.index);
      const existing = state.calls.get(key);
      // The same index reused with a different id is a new call, not a continuation.
      if (existing && id !== '' && existing.id !== '' && existing.id !== id) {
        key = `${key}#${++this.syntheticKeys}`;
      }
    } else if (id !== '') {
      key = [...state.calls.entries()].find(([, call]) => call.id === id)?.[0];
      key ??= `id:${id}`;
    } else {
      key = state.lastKey ?? '0';
    }
    let call = state.calls.get(key);
    if (!call) {
      call = { id: '', name: '', arguments: '', ordinal: state.callCount++ };
      state.calls.set(key, call);
    }
    state.lastKey = key;
    if (id !== '' && call.id === '') call.id = id;
    if (delta.name && call.name === '') call.name = delta.name;
    const args: unknown = delta.arguments;
    if (typeof args === 'string') call.arguments += args;
    else if (args !== undefined && !('nonTextArguments' in call)) call.nonTextArguments = args;
    if ('nonTextArguments' in call) return undefined;
    if (call.announcedId !== undefined) {
      return typeof args === 'string' && args !== ''
        ? { id: call.announcedId, index: call.ordinal, arguments: args }
        : undefined;
    }
    if (call.name === '') return undefined;
    // An id that arrives after the call was announced is not adopted: the deltas already named
    // this one, and the complete call must carry the id its deltas carried.
    call.announcedId = unusedToolCallId(call.id, state.usedIds, 'call');
    return {
      id: call.announcedId,
      index: call.ordinal,
      name: call.name,
      arguments: call.arguments,
    };
  }

  /**
   * Emits the choice's calls into `generation`: marked truncated when the output limit cut them
   * off, or when the stream ended (`cutOff`) before the choice had a finish reason.
   */
  private finishChoice(
    state: ChoiceState,
    generation: Generation,
    finishReason: FinishReason | null,
    cutOff: boolean,
  ) {
    state.finished = true;
    const truncated = cutOff || finishReason === FinishReason.LENGTH;
    for (const call of state.calls.values()) {
      const toolCall: ToolCall = {
        id: call.announcedId ?? unusedToolCallId(call.id, state.usedIds, 'call'),
        name: call.name,
        ...textArguments('nonTextArguments' in call ? call.nonTextArguments : call.arguments),
      };
      if (truncated) toolCall.metadata = { ...toolCall.metadata, truncated: true };
      generation.output.toolCalls.push(toolCall);
    }
    state.calls.clear();
    const metadata: Metadata = {};
    if (state.reasoning) metadata.reasoningContent = state.reasoning;
    if (state.refusal) metadata.refusal = state.refusal;
    if (Object.keys(metadata).length > 0) generation.output.metadata = metadata;
    generation.metadata.finishReason = finishReason;
  }
}

function emptyGeneration(): Generation {
  const output: AssistantMessage = { role: 'assistant', text: null, toolCalls: [] };
  return { output, metadata: { finishReason: null } };
}
