import type { ToolResultPartSummary } from '../messages/index.js';
import type { ToolDefinition } from '../tools/tool-callback.js';

/**
 * How an executed tool call ended:
 * - `'success'`: the tool returned;
 * - `'tool-error'`: the tool threw and the exception processor turned the error into text;
 * - `'invalid-input'`: the tool rejected its input with an `InvalidToolInputError`;
 * - `'timeout'`: the tool ran past its timeout;
 * - `'aborted'`: the batch was aborted (caller abort, or another call failed the batch) first;
 * - `'failed'`: the error ends the whole request (processor rethrow, abort error from the tool).
 */
export type ToolCallOutcome =
  | 'success'
  | 'tool-error'
  | 'invalid-input'
  | 'timeout'
  | 'aborted'
  | 'failed';

/** Reported when an executed tool call starts. Never carries the tool context. */
export interface ToolCallStartEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  /** The tool's definition (name, description, input schema). */
  readonly definition: ToolDefinition;
  /** The argument text passed to the tool; only with `includeContent: true`. */
  readonly arguments?: string;
}

/** Reported when an executed tool call ends. Never carries the tool context. */
export interface ToolCallEndEvent extends ToolCallStartEvent {
  /** Wall time from start to end, in milliseconds. */
  readonly durationMs: number;
  readonly outcome: ToolCallOutcome;
  /** True when the model receives an error result for this call. */
  readonly isError: boolean;
  /** Class name of the thrown error, for non-success outcomes that had one. */
  readonly errorType?: string;
  /** The text the model receives; only with `includeContent: true` and when there is one. */
  readonly result?: string;
  /** Type, media type and size of each part of a result with content parts (never the bytes). */
  readonly parts?: readonly ToolResultPartSummary[];
}

/**
 * Hooks the manager calls around every executed tool call (calls rejected before execution, by a
 * limit, an unknown name or invalid arguments, produce no events). An error thrown by a hook
 * propagates and fails the batch, as any bug in the loop would.
 */
export interface ToolCallObserver {
  /** Put arguments and results into the events. They may hold sensitive data. Default `false`. */
  readonly includeContent?: boolean;
  onToolCallStart?(event: ToolCallStartEvent): void;
  onToolCallEnd?(event: ToolCallEndEvent): void;
}
