import type {
  Advisor,
  CallAdvisorChain,
  ChatClientRequest,
  ChatClientResponse,
  StreamAdvisorChain,
} from '../advisors/index.js';
import { isMemoryAdvisor } from '../advisors/index.js';
import { ToolloopError, throwIfAborted } from '../errors/index.js';
import type { Message } from '../messages/index.js';
import type { ChatResponse, Generation } from '../model/index.js';
import type { ToolCallLimitExceededError } from './tool-call-limit-exceeded-error.js';
import type { ExecuteToolCallsOptions, ToolExecutionResult } from './tool-calling-manager.js';
import { buildToolExecutionGenerations } from './tool-execution-result.js';
import { isThenable, type ToolLoopHooks } from './tool-loop-hooks.js';
import type { ToolLoopState } from './tool-loop-state.js';

/**
 * The tool half of a round: the manager executes the response's tool calls. Returns the
 * generations that end the turn (a limit breach, `returnDirect`), or `undefined` after setting up
 * the next round's instructions and the turn's history.
 *
 * This is the one place a batch starts, after the abort check. `deniedToolCalls` (a resumed
 * approval's denials) never run: the manager answers them with the denial text.
 */
export async function runToolRound(
  hooks: ToolLoopHooks,
  state: ToolLoopState,
  roundRequest: ChatClientRequest,
  response: ChatClientResponse,
  deniedToolCalls?: ReadonlyMap<string, string>,
): Promise<Generation[] | undefined> {
  throwIfAborted(state.signal);
  let result: ToolExecutionResult;
  const options = executeOptions(state);
  try {
    result = await hooks.toolCallingManager.executeToolCalls(
      { messages: state.history, options: state.options },
      response.chatResponse as ChatResponse,
      deniedToolCalls === undefined || deniedToolCalls.size === 0
        ? options
        : { ...options, deniedToolCalls },
    );
  } catch (error) {
    if (!isToolCallLimitExceeded(error)) throw error;
    await notifyMemoryOfLoopEnd(
      hooks.advisor,
      state,
      roundRequest,
      error.partialResult.conversationHistory,
    );
    return [error.buildGeneration()];
  }
  state.history = result.conversationHistory;
  if (result.returnDirect) {
    await notifyMemoryOfLoopEnd(hooks.advisor, state, roundRequest, result.conversationHistory);
    return buildToolExecutionGenerations(result);
  }
  const next = hooks.nextInstructions(roundRequest, response, result);
  state.instructions = isThenable(next) ? await next : next;
  return undefined;
}

/** The manager's per-batch options: one shared object per turn unless someone listens or it is durable. */
function executeOptions(state: ToolLoopState): ExecuteToolCallsOptions {
  if (state.durable !== undefined) {
    const options = { ...state.executeOptions, iteration: state.iteration, durable: state.durable };
    return state.events === undefined ? options : { ...options, events: state.events };
  }
  if (state.events === undefined) return state.executeOptions;
  return { ...state.executeOptions, events: state.events, iteration: state.iteration };
}

/**
 * A turn that ends on tool results never sends them downstream, so memory advisors inside the
 * loop are told directly; otherwise they would store nothing of a successful turn.
 */
async function notifyMemoryOfLoopEnd(
  self: Advisor,
  state: ToolLoopState,
  roundRequest: ChatClientRequest,
  history: readonly Message[],
): Promise<void> {
  const advisors: readonly Advisor[] =
    state.mode === 'call'
      ? (state.chain as CallAdvisorChain).callAdvisors
      : (state.chain as StreamAdvisorChain).streamAdvisors;
  const own = advisors.indexOf(self);
  for (let index = own + 1; index < advisors.length; index++) {
    const advisor = advisors[index] as Advisor;
    if (isMemoryAdvisor(advisor) && advisor.onToolLoopEnd) {
      await advisor.onToolLoopEnd(roundRequest, history);
    }
  }
}

function isToolCallLimitExceeded(error: unknown): error is ToolCallLimitExceededError {
  return (
    ToolloopError.isInstance(error) &&
    error.code === 'TOOL_CALL_LIMIT_EXCEEDED' &&
    typeof (error as Partial<ToolCallLimitExceededError>).buildGeneration === 'function'
  );
}
