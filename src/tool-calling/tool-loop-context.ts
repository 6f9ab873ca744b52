import type { CallAdvisorChain, StreamAdvisorChain } from '../advisors/index.js';
import type { Message } from '../messages/index.js';

/** What every hook of the tool loop learns about the loop, in either mode. */
interface ToolLoopContextBase {
  /**
   * Rounds started so far: `0` in `doInitializeLoop`, the 1-based number of the current round in
   * `doBeforeCall` / `doAfterCall`, and the number of model calls made in `doFinalizeLoop`.
   */
  readonly iteration: number;
  /** The advisor's cap on rounds that execute tools. */
  readonly maxIterations: number;
  /**
   * True for the one extra model call made after `maxIterations` tool rounds: it runs with tools
   * turned off (the loop turns them off after `doBeforeCall`, so a hook cannot turn them back on).
   */
  readonly finalAnswer: boolean;
  /**
   * The whole conversation of this turn so far, untrimmed: what the `ToolCallingManager` sees and
   * counts limits on, also when internal history is disabled and a round's prompt carries only the
   * latest tool results.
   */
  readonly conversationHistory: readonly Message[];
  /** The caller's abort signal. */
  readonly signal: AbortSignal | undefined;
}

/** The loop context of a blocking call. */
export interface CallToolLoopContext extends ToolLoopContextBase {
  readonly mode: 'call';
  /** The chain the advisor was called with (the whole chain at this advisor's position). */
  readonly chain: CallAdvisorChain;
}

/** The loop context of a stream. */
export interface StreamToolLoopContext extends ToolLoopContextBase {
  readonly mode: 'stream';
  /** The chain the advisor was called with (the whole chain at this advisor's position). */
  readonly chain: StreamAdvisorChain;
}

/**
 * What a tool-loop hook receives beside the request or response: the mode, the chain, the round
 * number and the turn's full history. Each hook call gets a fresh snapshot; keeping it does not
 * track later rounds.
 */
export type ToolLoopContext = CallToolLoopContext | StreamToolLoopContext;
