import { createHash } from 'node:crypto';
import { DBOS, type DLogger } from '@dbos-inc/dbos-sdk';
import { migrateSystemDatabase } from '@dbos-inc/dbos-sdk/internal/system_database';
import { GlobalLogger } from '@dbos-inc/dbos-sdk/internal/telemetry/logs';
import { canonicalJson } from '../approval/index.js';
import {
  type ChatClient,
  type ChatResponse,
  CONVERSATION_ID,
  IllegalStateError,
  InvalidArgumentError,
} from '../index.js';
import { collectToolSources } from '../tools/index.js';
import { DbosDurableSteps } from './dbos-durable-steps.js';
import { DbosTurnClient } from './dbos-turn-client.js';
import { describeDatabase, isConnectionFailure, withoutCredentials } from './describe-database.js';
import { DurableTurnError } from './durable-turn-error.js';
import type { DurableTurnEvent } from './durable-turn-event.js';
import type { DurableTurnInput, StoredTurnInput } from './durable-turn-input.js';
import { withSessionTimeoutOption } from './session-timeout-url.js';
import { TURN_EVENTS_STREAM, TURN_WORKFLOW_NAME, VERSION_STEP } from './turn-keys.js';
import type { UnknownOutcomePolicy } from './unknown-outcome.js';

/** The queue durable turns are started on, and its limits. */
export interface DurableQueueOptions {
  /** Default `'toolloop-turns'`. */
  name?: string;
  /** Turns one worker runs at once. Default: no limit of its own. */
  workerConcurrency?: number;
  /** Turns all workers together run at once. Default: no limit. */
  globalConcurrency?: number;
  /** How often a worker looks for queued turns, in milliseconds. Default 200. */
  pollingIntervalMs?: number;
}

/** Options of a {@link DbosTurnWorker}. */
export interface DbosTurnWorkerOptions {
  /**
   * The PostgreSQL database DBOS keeps its system tables in (created when missing, given the
   * right to create databases), e.g. `postgres://user:password@host:5432/toolloop_turns`.
   */
  systemDatabaseUrl: string;
  /** Scopes the turns, queues and versions in the system database. Default `'toolloop'`. */
  applicationName?: string;
  /**
   * This worker's id, stable across its restarts: a worker started again with the same id
   * recovers the turns the previous one left unfinished. Every worker needs its own. Default: DBOS's
   * (`DBOS__VMID`, else `'local'`).
   */
  workerId?: string;
  /**
   * The code version of the turns: a worker runs only turns started by its own version, and turns of
   * another version are refused with a message naming both. Default: a hash of the agents' names,
   * default system texts and tool definitions; set your build's version (a commit) so that every
   * change of code counts.
   */
  version?: string;
  /** The queue turns run from. */
  queue?: DurableQueueOptions;
  /** What happens to a tool call whose outcome a crash left unknown. Default `'tool-error'`. */
  unknownOutcome?: UnknownOutcomePolicy;
  /** Deny the waiting calls when no decision arrives within this time. Default: wait for ever. */
  approvalTimeoutMs?: number;
  /**
   * Told about problems that do not fail a call of this API: PostgreSQL unreachable mid-turn (the
   * turns wait and go on when it answers again), turns refused for their version. Default: a line
   * on `console.warn`, at most one per problem every 10 seconds.
   */
  onProblem?: (problem: DurableTurnError) => void;
  /** DBOS's own log lines at this level and above go to the console. Default `'warn'`. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /**
   * Create and update the system tables on launch (default `true`). Workers that start together
   * on a new database should not all do it: run {@link DbosTurnWorker.prepareDatabase} once (a
   * deploy step) and start them with `false`.
   */
  migrate?: boolean;
}

/** Options of one agent of a worker. */
export interface DurableAgentOptions {
  /**
   * Tool context made in the worker for each run of a turn (merged over the turn's own): the place
   * for secrets, which must not be stored with the turn's input.
   */
  toolContext?: (
    input: DurableTurnInput,
  ) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;
  /** Overrides the worker's `unknownOutcome` for this agent's turns. */
  unknownOutcome?: UnknownOutcomePolicy;
}

interface Agent {
  readonly client: ChatClient<object>;
  readonly options: DurableAgentOptions;
}

/** A turn the worker left alone because another code version started it. */
export interface RefusedTurn {
  readonly turnId: string;
  /** The version that started the turn. */
  readonly version: string;
  readonly error: DurableTurnError;
}

const DEFAULT_QUEUE = 'toolloop-turns';
const PROBLEM_REPEAT_MS = 10_000;

/** The worker launched in this process: DBOS is one per process, and so is a worker. */
let launched: DbosTurnWorker | undefined;
/** The launched worker's turn runner, which the workflow calls (see {@link runTurnWorkflow}). */
let runLaunchedTurn: ((input: StoredTurnInput) => Promise<ChatResponse | null>) | undefined;

/**
 * Runs toolloop turns as DBOS workflows, so a turn outlives its process: each model call and each
 * tool call is a step whose result DBOS checkpoints in PostgreSQL; when a worker dies, the worker
 * started again with its id (or another one, see {@link recoverWorker}) resumes its turns from the
 * last checkpoint, and completed steps are not run again. An approval parks the turn in the
 * database until a decision arrives from any process. Turns run from a DBOS queue, so several
 * worker processes share them under a per-worker and a global concurrency limit.
 *
 * One worker per process. Register the agents (a name and the `ChatClient` that runs its turns,
 * the same in every worker) before {@link launch}; start turns with {@link client} or a
 * {@link DbosTurnClient} in any process.
 *
 * ```ts
 * const worker = new DbosTurnWorker({ systemDatabaseUrl, workerId: 'worker-1' });
 * worker.agent('support', client);
 * await worker.launch();
 * const turn = await worker.client.start('support', { user: 'Refund order 42' });
 * console.log(await turn.text());
 * ```
 */
export class DbosTurnWorker {
  readonly #options: DbosTurnWorkerOptions;
  readonly #agents = new Map<string, Agent>();
  readonly #applicationName: string;
  readonly #queueName: string;
  #version: string | undefined;
  #client: DbosTurnClient | undefined;
  #refused: RefusedTurn[] = [];
  readonly #lastProblem = new Map<string, number>();

  /** @throws InvalidArgumentError for options of the wrong type. */
  constructor(options: DbosTurnWorkerOptions) {
    if (options === null || typeof options !== 'object') {
      throw new InvalidArgumentError('DbosTurnWorker options must be an object');
    }
    if (typeof options.systemDatabaseUrl !== 'string' || options.systemDatabaseUrl === '') {
      throw new InvalidArgumentError('systemDatabaseUrl must be a PostgreSQL connection URL');
    }
    checkPolicy(options.unknownOutcome, 'unknownOutcome');
    for (const name of ['workerConcurrency', 'globalConcurrency', 'pollingIntervalMs'] as const) {
      const value = options.queue?.[name];
      if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
        throw new InvalidArgumentError(`queue.${name} must be a positive integer`);
      }
    }
    const timeout = options.approvalTimeoutMs;
    if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
      throw new InvalidArgumentError('approvalTimeoutMs must be a positive number');
    }
    this.#options = { ...options };
    this.#applicationName = options.applicationName ?? 'toolloop';
    this.#queueName = options.queue?.name ?? DEFAULT_QUEUE;
  }

  /**
   * Creates the system database and its tables, or brings them up to date, without starting a
   * worker: the deploy step before several workers start at once.
   * @throws DurableTurnError `'database-unreachable'` when PostgreSQL cannot be reached.
   */
  static async prepareDatabase(systemDatabaseUrl: string): Promise<void> {
    try {
      // DBOS.migrate logs to the console; this is the same migration with a logger of ours.
      await migrateSystemDatabase(
        withSessionTimeoutOption(systemDatabaseUrl),
        new GlobalLogger(undefined, { logger: quietLogger() }),
      );
    } catch (error) {
      throw isConnectionFailure(error) ? unreachable(systemDatabaseUrl, error) : error;
    }
  }

  /**
   * Registers an agent: turns started under `name` run with `client` (its model, tools, advisors
   * and defaults). Every worker must register the same agents, before {@link launch}.
   * @throws IllegalStateError after launch; InvalidArgumentError for a name already taken.
   */
  agent(name: string, client: ChatClient<object>, options: DurableAgentOptions = {}): this {
    if (this.#version !== undefined) {
      throw new IllegalStateError(
        'Register agents before launch(): a recovered turn may need them',
      );
    }
    if (typeof name !== 'string' || name === '') {
      throw new InvalidArgumentError('an agent needs a name');
    }
    if (this.#agents.has(name))
      throw new InvalidArgumentError(`agent '${name}' is already registered`);
    if (client === null || typeof client?.prompt !== 'function') {
      throw new InvalidArgumentError(`agent '${name}' needs a ChatClient`);
    }
    checkPolicy(options.unknownOutcome, `agent '${name}' unknownOutcome`);
    this.#agents.set(name, { client, options });
    return this;
  }

  /** The code version this worker runs turns of (known once launched). */
  get version(): string {
    return this.#version ?? this.#options.version ?? this.#derivedVersion();
  }

  /** Turns this worker found at launch, or when recovering a worker, that another version started. */
  get refusedTurns(): readonly RefusedTurn[] {
    return this.#refused;
  }

  /** A client on the same system database: start turns, read them, decide approvals. */
  get client(): DbosTurnClient {
    if (this.#client === undefined) {
      throw new IllegalStateError('The worker is not launched: call launch() first');
    }
    return this.#client;
  }

  /**
   * Connects to PostgreSQL (creating the system database and its tables when missing), recovers the
   * turns this worker's id left unfinished (they go back on the queue, for any worker of this
   * version), and starts taking turns from the queue. Turns of other versions found for this worker
   * or on the queue are refused, each with a `'version-mismatch'` problem naming both versions.
   * @throws DurableTurnError `'database-unreachable'` when PostgreSQL cannot be reached (nothing
   *   was started or recovered); IllegalStateError when a worker already runs in this process.
   */
  async launch(): Promise<void> {
    if (launched !== undefined) {
      throw new IllegalStateError(
        'A DbosTurnWorker is already launched in this process (DBOS is one per process)',
      );
    }
    if (this.#agents.size === 0)
      throw new IllegalStateError('Register at least one agent before launch()');
    const options = this.#options;
    const version = options.version ?? this.#derivedVersion();
    launched = this;
    runLaunchedTurn = (input) => this.#runTurn(input);
    try {
      for (let attempt = 1; ; attempt++) {
        DBOS.setConfig({
          name: this.#applicationName,
          systemDatabaseUrl: withSessionTimeoutOption(options.systemDatabaseUrl),
          applicationVersion: engineVersion(this.#applicationName, version),
          ...(options.workerId === undefined ? {} : { executorID: options.workerId }),
          logger: this.#logger(options.logLevel ?? 'warn'),
          ...(options.migrate === false ? { runMigrations: false } : {}),
        });
        DBOS.registerWorkflow(runTurnWorkflow, { name: TURN_WORKFLOW_NAME });
        try {
          await DBOS.launch();
          break;
        } catch (error) {
          // A failed launch leaves the registry marked as launched.
          await DBOS.shutdown({ deregister: true }).catch(() => {});
          // Workers started together on a new database all create its tables; one wins.
          if (attempt < 5 && isConcurrentMigration(error)) {
            await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
            continue;
          }
          throw isConnectionFailure(error) ? unreachable(options.systemDatabaseUrl, error) : error;
        }
      }
      const queue = options.queue ?? {};
      await DBOS.registerQueue(this.#queueName, {
        ...(queue.workerConcurrency === undefined
          ? {}
          : { workerConcurrency: queue.workerConcurrency }),
        ...(queue.globalConcurrency === undefined
          ? {}
          : { globalConcurrency: queue.globalConcurrency }),
        minPollingIntervalMs: queue.pollingIntervalMs ?? 200,
        onConflict: 'always_update',
      });
      this.#version = version;
      this.#client = await DbosTurnClient.create({
        systemDatabaseUrl: options.systemDatabaseUrl,
        applicationName: this.#applicationName,
        queueName: this.#queueName,
      });
      await this.#refuseOtherVersions({ executorId: DBOS.executorID });
      await this.#refuseOtherVersions({ queueName: this.#queueName, status: ['ENQUEUED'] });
    } catch (error) {
      await this.#stop();
      throw error;
    }
  }

  /**
   * Takes over the turns a dead worker left unfinished: puts them back on the queue, for any worker
   * of this version. Call it only for a worker you know is dead (two workers running one turn
   * conflict, and one of them fails); a worker restarted with its own id does this by itself.
   * Returns the ids of the turns put back; turns of another version are refused (see
   * {@link refusedTurns}).
   */
  async recoverWorker(workerId: string): Promise<string[]> {
    this.#requireLaunched();
    const turns = await DBOS.listWorkflows({
      workflowName: TURN_WORKFLOW_NAME,
      status: 'PENDING',
      executorId: workerId,
      loadInput: false,
      loadOutput: false,
    });
    const mine = engineVersion(this.#applicationName, this.version);
    const recovered: string[] = [];
    for (const turn of turns) {
      if (turn.applicationVersion !== mine) {
        this.#refuse(turn.workflowID, turn.applicationVersion);
        continue;
      }
      await DBOS.resumeWorkflow(turn.workflowID, { queueName: this.#queueName });
      recovered.push(turn.workflowID);
    }
    return recovered;
  }

  /**
   * Stops taking turns and disconnects. Turns running here stop where they are (their steps so far
   * are recorded) and are recovered by the next worker started with this id, unless
   * `waitForTurnsMs` lets them finish first.
   */
  async shutdown(options: { waitForTurnsMs?: number } = {}): Promise<void> {
    if (launched !== this) return;
    await this.#stop(options.waitForTurnsMs);
  }

  async #stop(waitForTurnsMs?: number): Promise<void> {
    try {
      await this.#client?.close();
      // Also after a launch that failed: it leaves the registry marked as launched.
      await DBOS.shutdown({
        deregister: true,
        ...(waitForTurnsMs === undefined ? {} : { workflowCompletionTimeoutMS: waitForTurnsMs }),
      });
    } finally {
      this.#client = undefined;
      this.#version = undefined;
      if (launched === this) {
        launched = undefined;
        runLaunchedTurn = undefined;
      }
    }
  }

  /** The workflow of one turn (see {@link runTurnWorkflow}): the agent's request, durably. */
  async #runTurn(input: StoredTurnInput): Promise<ChatResponse | null> {
    const turnId = DBOS.workflowID as string;
    const agent = this.#agents.get(input.agent);
    if (agent === undefined) {
      throw new DurableTurnError({
        problem: 'unknown-agent',
        turnId,
        message: `Turn ${turnId} names the agent '${input.agent}', which this worker does not register (it registers: ${[...this.#agents.keys()].join(', ')}).`,
      });
    }
    const version = this.version;
    const startedBy = await DBOS.runStep(async () => version, { name: VERSION_STEP });
    if (startedBy !== version) {
      throw versionMismatch(turnId, startedBy, version);
    }
    const steps = new DbosDurableSteps(turnId, {
      unknownOutcome: agent.options.unknownOutcome ?? this.#options.unknownOutcome ?? 'tool-error',
      approvalTimeoutMs: this.#options.approvalTimeoutMs,
    });
    try {
      const spec = await buildSpec(agent, input);
      const response = input.stream
        ? (await spec.stream({ durable: steps })).chatResponse
        : await spec.call({ durable: steps }).chatResponse();
      await writeEvent({ type: 'end', chatResponse: response });
      await DBOS.closeStream(TURN_EVENTS_STREAM);
      return response;
    } catch (error) {
      try {
        await writeEvent({
          type: 'error',
          message: error instanceof Error ? error.message : String(error),
        });
        await DBOS.closeStream(TURN_EVENTS_STREAM);
      } catch {
        // The turn is cancelled or the engine is stopping: its readers learn it from its status.
      }
      throw error;
    }
  }

  #requireLaunched(): void {
    if (launched !== this || this.#version === undefined) {
      throw new IllegalStateError('The worker is not launched: call launch() first');
    }
  }

  /** Reports the turns found with another version than this worker's. */
  async #refuseOtherVersions(filter: {
    executorId?: string;
    queueName?: string;
    status?: ('PENDING' | 'ENQUEUED')[];
  }): Promise<void> {
    const mine = engineVersion(this.#applicationName, this.version);
    const turns = await DBOS.listWorkflows({
      workflowName: TURN_WORKFLOW_NAME,
      status: filter.status ?? ['PENDING', 'ENQUEUED'],
      ...(filter.executorId === undefined ? {} : { executorId: filter.executorId }),
      ...(filter.queueName === undefined ? {} : { queueName: filter.queueName }),
      loadInput: false,
      loadOutput: false,
    });
    for (const turn of turns) {
      // A turn a client started while no worker ran has no version yet (the engine says null):
      // the first worker of any version to dequeue it gives it its own.
      const version = turn.applicationVersion;
      if (version !== undefined && version !== null && version !== mine) {
        this.#refuse(turn.workflowID, version);
      }
    }
  }

  #refuse(turnId: string, engineVersionName: string | null | undefined): void {
    if (this.#refused.some((refused) => refused.turnId === turnId)) return;
    const version = userVersion(this.#applicationName, engineVersionName);
    const error = versionMismatch(turnId, version, this.version);
    this.#refused.push({ turnId, version, error });
    this.#problem(error, `version:${turnId}`);
  }

  #problem(error: DurableTurnError, key: string): void {
    const now = Date.now();
    if (this.#options.onProblem !== undefined) {
      this.#options.onProblem(error);
      return;
    }
    const last = this.#lastProblem.get(key);
    if (last !== undefined && now - last < PROBLEM_REPEAT_MS) return;
    this.#lastProblem.set(key, now);
    console.warn(`[toolloop durable] ${error.message}`);
  }

  /** DBOS's log lines: the console at the chosen level; a lost database also as a problem. */
  #logger(level: 'debug' | 'info' | 'warn' | 'error'): DLogger {
    const rank = { debug: 0, info: 1, warn: 2, error: 3 }[level];
    const url = this.#options.systemDatabaseUrl;
    const line = (at: number, entry: unknown) => {
      const text = String(entry);
      if (at === 2 && text.startsWith('Database connection failed')) {
        this.#problem(
          new DurableTurnError({
            problem: 'database-unreachable',
            message: `PostgreSQL at ${describeDatabase(url)} cannot be reached (${text.slice('Database connection failed: '.length)}): the turns of this worker wait, and go on by themselves once it answers again; nothing is lost.`,
          }),
          'database',
        );
        return;
      }
      if (at < rank) return;
      const write = at >= 3 ? console.error : at === 2 ? console.warn : console.log;
      write(`[dbos] ${text}`);
    };
    return {
      debug: (entry) => line(0, entry),
      info: (entry) => line(1, entry),
      warn: (entry) => line(2, entry),
      error: (entry) => line(3, entry instanceof Error ? entry.message : entry),
    };
  }

  #derivedVersion(): string {
    const agents = [...this.#agents.entries()]
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
      .map(([name, agent]) => ({
        name,
        system: agent.client.defaults.system ?? null,
        tools: collectToolSources(agent.client.defaults.tools ?? []).callbacks.map((callback) => ({
          ...callback.definition,
          idempotent: callback.metadata.idempotent === true,
          readOnly: callback.metadata.readOnly === true,
        })),
      }));
    return `auto-${createHash('sha256').update(canonicalJson(agents)).digest('hex').slice(0, 12)}`;
  }
}

/** The workflow DBOS runs (and recovers) for every turn: the launched worker's turn runner. */
async function runTurnWorkflow(input: StoredTurnInput): Promise<ChatResponse | null> {
  if (runLaunchedTurn === undefined) {
    throw new IllegalStateError('No DbosTurnWorker is launched in this process');
  }
  return runLaunchedTurn(input);
}

/** The request of a turn: the agent's client with the turn's input. */
async function buildSpec(agent: Agent, input: StoredTurnInput) {
  let spec = agent.client.prompt();
  if (input.system !== undefined) spec = spec.system(input.system);
  if (input.messages !== undefined && input.messages.length > 0)
    spec = spec.messages(input.messages);
  if (input.user !== undefined) spec = spec.user(input.user);
  const workerContext = await agent.options.toolContext?.(input);
  if (input.toolContext !== undefined || workerContext !== undefined) {
    spec = spec.toolContext({ ...input.toolContext, ...workerContext });
  }
  const params = {
    ...input.params,
    ...(input.conversationId === undefined ? {} : { [CONVERSATION_ID]: input.conversationId }),
  };
  if (Object.keys(params).length > 0) spec = spec.advisors((a) => a.params(params));
  if (input.options !== undefined) spec = spec.options(input.options);
  return spec;
}

function writeEvent(event: DurableTurnEvent): Promise<void> {
  return DBOS.writeStream(TURN_EVENTS_STREAM, event);
}

/** The version name DBOS keeps: unique across the applications sharing a system database. */
function engineVersion(applicationName: string, version: string): string {
  return `${applicationName}@${version}`;
}

function userVersion(
  applicationName: string,
  engineVersionName: string | null | undefined,
): string {
  if (engineVersionName === undefined || engineVersionName === null) return '(none)';
  const prefix = `${applicationName}@`;
  return engineVersionName.startsWith(prefix)
    ? engineVersionName.slice(prefix.length)
    : engineVersionName;
}

function versionMismatch(turnId: string, startedBy: string, runs: string): DurableTurnError {
  return new DurableTurnError({
    problem: 'version-mismatch',
    turnId,
    message: `Turn ${turnId} was started by version ${startedBy}, and this worker runs version ${runs}: it is not replayed here (its steps could differ). A worker of version ${startedBy} finishes it.`,
  });
}

function unreachable(url: string, error: unknown): DurableTurnError {
  const reason = withoutCredentials(error instanceof Error ? error.message : String(error), url);
  return new DurableTurnError({
    problem: 'database-unreachable',
    message: `PostgreSQL at ${describeDatabase(url)} cannot be reached: ${reason}. Start it or check systemDatabaseUrl; no turn was started or recovered.`,
    cause: error,
  });
}

/** A logger for DBOS's migration: its progress lines dropped, its warnings and errors shown. */
function quietLogger(): DLogger {
  return {
    debug: () => {},
    info: () => {},
    warn: (entry) => console.warn(`[dbos] ${String(entry)}`),
    error: (entry) =>
      console.error(`[dbos] ${entry instanceof Error ? entry.message : String(entry)}`),
  };
}

/**
 * PostgreSQL's codes for a statement that lost against a concurrent one: a unique key taken at
 * the same moment, a deadlock, a serialization failure.
 */
const CONCURRENT_CODES = new Set(['23505', '40P01', '40001']);

/**
 * Whether a launch failed because another worker was creating the same system tables at that
 * moment (DBOS's migrations are not safe to run concurrently): then a new attempt succeeds.
 */
function isConcurrentMigration(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Object && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && CONCURRENT_CODES.has(code)) return true;
    if (code === 'XX000' && String(message).includes('concurrently')) return true;
    const inner = current as { cause?: unknown; error?: unknown };
    current = inner.cause ?? inner.error;
  }
  return false;
}

function checkPolicy(value: unknown, name: string): void {
  if (value !== undefined && value !== 'tool-error' && value !== 'ask-caller') {
    throw new InvalidArgumentError(`${name} must be 'tool-error' or 'ask-caller'`);
  }
}
