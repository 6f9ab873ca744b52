import type { ChatResponse, Prompt, ToolCallingChatOptions } from '../model/index.js';
import type { TurnEventListener } from '../observability/turn-event.js';
import type { DurableSteps } from './durable-steps.js';

/**
 * What flows down the advisor chain: the prompt, the advisor params (`context`, never sent to the
 * model and distinct from the tool context), the caller's abort signal, and the listeners of the
 * turn's events.
 */
export interface ChatClientRequest {
  /** The loop's request: the model options, the tools to run and the tool context. */
  prompt: Prompt<ToolCallingChatOptions>;
  context: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * Receive the turn's events (the client's and the request's listeners); the tool loop produces
   * them. Absent or empty: no event is built.
   */
  listeners?: readonly TurnEventListener[];
  /**
   * The durable engine running this turn (`toolloop/durable`): the tool loop and the memory
   * advisor run their model calls, tool calls, approval waits and memory reads and writes as its
   * steps. Absent for a turn that lives in one process.
   */
  durable?: DurableSteps;
}

/** What flows back up the advisor chain. `chatResponse` is `null` when no model answered. */
export interface ChatClientResponse {
  chatResponse: ChatResponse | null;
  context: Record<string, unknown>;
}
