import { type ChatClientRequest, CONVERSATION_ID } from '../advisors/index.js';
import { ToolloopError } from '../errors/index.js';
import type { ToolCall } from '../messages/index.js';
import type { ChatResponse, Generation } from '../model/index.js';
import type { TurnEventEmitter } from '../observability/turn-event-emitter.js';
import { errorTypeName } from './tool-execution-exception-processor.js';
import type { ToolLoopState } from './tool-loop-state.js';

// The events the loop core produces. Each function is called only when the turn has an emitter,
// so a turn nobody listens to builds none of these objects.

/** `turn-start`, once the loop is initialized. */
export function emitTurnStart(state: ToolLoopState, initialized: ChatClientRequest): void {
  const events = state.events as TurnEventEmitter;
  const conversationId = initialized.context[CONVERSATION_ID];
  events.emit({
    type: 'turn-start',
    turnId: events.turnId,
    timestamp: Date.now(),
    mode: state.mode,
    ...(conversationId === undefined || conversationId === null
      ? {}
      : { conversationId: String(conversationId) }),
  });
}

/**
 * `iteration-cap` before the tools-off call, then `model-call-start`. Returns the start time for
 * the call's duration.
 */
export function emitModelCallStart(state: ToolLoopState, request: ChatClientRequest): number {
  const events = state.events as TurnEventEmitter;
  const timestamp = Date.now();
  if (state.finalAnswer) {
    events.emit({
      type: 'iteration-cap',
      turnId: events.turnId,
      timestamp,
      iteration: state.iteration,
      maxIterations: state.maxIterations,
    });
  }
  const options = request.prompt.options;
  const model = typeof options.model === 'string' ? options.model : undefined;
  events.emit({
    type: 'model-call-start',
    turnId: events.turnId,
    timestamp,
    iteration: state.iteration,
    ...(model === undefined ? {} : { model }),
    toolNames: (options.toolCallbacks ?? []).map((callback) => callback.definition.name),
  });
  return performance.now();
}

/**
 * `model-call-end`, with the response's model, usage and finish reason, or the error; `replayed`
 * when a durable turn's checkpoint answered instead of the model.
 */
export function emitModelCallEnd(
  state: ToolLoopState,
  started: number,
  response: ChatResponse | null | undefined,
  failure?: { readonly error: unknown },
  replayed = false,
): void {
  const events = state.events as TurnEventEmitter;
  const requested = state.options.model;
  const model = response?.metadata.model ?? (typeof requested === 'string' ? requested : undefined);
  const usage = response?.metadata.usage;
  events.emit({
    type: 'model-call-end',
    turnId: events.turnId,
    timestamp: Date.now(),
    iteration: state.iteration,
    ...(model === undefined ? {} : { model }),
    ...(usage === undefined ? {} : { usage }),
    ...(response == null ? {} : { finishReason: finishReasonOf(response) }),
    durationMs: performance.now() - started,
    ...(failure === undefined ? {} : { error: describeError(failure.error) }),
    ...(replayed ? { replayed: true } : {}),
  });
}

/** One `tool-call` event per tool call of the response the loop is about to execute. */
export function emitToolCalls(state: ToolLoopState, response: ChatResponse): void {
  const events = state.events as TurnEventEmitter;
  const generation = firstGenerationWithToolCalls(response);
  if (generation === undefined) return;
  for (const toolCall of generation.output.toolCalls) {
    events.emit({
      type: 'tool-call',
      turnId: events.turnId,
      timestamp: Date.now(),
      iteration: state.iteration,
      toolCall,
    });
  }
}

/** `step-finish`: the model call of this round and its tool round (when it had one) are done. */
export function emitStepFinish(
  state: ToolLoopState,
  response: ChatResponse | null,
  executedTools: boolean,
): void {
  const events = state.events as TurnEventEmitter;
  const usage = response?.metadata.usage;
  const toolCalls = executedTools
    ? (firstGenerationWithToolCalls(response)?.output.toolCalls ?? [])
    : [];
  events.emit({
    type: 'step-finish',
    turnId: events.turnId,
    timestamp: Date.now(),
    iteration: state.iteration,
    finishReason: response === null ? null : finishReasonOf(response),
    ...(usage === undefined ? {} : { usage }),
    toolCalls,
  });
}

/** `approval-pending`: the turn pauses; these calls wait for a human decision. */
export function emitApprovalPending(state: ToolLoopState, toolCalls: readonly ToolCall[]): void {
  const events = state.events as TurnEventEmitter;
  events.emit({
    type: 'approval-pending',
    turnId: events.turnId,
    timestamp: Date.now(),
    iteration: state.iteration,
    toolCalls,
  });
}

/** `turn-finish`, with the turn's summed usage and the final answer. */
export function emitTurnEnd(state: ToolLoopState, response: ChatResponse | null): void {
  const events = state.events as TurnEventEmitter;
  const usage = state.usage.total;
  events.emit({
    type: 'turn-finish',
    turnId: events.turnId,
    timestamp: Date.now(),
    durationMs: performance.now() - state.startedAt,
    ...(usage === undefined ? {} : { usage }),
    finishReason: response === null ? null : finishReasonOf(response),
    text: response?.results[0]?.output.text ?? null,
  });
}

/** `turn-error`: the turn failed, was aborted, or its caller stopped reading. */
export function emitTurnError(events: TurnEventEmitter, startedAt: number, error: unknown): void {
  events.emit({
    type: 'turn-error',
    turnId: events.turnId,
    timestamp: Date.now(),
    durationMs: performance.now() - startedAt,
    error: describeError(error),
  });
}

/** An error as events carry it: class name, toolloop code, message. */
export function describeError(error: unknown): {
  readonly type: string;
  readonly code?: string;
  readonly message: string;
} {
  const message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : String(error);
  return ToolloopError.isInstance(error)
    ? { type: errorTypeName(error), code: error.code, message }
    : { type: errorTypeName(error), message };
}

function finishReasonOf(response: ChatResponse): string | null {
  return response.results[0]?.metadata.finishReason ?? null;
}

function firstGenerationWithToolCalls(response: ChatResponse | null): Generation | undefined {
  if (response === null) return undefined;
  for (const generation of response.results) {
    if (generation.output.toolCalls.length > 0) return generation;
  }
  return undefined;
}
