import type { ToolResultPart } from '../messages/index.js';
import type { ChatResponse } from '../model/index.js';

/**
 * The step boundaries of a turn that runs on a durable-execution engine (see `toolloop/durable`).
 * When a request carries one (`ChatClientRequest.durable`), the tool loop runs every model call,
 * every tool call and the approval wait through it, and the memory advisor its reads and writes:
 * the engine records each step's result, and a turn re-run after a crash gets the recorded results
 * back instead of running the step again, up to the first step without a record.
 *
 * The loop calls these methods in the same order on every run of a turn, and each method takes
 * its place in the turn's order of steps synchronously, when it is called, before its promise
 * settles (several tool calls of a batch are started one after the other, then awaited together).
 * An engine whose replay matches steps by position (DBOS, Temporal, Restate) relies on that.
 * Every value passed through a step is plain JSON.
 */
export interface DurableSteps {
  /**
   * The id of the durable execution running the turn (a DBOS workflow id): the same on every run
   * of the turn. The loop uses it as the turn id; tools' idempotency keys start with it.
   */
  readonly executionId: string;
  /**
   * Runs the model call of round `round` (1-based) as a step. A replay resolves to the recorded
   * response without calling `call`.
   */
  runModelCall(
    round: number,
    call: () => Promise<ChatResponse | null>,
  ): Promise<ChatResponse | null>;
  /**
   * Runs one tool call as a step; `call` receives the call's idempotency key. A replay resolves to
   * the recorded outcome. For a call that is not `idempotent`, resolves to `undefined` when an
   * earlier run started the call and its outcome was never recorded (the process died between
   * the tool's start and its checkpoint): the call is not run again; the loop then asks
   * {@link resolveUnknownOutcome}. An idempotent call is simply run again.
   */
  runToolCall(
    step: DurableToolCallStep,
    call: (idempotencyKey: string) => Promise<DurableToolCallOutcome>,
  ): Promise<DurableToolCallOutcome | undefined>;
  /**
   * What to do with a call whose outcome is unknown, per the policy the engine was given: an
   * outcome to answer the call with (an error result saying the outcome is unknown, or a result
   * the caller supplied), or `'retry'` to run the call again (with the same idempotency key).
   * May wait for the caller's answer.
   */
  resolveUnknownOutcome(step: DurableToolCallStep): Promise<DurableToolCallOutcome | 'retry'>;
  /**
   * Runs another effect as a step (a memory read or write). With `reconcile`, an effect whose
   * earlier run started and never recorded its result is not run again blindly: `reconcile` runs
   * in its place and decides (for example, reads the store and writes only what is missing).
   * Inside a running step, `run` is simply called.
   */
  runStep<T>(
    name: string,
    run: () => Promise<T>,
    options?: { reconcile?: () => Promise<T> },
  ): Promise<T>;
  /**
   * Parks the turn until a decision for the waiting calls of `pending` arrives, from any process;
   * resolves to the decisions as they were sent (the loop checks them). `refusal` says why the
   * previous decisions were refused, when they were.
   */
  waitForApproval(pending: DurablePendingApproval, refusal?: string): Promise<readonly unknown[]>;
  /**
   * How long a pending approval state of this turn stays valid, in milliseconds: as long as the
   * engine waits for its decision. The loop signs the turn's states with this expiry instead of
   * `approval.stateTtlMs`, so a decision that arrives days later is not refused as expired while
   * the turn still waits for it. Absent: `approval.stateTtlMs` applies.
   */
  readonly approvalStateTtlMs?: number;
  /**
   * Stream mode: hands one chunk of the turn's stream to its readers in other processes. Called
   * inside the model call's step for the round's chunks (a step that runs again after a crash
   * hands them again, after a new `round` mark), and outside any step for the chunks the loop
   * makes itself (a usage total, a `returnDirect` ending).
   */
  emitChunk(chunk: ChatResponse, round: number): Promise<void>;
  /** Stream mode: marks the start of round `round`'s chunks (inside its model call's step). */
  startRound(round: number): Promise<void>;
}

/** One tool call as a step of a durable turn. */
export interface DurableToolCallStep {
  /** The loop round (model call) whose response made the call, from 1. */
  readonly round: number;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The call's argument text, as the tool receives it (for engines that dispatch calls as data). */
  readonly arguments: string;
  /** The tool is `idempotent` or `readOnly` (its metadata): run again when its outcome is unknown. */
  readonly idempotent: boolean;
  /** 1 for the first run; a retry the caller asked for after an unknown outcome counts up. */
  readonly attempt: number;
}

/** How one tool call ended, as recorded by its step (what the model is told, not the raw value). */
export interface DurableToolCallOutcome {
  /** `'success'`, or why the result is an error result. */
  readonly kind: 'success' | 'tool-error' | 'invalid-input' | 'timeout';
  /** The text the model receives (the result, or the error text). */
  readonly text: string;
  /** The class name of the error the tool threw, for events and observers. */
  readonly errorType?: string;
  /** A successful result's content parts (images, files, links), when it has them. */
  readonly content?: ToolResultPart[];
  /** A successful result's structured content, when it has one. */
  readonly structuredContent?: unknown;
}

/** What a durable engine needs of a pending approval state: plain JSON naming its waiting calls. */
export interface DurablePendingApproval {
  readonly turnId: string;
  readonly iteration: number;
  readonly toolCalls: readonly { readonly id: string; readonly name: string }[];
}
