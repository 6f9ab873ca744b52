import { ChatModelError } from '../errors/index.js';
import type { StreamConverter } from '../internal/provider-transport.js';
import type { ServerSentEvent } from '../internal/server-sent-events.js';
import type { AssistantMessage, Metadata, ToolCall } from '../messages/index.js';
import { type ChatResponse, FinishReason, type Generation } from '../model/index.js';
import {
  fallbackToolCallId,
  mapOpenAiFinishReason,
  openAiStreamError,
  responseMetadata,
} from './from-openai-response.js';
import type { OpenAiWireResponse, OpenAiWireToolCall } from './openai-wire.js';

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

interface ChoiceState {
  calls: Map<string, PendingCall>;
  lastKey: string | undefined;
  reasoning: string;
  refusal: string;
  finished: boolean;
}

/**
 * Assembles a Chat Completions event stream into `ChatResponse` chunks: each text delta becomes a
 * chunk with `output.text`; tool-call argument deltas are collected per call and the whole calls
 * are emitted in the chunk that carries the choice's `finish_reason`; usage comes in the chunk
 * where the server sends it. Quirks of compatible servers are absorbed: empty continuation ids
 * (`"id": ""`), a first call index of 1, a missing `index`, the name or id repeated on later
 * deltas, `reasoning_content` deltas, and usage in `x_groq`. An `error` event, a non-JSON event
 * or a stream that stops before the response finished ends with a {@link ChatModelError}.
 */
export class OpenAiStreamAssembler implements StreamConverter<ChatResponse> {
  private readonly choices = new Map<number, ChoiceState>();
  private done = false;
  private sawFinish = false;
  private responseId: string | undefined;
  private syntheticKeys = 0;

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
    let chunk: OpenAiWireResponse;
    try {
      chunk = JSON.parse(data) as OpenAiWireResponse;
    } catch {
      throw new ChatModelError({
        provider: 'openai',
        message: 'openai stream carried an event that is not JSON',
        retryable: false,
      });
    }
    if (typeof chunk !== 'object' || chunk === null) return;
    if (chunk.error !== undefined && chunk.error !== null) throw openAiStreamError(chunk.error);
    if (typeof chunk.id === 'string' && chunk.id !== '') this.responseId ??= chunk.id;
    const results: Generation[] = [];
    let meaningful = false;
    for (const choice of chunk.choices ?? []) {
      const index = choice.index ?? 0;
      const state = this.choiceState(index);
      const delta = choice.delta ?? choice.message ?? {};
      const generation = emptyGeneration();
      if (typeof delta.content === 'string' && delta.content !== '') {
        generation.output.text = delta.content;
        meaningful = true;
      }
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === 'string') state.reasoning += reasoning;
      if (typeof delta.refusal === 'string') state.refusal += delta.refusal;
      for (const call of delta.tool_calls ?? []) this.addToolCallDelta(state, call);
      if (choice.finish_reason && !state.finished) {
        this.sawFinish = true;
        this.finishChoice(state, generation, mapOpenAiFinishReason(choice.finish_reason));
        meaningful = true;
      }
      results[index] = generation;
    }
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
      throw new ChatModelError({
        provider: 'openai',
        message: 'openai stream ended before the response finished',
        retryable: true,
      });
    }
    return [];
  }

  private *flushUnfinished(): Iterable<ChatResponse> {
    const results: Generation[] = [];
    let any = false;
    for (const [index, state] of this.choices) {
      const generation = emptyGeneration();
      if (!state.finished) {
        this.finishChoice(state, generation, null);
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
      state = { calls: new Map(), lastKey: undefined, reasoning: '', refusal: '', finished: false };
      this.choices.set(index, state);
    }
    return state;
  }

  private addToolCallDelta(state: ChoiceState, delta: OpenAiWireToolCall): void {
    const id = typeof delta.id === 'string' ? delta.id : '';
    let key: string | undefined;
    if (typeof delta.index === 'number') {
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
      call = { id: '', name: '', arguments: '' };
      state.calls.set(key, call);
    }
    state.lastKey = key;
    if (id !== '' && call.id === '') call.id = id;
    const name = delta.function?.name;
    if (typeof name === 'string' && name !== '' && call.name === '') call.name = name;
    const args = delta.function?.arguments;
    if (typeof args === 'string') call.arguments += args;
  }

  private finishChoice(state: ChoiceState, generation: Generation, finishReason: string | null) {
    state.finished = true;
    const truncated = finishReason === FinishReason.LENGTH;
    let position = 0;
    for (const call of state.calls.values()) {
      const toolCall: ToolCall = {
        id: call.id || fallbackToolCallId(this.responseId, position),
        name: call.name,
        arguments: call.arguments,
      };
      if (truncated) toolCall.metadata = { truncated: true };
      generation.output.toolCalls.push(toolCall);
      position++;
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
