import type { DurableSteps } from '../advisors/index.js';
import type { Message } from '../messages/index.js';
import type { ChatResponse, Prompt, ToolCallingChatOptions } from '../model/index.js';
import type { TurnEventEmitter } from '../observability/turn-event-emitter.js';
import type { ToolDefinition } from '../tools/tool-callback.js';

/** The outcome of one batch of tool calls. */
export interface ToolExecutionResult {
  /** The prompt's messages + the assistant message with the calls + one tool response message. */
  conversationHistory: Message[];
  /**
   * True only when every call of the batch ran and succeeded with a `returnDirect` tool; one call
   * answered with an error result (rejected, timed out, failed) sends the results to the model.
   */
  returnDirect: boolean;
}

/** Per-call options of {@link ToolCallingManager.executeToolCalls}. */
export interface ExecuteToolCallsOptions {
  signal?: AbortSignal;
  /**
   * The caller's data for the tools, beside the prompt rather than in it: a loop you drive
   * yourself sends the same prompt to the model (which cannot take a context) and to the
   * manager. Merged over the prompt's `toolContext` (these entries win).
   */
  toolContext?: Readonly<Record<string, unknown>>;
  /**
   * Calls a human denied (call id → the error text the model receives): they never run and are
   * answered with that text as an error result. A custom manager must honour it.
   */
  deniedToolCalls?: ReadonlyMap<string, string>;
  /**
   * Receives the batch's events (`tool-execution-start`, `tool-progress`, `tool-result` for every
   * call, `limit-exceeded`); the tool loop passes its turn's emitter when someone listens.
   */
  events?: TurnEventEmitter;
  /** The loop round the batch belongs to, stamped on its events. Default 1. */
  iteration?: number;
  /**
   * The durable engine of the turn (`ChatClientRequest.durable`): every executed call runs as one
   * of its steps (see `DurableSteps.runToolCall`), with its idempotency key in the tool context.
   * A custom manager must honour it, or a turn recovered after a crash runs its tools again.
   */
  durable?: DurableSteps;
}

/**
 * Executes the tool calls a model requested. Stateless: limits are recomputed from the prompt on
 * every call, so one manager serves any number of concurrent conversations.
 */
export interface ToolCallingManager {
  /** The definitions of the tools attached to `options`, in order. */
  resolveToolDefinitions(options: ToolCallingChatOptions): ToolDefinition[];
  /**
   * Executes the calls of the first generation that has any and returns the extended history.
   * Every call id gets exactly one tool response.
   */
  executeToolCalls(
    prompt: Prompt<ToolCallingChatOptions>,
    chatResponse: ChatResponse,
    options?: ExecuteToolCallsOptions,
  ): Promise<ToolExecutionResult>;
}
