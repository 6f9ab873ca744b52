import {
  summarizeToolResultParts,
  type ToolCall,
  type ToolResponse,
  type ToolResultPart,
} from '../messages/index.js';
import type { ToolResultOutcome } from '../observability/turn-event.js';
import type { TurnEventEmitter } from '../observability/turn-event-emitter.js';
import type { ToolCallLimitBreach } from './tool-call-limits.js';

// The events of one tool batch, produced by the manager. Called only when the batch has an
// emitter, so a batch nobody listens to builds none of these objects.

/** One `limit-exceeded` per limit reached in the batch (a limit breached by several calls once). */
export function emitLimitsExceeded(
  events: TurnEventEmitter,
  iteration: number,
  breaches: readonly (ToolCallLimitBreach | undefined)[],
): void {
  const seen = new Set<string>();
  for (const breach of breaches) {
    if (breach === undefined) continue;
    const key = `${breach.scope}:${breach.toolName ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    events.emit({
      type: 'limit-exceeded',
      turnId: events.turnId,
      timestamp: Date.now(),
      iteration,
      ...(breach.toolName === null ? {} : { toolName: breach.toolName }),
      limit: breach.limit,
      scope: breach.scope,
    });
  }
}

/**
 * A `tool-result` for every call answered before the batch ran: outcome `'denied'` for a call a
 * human denied (its id is in `denied`), `'not-executed'` for the others.
 */
export function emitNotExecuted(
  events: TurnEventEmitter,
  iteration: number,
  calls: readonly ToolCall[],
  responses: readonly (ToolResponse | undefined)[],
  denied?: ReadonlyMap<string, unknown>,
): void {
  for (let index = 0; index < calls.length; index++) {
    const response = responses[index];
    if (response === undefined) continue;
    const call = calls[index] as ToolCall;
    const outcome = denied?.has(call.id) === true ? 'denied' : 'not-executed';
    emitToolResult(events, iteration, call, outcome, response, 0);
  }
}

/** `tool-execution-start`: an executed call begins. */
export function emitToolExecutionStart(
  events: TurnEventEmitter,
  iteration: number,
  call: ToolCall,
): void {
  events.emit({
    type: 'tool-execution-start',
    turnId: events.turnId,
    timestamp: Date.now(),
    iteration,
    toolCallId: call.id,
    toolName: call.name,
  });
}

/** `tool-result`: what the model receives for one call, and how the call ended. */
export function emitToolResult(
  events: TurnEventEmitter,
  iteration: number,
  call: ToolCall,
  outcome: ToolResultOutcome,
  response: {
    readonly responseData: string;
    readonly isError?: boolean;
    readonly content?: readonly ToolResultPart[];
  },
  durationMs: number,
  errorType?: string,
  replayed = false,
): void {
  events.emit({
    type: 'tool-result',
    turnId: events.turnId,
    timestamp: Date.now(),
    iteration,
    toolCallId: call.id,
    toolName: call.name,
    outcome,
    result: response.responseData,
    isError: response.isError === true,
    durationMs,
    ...(errorType === undefined ? {} : { errorType }),
    ...(response.content === undefined
      ? {}
      : { parts: summarizeToolResultParts(response.content), content: response.content }),
    ...(replayed ? { replayed: true } : {}),
  });
}

/** `tool-progress`: a value an async-generator tool yielded. */
export function emitToolProgress(
  events: TurnEventEmitter,
  iteration: number,
  call: ToolCall,
  value: unknown,
): void {
  events.emit({
    type: 'tool-progress',
    turnId: events.turnId,
    timestamp: Date.now(),
    iteration,
    toolCallId: call.id,
    toolName: call.name,
    value,
  });
}
