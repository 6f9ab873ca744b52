import { createHash, randomUUID } from 'node:crypto';
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { canonicalJson, isPendingToolApprovalShape } from '../approval/index.js';
import {
  IllegalStateError,
  InvalidArgumentError,
  type PendingToolApproval,
  type ToolApprovalDecision,
  ToolApprovalError,
} from '../index.js';
import { describeDatabase, withoutCredentials } from './describe-database.js';
import { DurableTurnError } from './durable-turn-error.js';
import { DurableTurnHandle, type TurnEngineClient } from './durable-turn-handle.js';
import { type DurableTurnInput, storedTurnInput } from './durable-turn-input.js';
import { withSessionTimeoutOption } from './session-timeout-url.js';
import { APPROVAL_KEY, TURN_WORKFLOW_NAME, unknownOutcomeTopic } from './turn-keys.js';
import type { UnknownOutcomeAnswer, UnknownOutcomeQuestion } from './unknown-outcome.js';

/** Options of {@link DbosTurnClient.create}. */
export interface DbosTurnClientOptions {
  /** The system database of the workers (see `DbosTurnWorkerOptions.systemDatabaseUrl`). */
  systemDatabaseUrl: string;
  /** The workers' `applicationName`. Default `'toolloop'`. */
  applicationName?: string;
  /** The workers' queue name. Default `'toolloop-turns'`. */
  queueName?: string;
  /** How long {@link DbosTurnClient.create} waits for PostgreSQL to answer. Default 10 000 ms. */
  connectTimeoutMs?: number;
}

/**
 * Starts durable turns and talks to them from any process that reaches the workers' PostgreSQL
 * (a web server, a CLI): no worker needs to run here. A turn is started on the workers' queue and
 * runs on whichever worker takes it; its handle reads its status, result and events; approvals
 * and answers about unknown outcomes are sent to the turn wherever it waits.
 */
export class DbosTurnClient {
  readonly #engine: DBOSClient;
  readonly #queueName: string;
  /** The handles' view of the engine: refuses every call once this client is closed. */
  readonly #handleEngine: TurnEngineClient;
  #closed: Promise<void> | undefined;

  private constructor(client: DBOSClient, queueName: string) {
    this.#engine = client;
    this.#queueName = queueName;
    const open = () => this.#client;
    this.#handleEngine = {
      getWorkflow: (workflowID) => open().getWorkflow(workflowID),
      retrieveWorkflow: (workflowID) => open().retrieveWorkflow(workflowID),
      getEvent: (workflowID, key, options) => open().getEvent(workflowID, key, options),
      readStream: (workflowID, key, options) => open().readStream(workflowID, key, options),
      cancelWorkflow: (workflowID) => open().cancelWorkflow(workflowID),
    };
  }

  /** The engine's client. @throws IllegalStateError once this client is closed. */
  get #client(): DBOSClient {
    if (this.#closed !== undefined) {
      throw new IllegalStateError(
        'this DbosTurnClient is closed: create another one to reach the turns',
      );
    }
    return this.#engine;
  }

  /**
   * Connects to the workers' system database.
   * @throws DurableTurnError `'database-unreachable'` when PostgreSQL cannot be reached.
   */
  static async create(options: DbosTurnClientOptions): Promise<DbosTurnClient> {
    if (typeof options?.systemDatabaseUrl !== 'string' || options.systemDatabaseUrl === '') {
      throw new InvalidArgumentError('systemDatabaseUrl must be a PostgreSQL connection URL');
    }
    const url = options.systemDatabaseUrl;
    let client: DBOSClient | undefined;
    try {
      client = await DBOSClient.create({
        systemDatabaseUrl: withSessionTimeoutOption(url),
        applicationName: options.applicationName ?? 'toolloop',
      });
      // Creating the client does not connect yet: one read proves the database answers. DBOS
      // retries a read while the database is unreachable, so the wait has a limit of its own.
      await withinTimeout(
        client.listWorkflows({ workflowIDs: [''], loadInput: false, loadOutput: false }),
        options.connectTimeoutMs ?? 10_000,
      );
    } catch (error) {
      await client?.destroy().catch(() => {});
      const reason = withoutCredentials(
        error instanceof Error ? error.message : String(error),
        url,
      );
      throw new DurableTurnError({
        problem: 'database-unreachable',
        message: `PostgreSQL at ${describeDatabase(url)} cannot be reached: ${reason}. Start it or check systemDatabaseUrl.`,
        cause: error,
      });
    }
    return new DbosTurnClient(client, options.queueName ?? 'toolloop-turns');
  }

  /**
   * Starts a turn of `agent` (a name the workers register) on the queue. With `turnId`, starting
   * again with the same id, agent and input returns the turn already started instead of a second
   * one (a client that retries after a lost connection starts nothing twice).
   * @throws InvalidArgumentError for input that is not a turn's (see `DurableTurnInput`);
   *   DurableTurnError `'invalid-input'` for a `turnId` already taken by a turn of another agent
   *   or input (its answer would not be this question's).
   */
  async start(
    agent: string,
    input: DurableTurnInput,
    options: { turnId?: string } = {},
  ): Promise<DurableTurnHandle> {
    const stored = storedTurnInput(agent, input);
    const turnId = options.turnId ?? randomUUID();
    if (typeof turnId !== 'string' || turnId === '') {
      throw new InvalidArgumentError('turnId must be a non-empty string');
    }
    await this.#client.enqueue(
      { queueName: this.#queueName, workflowName: TURN_WORKFLOW_NAME, workflowID: turnId },
      stored,
    );
    // Only a caller's own id can name a turn started before; the engine then keeps the first input.
    if (options.turnId !== undefined) await this.#checkSameTurn(turnId, stored);
    return new DurableTurnHandle(this.#handleEngine, turnId);
  }

  async #checkSameTurn(turnId: string, stored: unknown): Promise<void> {
    const [found] = await this.#client.listWorkflows({ workflowIDs: [turnId], loadInput: true });
    const startedWith = (found?.input as unknown[] | undefined)?.[0];
    // The engine stores the input as JSON: compare what a worker will read.
    if (canonicalJson(startedWith) === canonicalJson(JSON.parse(JSON.stringify(stored)))) return;
    throw new DurableTurnError({
      problem: 'invalid-input',
      turnId,
      message: `Turn ${turnId} was already started with another agent or input: a turn id names one turn, so this start would return that turn's answer. Start this one under a new id.`,
    });
  }

  /** The handle of a turn started before, from its id (no check that it exists: see its methods). */
  turn(turnId: string): DurableTurnHandle {
    if (typeof turnId !== 'string' || turnId === '') {
      throw new InvalidArgumentError('turnId must be a non-empty string');
    }
    return new DurableTurnHandle(this.#handleEngine, turnId);
  }

  /**
   * Sends decisions for the calls a turn waits on (the `pending` state its handle or events show,
   * the same signed state a non-durable turn returns) to the turn, wherever it waits; a worker
   * resumes it. The decisions are checked by the turn as a resume checks them; refused ones are
   * reported back (`DurableApprovalWait.refusal`) and the turn waits again.
   * @throws ToolApprovalError for a state that is not a pending approval, or decisions that are not
   *   an array of decisions.
   */
  async decide(
    pending: PendingToolApproval,
    decisions: readonly ToolApprovalDecision[],
  ): Promise<void> {
    if (!isPendingToolApprovalShape(pending) || typeof pending.turnId !== 'string') {
      throw new ToolApprovalError({
        problem: 'malformed-state',
        message:
          'decide() needs the pending state the turn waits on (DurableTurnHandle.waitingApproval)',
      });
    }
    if (!Array.isArray(decisions)) {
      throw new ToolApprovalError({
        problem: 'invalid-decision',
        message: 'decide() needs an array of decisions (approveToolCall, denyToolCall)',
      });
    }
    const message = { iteration: pending.iteration, decisions };
    await this.#client.send(
      pending.turnId,
      message,
      APPROVAL_KEY,
      messageKey(pending.turnId, 'approval', message),
    );
  }

  /**
   * Answers a turn's question about a call whose outcome is unknown (policy `'ask-caller'`): run
   * it again, the result it had, or the error the model receives.
   */
  async answerUnknownOutcome(
    turnId: string,
    question: Pick<UnknownOutcomeQuestion, 'round' | 'toolCallId'>,
    answer: UnknownOutcomeAnswer,
  ): Promise<void> {
    const message = { round: question.round, toolCallId: question.toolCallId, answer };
    await this.#client.send(
      turnId,
      message,
      unknownOutcomeTopic(question.round, question.toolCallId),
      messageKey(turnId, 'outcome', message),
    );
  }

  /**
   * Disconnects; a second call waits for the first. Handles of this client stop working too.
   * Every later use throws an `IllegalStateError`.
   */
  close(): Promise<void> {
    this.#closed ??= this.#engine.destroy();
    return this.#closed;
  }
}

/** `promise`, or a rejection once `ms` have passed without it settling. */
async function withinTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The same message sent twice to a turn is delivered once. */
function messageKey(turnId: string, kind: string, message: unknown): string {
  const digest = createHash('sha256').update(canonicalJson(message)).digest('hex');
  return `${turnId}:${kind}:${digest}`;
}
