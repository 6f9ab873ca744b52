import type { ChatResponse, PendingToolApproval } from '../index.js';
import { DurableTurnError } from './durable-turn-error.js';
import type { DurableTurnEvent, DurableTurnEventEntry } from './durable-turn-event.js';
import { APPROVAL_KEY, TURN_EVENTS_STREAM, UNKNOWN_OUTCOME_KEY } from './turn-keys.js';
import type { UnknownOutcomeQuestion } from './unknown-outcome.js';

/** Where a durable turn stands. */
export type DurableTurnStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** The approval a turn waits for, and why the last decisions were refused, if they were. */
export interface DurableApprovalWait {
  readonly pending: PendingToolApproval;
  readonly refusal?: string;
}

/**
 * What a handle needs of the engine's client (DBOS's `DBOSClient` has it); named here so the
 * handle's declarations do not depend on the engine's.
 */
export interface TurnEngineClient {
  getWorkflow(workflowID: string): Promise<{ readonly status: string } | undefined>;
  retrieveWorkflow<T>(workflowID: string): { getResult(): Promise<T> };
  getEvent<T>(
    workflowID: string,
    key: string,
    options: { timeoutSeconds: number; pollingIntervalMs: number },
  ): Promise<T | null>;
  readStream<T>(
    workflowID: string,
    key: string,
    options: { offset: number },
  ): AsyncGenerator<T, void, unknown>;
  cancelWorkflow(workflowID: string): Promise<void>;
}

/** How often a handle looks at a turn's status while it waits for the turn to end. */
const POLL_MS = 100;

/**
 * A durable turn, seen from any process: its status, its result, its events (from any offset, so a
 * reader that lost its connection reads on where it stopped instead of starting a second turn), and
 * what it waits for (an approval, an answer about a call whose outcome is unknown).
 */
export class DurableTurnHandle {
  /** The turn's id (the workflow id; `PendingToolApproval.turnId` of its approvals). */
  readonly turnId: string;
  readonly #client: TurnEngineClient;

  /** Made by `DbosTurnClient.start` and `DbosTurnClient.turn`. */
  constructor(client: TurnEngineClient, turnId: string) {
    this.#client = client;
    this.turnId = turnId;
  }

  /** Where the turn stands. @throws DurableTurnError `'not-found'` for an id no turn has. */
  async status(): Promise<DurableTurnStatus> {
    return statusOf(await this.#engineStatus());
  }

  /**
   * The turn's final response once it ends (a stream turn's: the aggregate of its chunks).
   * @throws DurableTurnError `'turn-failed'` (with the turn's error as the message),
   *   `'turn-cancelled'`, `'timeout'` after `timeoutMs`, `'not-found'`.
   */
  async result(options: { timeoutMs?: number } = {}): Promise<ChatResponse | null> {
    const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
    for (;;) {
      const status = statusOf(await this.#engineStatus());
      if (status === 'succeeded') {
        return (
          (await this.#client.retrieveWorkflow<ChatResponse | null>(this.turnId).getResult()) ??
          null
        );
      }
      if (status === 'failed') {
        let failure: unknown;
        try {
          await this.#client.retrieveWorkflow(this.turnId).getResult();
        } catch (error) {
          failure = error;
        }
        const reason =
          failure instanceof Error ? failure.message : 'it exceeded its recovery attempts';
        throw new DurableTurnError({
          problem: 'turn-failed',
          turnId: this.turnId,
          message: `Turn ${this.turnId} failed: ${reason}`,
          cause: failure,
        });
      }
      if (status === 'cancelled') {
        throw new DurableTurnError({
          problem: 'turn-cancelled',
          turnId: this.turnId,
          message: `Turn ${this.turnId} was cancelled`,
        });
      }
      if (deadline !== undefined && Date.now() >= deadline) {
        const where =
          status === 'queued'
            ? 'no worker has taken it yet: start a DbosTurnWorker that registers its agent, on the same queue and version; the turn stays queued until one does'
            : `it is ${status}; it goes on`;
        throw new DurableTurnError({
          problem: 'timeout',
          turnId: this.turnId,
          message: `Turn ${this.turnId} did not end within ${options.timeoutMs} ms (${where})`,
        });
      }
      await sleep(deadline === undefined ? POLL_MS : Math.min(POLL_MS, deadline - Date.now()));
    }
  }

  /** The text of the final response's first generation (see {@link result}). */
  async text(options: { timeoutMs?: number } = {}): Promise<string | null> {
    return (await this.result(options))?.results[0]?.output.text ?? null;
  }

  /**
   * The approval the turn waits for, or `undefined` when it waits for none; with `waitMs`, waits up
   * to that long for the turn to ask for one.
   */
  async waitingApproval(
    options: { waitMs?: number } = {},
  ): Promise<DurableApprovalWait | undefined> {
    return (await this.#event<DurableApprovalWait>(APPROVAL_KEY, options.waitMs)) ?? undefined;
  }

  /**
   * The call whose outcome is unknown that the turn asks its caller about (policy
   * `'ask-caller'`), or `undefined`; with `waitMs`, waits up to that long for a question.
   */
  async unknownOutcome(
    options: { waitMs?: number } = {},
  ): Promise<UnknownOutcomeQuestion | undefined> {
    return (
      (await this.#event<UnknownOutcomeQuestion>(UNKNOWN_OUTCOME_KEY, options.waitMs)) ?? undefined
    );
  }

  /**
   * The turn's events from offset `from` (default 0, the first) until its last (`'end'`,
   * `'error'` or `'cancelled'`), waiting for the ones not written yet. Each comes with its offset:
   * after a lost connection, read on from the last offset seen plus one.
   */
  async *events(options: { from?: number } = {}): AsyncGenerator<DurableTurnEventEntry> {
    let offset = options.from ?? 0;
    if (!(Number.isInteger(offset) && offset >= 0)) {
      throw new DurableTurnError({
        problem: 'invalid-input',
        turnId: this.turnId,
        message: 'events({ from }) takes a non-negative integer offset',
      });
    }
    let last: DurableTurnEvent | undefined;
    for await (const event of this.#client.readStream<DurableTurnEvent>(
      this.turnId,
      TURN_EVENTS_STREAM,
      {
        offset,
      },
    )) {
      yield { offset, event };
      last = event;
      offset++;
    }
    if (last !== undefined && isLastEvent(last)) return;
    // A reader that starts after the last event has nothing more to read.
    if (last === undefined && offset > 0 && isLastEvent(await this.#eventAt(offset - 1))) return;
    // The stream ended without a last event: the turn was cancelled (its writes stop with it), or it
    // failed before it could write one (an agent this worker does not register).
    const closing = await this.#closingEvent();
    if (closing !== undefined) yield { offset, event: closing };
  }

  /** Cancels the turn: it stops at its next step and is not recovered. */
  async cancel(): Promise<void> {
    await this.#engineStatus();
    await this.#client.cancelWorkflow(this.turnId);
  }

  async #engineStatus(): Promise<string> {
    const status = await this.#client.getWorkflow(this.turnId);
    if (status === undefined) {
      throw new DurableTurnError({
        problem: 'not-found',
        turnId: this.turnId,
        message: `No durable turn has the id ${this.turnId}`,
      });
    }
    return status.status;
  }

  async #eventAt(offset: number): Promise<DurableTurnEvent | undefined> {
    for await (const event of this.#client.readStream<DurableTurnEvent>(
      this.turnId,
      TURN_EVENTS_STREAM,
      { offset },
    )) {
      return event;
    }
    return undefined;
  }

  /** The event a reader is owed when the turn ended without writing its last one. */
  async #closingEvent(): Promise<DurableTurnEvent | undefined> {
    const status = statusOf(await this.#engineStatus());
    if (status === 'cancelled') return { type: 'cancelled' };
    if (status !== 'failed') return undefined;
    try {
      await this.result();
      return undefined;
    } catch (error) {
      const cause = error instanceof DurableTurnError ? error.cause : error;
      return {
        type: 'error',
        message: cause instanceof Error ? cause.message : 'it exceeded its recovery attempts',
      };
    }
  }

  async #event<T>(key: string, waitMs: number | undefined): Promise<T | null> {
    // A zero timeout still reads the event once.
    return this.#client.getEvent<T>(this.turnId, key, {
      timeoutSeconds: Math.max(waitMs ?? 0, 1) / 1000,
      pollingIntervalMs: POLL_MS,
    });
  }
}

function isLastEvent(event: DurableTurnEvent | undefined): boolean {
  return event?.type === 'end' || event?.type === 'error' || event?.type === 'cancelled';
}

function statusOf(engineStatus: string): DurableTurnStatus {
  switch (engineStatus) {
    case 'SUCCESS':
      return 'succeeded';
    case 'ERROR':
    case 'MAX_RECOVERY_ATTEMPTS_EXCEEDED':
      return 'failed';
    case 'CANCELLED':
      return 'cancelled';
    case 'PENDING':
      return 'running';
    default:
      return 'queued';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(ms, 0)));
}
