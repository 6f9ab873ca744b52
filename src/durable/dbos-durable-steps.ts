import { DBOS } from '@dbos-inc/dbos-sdk';
import type {
  DurablePendingApproval,
  DurableSteps,
  DurableToolCallOutcome,
  DurableToolCallStep,
} from '../advisors/index.js';
import type { ChatResponse } from '../index.js';
import type { DurableTurnEvent } from './durable-turn-event.js';
import {
  APPROVAL_KEY,
  TURN_EVENTS_STREAM,
  UNKNOWN_OUTCOME_KEY,
  unknownOutcomeTopic,
} from './turn-keys.js';
import {
  readUnknownOutcomeAnswer,
  type UnknownOutcomePolicy,
  type UnknownOutcomeQuestion,
  unknownOutcomeText,
} from './unknown-outcome.js';

/** How long one wait for a message lasts before the turn waits again (the wait is durable). */
const WAIT_SECONDS = 24 * 60 * 60;

/**
 * The lifetime of a durable turn's pending approval state when the worker sets no approval
 * timeout: the turn may wait that long for its decision (a state must expire at some time).
 */
const UNLIMITED_WAIT_STATE_TTL_MS = 365 * 24 * 60 * 60 * 1000;

/** What a turn's steps need to know of their worker. */
export interface DbosStepSettings {
  readonly unknownOutcome: UnknownOutcomePolicy;
  /** After this long without decisions, the waiting calls are denied; `undefined`: no limit. */
  readonly approvalTimeoutMs: number | undefined;
}

/** A decision message as the client sends it. */
interface ApprovalMessage {
  readonly iteration: number;
  readonly decisions: readonly unknown[];
}

/** An answer message as the client sends it. */
interface UnknownOutcomeMessage {
  readonly round: number;
  readonly toolCallId: string;
  readonly answer: unknown;
}

/**
 * The steps of one durable turn on DBOS: each model call and tool call a `DBOS.runStep` (its
 * result checkpointed in the system database), the waits `DBOS.recv` (durable: a recovered turn
 * waits on), the readers' events a DBOS stream. Made per run of the turn's workflow.
 *
 * At most once for a tool that is neither idempotent nor read-only: before its step, a marker
 * step records that the call starts. A run that finds the marker recorded but not the call's
 * outcome knows an earlier run started the call and died before its checkpoint, and does not call
 * the tool (the call's step records that, and the loop asks {@link resolveUnknownOutcome}).
 */
export class DbosDurableSteps implements DurableSteps {
  readonly executionId: string;
  readonly #settings: DbosStepSettings;

  constructor(executionId: string, settings: DbosStepSettings) {
    this.executionId = executionId;
    this.#settings = settings;
  }

  /** {@inheritDoc DurableSteps.approvalStateTtlMs} As long as the worker's approval timeout. */
  get approvalStateTtlMs(): number {
    return this.#settings.approvalTimeoutMs ?? UNLIMITED_WAIT_STATE_TTL_MS;
  }

  runModelCall(
    round: number,
    call: () => Promise<ChatResponse | null>,
  ): Promise<ChatResponse | null> {
    return DBOS.runStep(call, { name: `model:${round}` });
  }

  runToolCall(
    step: DurableToolCallStep,
    call: (idempotencyKey: string) => Promise<DurableToolCallOutcome>,
  ): Promise<DurableToolCallOutcome | undefined> {
    const key = this.#idempotencyKey(step);
    const name = toolStepName(step);
    if (step.idempotent) return DBOS.runStep(() => call(key), { name });
    return this.#guarded(
      name,
      () => call(key),
      async () => null,
    ).then((outcome) => outcome ?? undefined);
  }

  async resolveUnknownOutcome(
    step: DurableToolCallStep,
  ): Promise<DurableToolCallOutcome | 'retry'> {
    if (this.#settings.unknownOutcome === 'tool-error') {
      return {
        kind: 'tool-error',
        text: unknownOutcomeText(step.toolName),
        errorType: 'OutcomeUnknown',
      };
    }
    const question: UnknownOutcomeQuestion = {
      round: step.round,
      toolCallId: step.toolCallId,
      toolName: step.toolName,
      attempt: step.attempt,
      idempotencyKey: this.#idempotencyKey(step),
    };
    await DBOS.setEvent(UNKNOWN_OUTCOME_KEY, question);
    await this.#event({ type: 'outcome-unknown', question });
    for (;;) {
      const message = await DBOS.recv<UnknownOutcomeMessage>(
        unknownOutcomeTopic(step.round, step.toolCallId),
        { timeoutSeconds: WAIT_SECONDS },
      );
      if (message === null) continue;
      const answer = readUnknownOutcomeAnswer(message.answer);
      if (answer === undefined) continue;
      await DBOS.setEvent(UNKNOWN_OUTCOME_KEY, null);
      if (answer.type === 'retry') return 'retry';
      if (answer.type === 'succeeded') return { kind: 'success', text: answer.result };
      return {
        kind: 'tool-error',
        text: answer.error ?? unknownOutcomeText(step.toolName),
        errorType: 'OutcomeUnknown',
      };
    }
  }

  runStep<T>(
    name: string,
    run: () => Promise<T>,
    options: { reconcile?: () => Promise<T> } = {},
  ): Promise<T> {
    // Inside a running step (a memory advisor inside the loop runs within the model call's step)
    // the enclosing step's checkpoint covers it.
    if (DBOS.isInStep()) return run();
    const reconcile = options.reconcile;
    if (reconcile === undefined) return DBOS.runStep(run, { name });
    return this.#guarded(name, run, reconcile);
  }

  async waitForApproval(
    pending: DurablePendingApproval,
    refusal?: string,
  ): Promise<readonly unknown[]> {
    await DBOS.setEvent(APPROVAL_KEY, refusal === undefined ? { pending } : { pending, refusal });
    await this.#event(
      refusal === undefined
        ? ({ type: 'approval-pending', pending } as DurableTurnEvent)
        : ({ type: 'approval-pending', pending, refusal } as DurableTurnEvent),
    );
    const timeoutMs = this.#settings.approvalTimeoutMs;
    const deadline = timeoutMs === undefined ? undefined : (await DBOS.now()) + timeoutMs;
    for (;;) {
      const message = await DBOS.recv<ApprovalMessage>(
        APPROVAL_KEY,
        deadline === undefined ? { timeoutSeconds: WAIT_SECONDS } : { deadlineEpochMS: deadline },
      );
      if (message === null) {
        if (deadline === undefined) continue;
        await DBOS.setEvent(APPROVAL_KEY, null);
        return denyAll(pending, timeoutMs as number);
      }
      if (message.iteration !== pending.iteration || !Array.isArray(message.decisions)) continue;
      await DBOS.setEvent(APPROVAL_KEY, null);
      return message.decisions;
    }
  }

  emitChunk(chunk: ChatResponse, round: number): Promise<void> {
    return this.#event({ type: 'chunk', round, chatResponse: chunk });
  }

  startRound(round: number): Promise<void> {
    return this.#event({ type: 'round', round });
  }

  /** Writes one event of the turn for its readers. */
  #event(event: DurableTurnEvent): Promise<void> {
    return DBOS.writeStream(TURN_EVENTS_STREAM, event);
  }

  #idempotencyKey(step: DurableToolCallStep): string {
    return `${this.executionId}:${step.round}:${step.toolCallId}`;
  }

  /**
   * `run` as a step that is never run twice: a marker step first records that it starts; a later
   * run of the turn that finds the marker but no outcome calls `unknown` instead. Both steps are
   * started here, at once, so they take their places in the turn's order of steps together.
   */
  #guarded<T>(name: string, run: () => Promise<T>, unknown: () => Promise<T>): Promise<T> {
    let startsNow = false;
    const marker = DBOS.runStep(
      async () => {
        startsNow = true;
        return null;
      },
      { name: `${name}:start` },
    );
    // A replay that finds the call's outcome recorded never awaits the marker.
    marker.catch(() => {});
    return DBOS.runStep(
      async () => {
        await marker;
        return startsNow ? run() : unknown();
      },
      { name },
    );
  }
}

/** The step name of a tool call: round, call id, and the attempt after a retry. */
function toolStepName(step: DurableToolCallStep): string {
  const name = `tool:${step.round}:${step.toolName}:${step.toolCallId}`;
  return step.attempt === 1 ? name : `${name}#${step.attempt}`;
}

/** Denials of every waiting call, when no decision came in time. */
function denyAll(pending: DurablePendingApproval, timeoutMs: number): unknown[] {
  const calls = (pending as { toolCalls: readonly { id: string; argumentsHash?: string }[] })
    .toolCalls;
  return calls.map((call) => ({
    type: 'deny',
    toolCallId: call.id,
    argumentsHash: call.argumentsHash,
    reason: `No decision arrived within ${timeoutMs} ms.`,
  }));
}
