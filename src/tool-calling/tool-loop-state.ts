import type { CallAdvisorChain, DurableSteps, StreamAdvisorChain } from '../advisors/index.js';
import type { Message } from '../messages/index.js';
import type { ToolCallingChatOptions } from '../model/index.js';
import type { TurnEventEmitter } from '../observability/turn-event-emitter.js';
import type { ExecuteToolCallsOptions } from './tool-calling-manager.js';
import type { TurnApproval } from './tool-loop-approval.js';
import type { ToolLoopContext } from './tool-loop-context.js';
import type { UsageAccumulator } from './usage-accumulator.js';

/**
 * The state of one turn of the tool loop (one `.call()`, or one iteration of a stream). Created
 * once per turn and updated in place round after round, so a round allocates no state of its own.
 */
export interface ToolLoopState {
  readonly mode: 'call' | 'stream';
  readonly chain: CallAdvisorChain | StreamAdvisorChain;
  readonly signal: AbortSignal | undefined;
  /** The initialized request's advisor params; every round gets a fresh shallow copy. */
  context: Record<string, unknown>;
  readonly usage: UsageAccumulator;
  /** The turn's event emitter; `undefined` when nobody listens (then no event is built). */
  readonly events: TurnEventEmitter | undefined;
  /** What the manager is called with when nobody listens: the same object every round. */
  readonly executeOptions: ExecuteToolCallsOptions;
  /** `performance.now()` when the turn began (only measured when someone listens). */
  readonly startedAt: number;
  readonly maxIterations: number;
  /** The turn's id: every round's context carries it; a resumed turn keeps the paused one's. */
  readonly turnId: string;
  /** Approval within this turn: where the turn started, and the resume it continues. */
  readonly approval: TurnApproval;
  /** The durable engine the turn's steps run on; `undefined` for a turn of one process. */
  readonly durable: DurableSteps | undefined;
  /** What the next round sends. */
  instructions: Message[];
  /** Options as last seen after `doBeforeCall`: hook changes carry to later rounds. */
  options: ToolCallingChatOptions;
  /** The whole turn, untrimmed: what the manager sees. */
  history: Message[];
  /** Model calls started so far. */
  iteration: number;
  /** True for the one tools-off call after `maxIterations` tool rounds. */
  finalAnswer: boolean;
}

/** The snapshot a hook receives (see {@link ToolLoopContext}). */
export function toolLoopContext(state: ToolLoopState): ToolLoopContext {
  // Plain literals, no spread: this runs several times per round.
  return state.mode === 'call'
    ? {
        iteration: state.iteration,
        maxIterations: state.maxIterations,
        finalAnswer: state.finalAnswer,
        conversationHistory: state.history,
        signal: state.signal,
        mode: 'call',
        chain: state.chain as CallAdvisorChain,
      }
    : {
        iteration: state.iteration,
        maxIterations: state.maxIterations,
        finalAnswer: state.finalAnswer,
        conversationHistory: state.history,
        signal: state.signal,
        mode: 'stream',
        chain: state.chain as StreamAdvisorChain,
      };
}
