import type { ToolCall, ToolResultPart, ToolResultPartSummary } from '../messages/index.js';
import type { Usage } from '../model/chat-response.js';

/**
 * What every turn event carries: the turn it belongs to and when it happened.
 *
 * Events are produced once, by the loop, and are the single source for listeners,
 * `.stream().events()`, logging, OpenTelemetry and the trace page. They never carry the tool
 * context. They do carry tool arguments, results and text (a UI needs them); exporters that leave
 * the process (OpenTelemetry, logs, trace files) drop them unless content export is switched on.
 */
export interface TurnEventBase {
  /** Identifies one `.call()` / `.stream()` of the client; shared by every event of that turn. */
  readonly turnId: string;
  /** Milliseconds since the epoch (`Date.now()`) when the event was produced. */
  readonly timestamp: number;
}

/** The turn began. */
export interface TurnStartEvent extends TurnEventBase {
  readonly type: 'turn-start';
  /** The conversation id when the request has one (memory, tool search sessions). */
  readonly conversationId?: string;
  /** `'call'` for `.call()`, `'stream'` for `.stream()`. */
  readonly mode: 'call' | 'stream';
}

/** A model call of the turn began. `iteration` counts model calls of the turn from 1. */
export interface ModelCallStartEvent extends TurnEventBase {
  readonly type: 'model-call-start';
  readonly iteration: number;
  /** The requested model name, when known. */
  readonly model?: string;
  /** Names of the tools offered to the model in this call. */
  readonly toolNames: readonly string[];
}

/** A model call of the turn ended, with or without an error. */
export interface ModelCallEndEvent extends TurnEventBase {
  readonly type: 'model-call-end';
  readonly iteration: number;
  /** The model that answered (from the response) or the requested one. */
  readonly model?: string;
  readonly usage?: Usage;
  readonly finishReason?: string | null;
  readonly durationMs: number;
  /** Present when the call failed: the error's class name and message (already scrubbed). */
  readonly error?: { readonly type: string; readonly message: string };
  /**
   * Present in a durable turn run again after a crash when the response came from the call's
   * checkpoint: the model was not called this time, and no tokens were spent on it.
   */
  readonly replayed?: true;
}

/** A piece of answer text (stream mode). */
export interface TextDeltaEvent extends TurnEventBase {
  readonly type: 'text-delta';
  readonly iteration: number;
  readonly text: string;
}

/**
 * A piece of a tool call's argument text as the provider streams it (stream mode, for providers
 * that stream arguments). `toolName` is set on the first delta of a call.
 */
export interface ToolCallDeltaEvent extends TurnEventBase {
  readonly type: 'tool-call-delta';
  readonly iteration: number;
  readonly toolCallId: string;
  readonly toolName?: string;
  readonly argumentsDelta: string;
}

/** The model finished writing a tool call (id, name and full argument text). */
export interface ToolCallEvent extends TurnEventBase {
  readonly type: 'tool-call';
  readonly iteration: number;
  readonly toolCall: ToolCall;
}

/** A tool began to run. */
export interface ToolExecutionStartEvent extends TurnEventBase {
  readonly type: 'tool-execution-start';
  readonly iteration: number;
  readonly toolCallId: string;
  readonly toolName: string;
}

/** A progress value yielded by an async-generator tool. It never reaches the model. */
export interface ToolProgressEvent extends TurnEventBase {
  readonly type: 'tool-progress';
  readonly iteration: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly value: unknown;
}

/**
 * How a tool call of a batch ended:
 * `'ok'` ran and returned; `'error'` ran and failed (the model gets an error result);
 * `'timeout'` ran past its timeout; `'not-executed'` never ran (unknown name, invalid arguments,
 * a call limit, an aborted batch); `'denied'` refused by a human approval decision.
 */
export type ToolResultOutcome = 'ok' | 'error' | 'timeout' | 'not-executed' | 'denied';

/** The result the model will receive for one tool call (also for calls that never ran). */
export interface ToolResultEvent extends TurnEventBase {
  readonly type: 'tool-result';
  readonly iteration: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly outcome: ToolResultOutcome;
  /** The text the model receives. */
  readonly result: string;
  readonly isError: boolean;
  /** Wall time of the execution; 0 for calls that never ran. */
  readonly durationMs: number;
  /** Class name of the error behind a non-`ok` outcome, when there was one. */
  readonly errorType?: string;
  /**
   * Type, media type and size of each part of a result with content parts (never their bytes):
   * what logs, spans and the trace page show.
   */
  readonly parts?: readonly ToolResultPartSummary[];
  /** The result's parts themselves (bytes included); exporters drop them unless content is on. */
  readonly content?: readonly ToolResultPart[];
  /**
   * Present in a durable turn run again after a crash when the result came from the call's
   * checkpoint: the tool did not run this time.
   */
  readonly replayed?: true;
}

/** A per-turn tool call limit was reached. */
export interface LimitExceededEvent extends TurnEventBase {
  readonly type: 'limit-exceeded';
  readonly iteration: number;
  /** The tool whose limit was reached; absent for the total limit. */
  readonly toolName?: string;
  readonly limit: number;
  readonly scope: 'per-tool' | 'total';
}

/** The loop stopped because it reached its iteration cap. */
export interface IterationCapEvent extends TurnEventBase {
  readonly type: 'iteration-cap';
  readonly iteration: number;
  readonly maxIterations: number;
}

/** The turn paused: these calls wait for a human decision. */
export interface ApprovalPendingEvent extends TurnEventBase {
  readonly type: 'approval-pending';
  readonly iteration: number;
  readonly toolCalls: readonly ToolCall[];
}

/** One model call and the tool round that followed it (if any) are done. */
export interface StepFinishEvent extends TurnEventBase {
  readonly type: 'step-finish';
  readonly iteration: number;
  readonly finishReason: string | null;
  readonly usage?: Usage;
  /** The tool calls the model made in this step (empty for a final answer). */
  readonly toolCalls: readonly ToolCall[];
}

/**
 * Tool search went on without a part that failed: typically the semantic side of a
 * `HybridToolIndex` whose embedding model threw or did not answer in time, so the search (or the
 * indexing of the session's tools at the start of the turn) ranked with the lexical side only.
 * The turn goes on. Produced by `ToolSearchToolCallingAdvisor`.
 */
export interface ToolSearchFallbackEvent extends TurnEventBase {
  readonly type: 'tool-search-fallback';
  /** The loop round: 0 for the indexing before the first model call. */
  readonly iteration: number;
  /** Indexing the session's tools, or one search. */
  readonly phase: 'index' | 'search';
  /** The search tool call whose search went on without it (phase `'search'`). */
  readonly toolCallId?: string;
  /** What was left out: the class name of the index or of the embedding cache. */
  readonly source: string;
  /**
   * `'error'`: it threw; `'timeout'`: it did not answer in time; `'unavailable'`: skipped without
   * trying, after a recent failure or while the session's tools wait to be indexed.
   */
  readonly reason: 'error' | 'timeout' | 'unavailable';
  /** The error behind an `'error'` or `'timeout'`: class name, toolloop code, message. */
  readonly error?: { readonly type: string; readonly code?: string; readonly message: string };
}

/** The turn ended normally (answer, `returnDirect`, limit or cap ending, or approval pause). */
export interface TurnFinishEvent extends TurnEventBase {
  readonly type: 'turn-finish';
  readonly durationMs: number;
  /** Usage summed over every model call of the turn. */
  readonly usage?: Usage;
  readonly finishReason: string | null;
  /** The final answer text, when the turn produced one. */
  readonly text?: string | null;
}

/** The turn ended with an error (provider failure, abort, an error the processor rethrew). */
export interface TurnErrorEvent extends TurnEventBase {
  readonly type: 'turn-error';
  readonly durationMs: number;
  /** The error's class name, its stable code when it is a toolloop error, and its message. */
  readonly error: { readonly type: string; readonly code?: string; readonly message: string };
}

/** Every event of a turn, discriminated by `type`. */
export type TurnEvent =
  | TurnStartEvent
  | ModelCallStartEvent
  | ModelCallEndEvent
  | TextDeltaEvent
  | ToolCallDeltaEvent
  | ToolCallEvent
  | ToolExecutionStartEvent
  | ToolProgressEvent
  | ToolResultEvent
  | LimitExceededEvent
  | IterationCapEvent
  | ApprovalPendingEvent
  | StepFinishEvent
  | ToolSearchFallbackEvent
  | TurnFinishEvent
  | TurnErrorEvent;

/**
 * Receives turn events synchronously, in order. A listener must not throw: an error it throws is
 * reported on `console.error` once per listener and otherwise ignored, so observing never changes
 * what the turn does.
 */
export type TurnEventListener = (event: TurnEvent) => void;
