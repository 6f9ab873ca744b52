import { ToolloopError } from '../errors/index.js';

/**
 * What went wrong with a durable turn or its engine:
 * - `'database-unreachable'`: the engine's PostgreSQL cannot be reached (at start, or mid-turn:
 *   then the turns of the worker wait and go on by themselves once it answers again);
 * - `'version-mismatch'`: the turn was started by another code version than this worker runs; it
 *   is left for a worker of that version, never replayed here;
 * - `'unknown-agent'`: the turn names an agent this worker does not register;
 * - `'turn-failed'`: the turn ended with an error (its message says which);
 * - `'turn-cancelled'`: the turn was cancelled;
 * - `'timeout'`: waiting for the turn's result took longer than asked;
 * - `'not-found'`: no turn has this id;
 * - `'invalid-input'`: the turn's input is not what a turn takes (see `DurableTurnInput`).
 */
export type DurableTurnProblem =
  | 'database-unreachable'
  | 'version-mismatch'
  | 'unknown-agent'
  | 'turn-failed'
  | 'turn-cancelled'
  | 'timeout'
  | 'not-found'
  | 'invalid-input';

/** A durable turn, or the engine running it, reports a problem (see {@link DurableTurnProblem}). */
export class DurableTurnError extends ToolloopError {
  /** What was wrong; stable values to branch on. */
  readonly problem: DurableTurnProblem;
  /** The turn the problem concerns, when it concerns one. */
  readonly turnId?: string;

  constructor(options: {
    problem: DurableTurnProblem;
    message: string;
    turnId?: string;
    cause?: unknown;
  }) {
    super({ code: 'DURABLE_TURN_FAILED', message: options.message, cause: options.cause });
    this.problem = options.problem;
    if (options.turnId !== undefined) this.turnId = options.turnId;
  }
}
