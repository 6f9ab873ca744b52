import type { Advisor, ChatClientRequest, ChatClientResponse } from '../advisors/index.js';
import type { ToolApprovalOptions } from '../approval/index.js';
import type { Message } from '../messages/index.js';
import type { ChatResponse, ToolCallingChatOptions } from '../model/index.js';
import type { ToolCallingManager, ToolExecutionResult } from './tool-calling-manager.js';
import type { ToolLoopContext } from './tool-loop-context.js';

/** A hook may answer at once or asynchronously. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * What the loop core needs from its advisor: the settings and the hooks (the advisor's protected
 * `do…` methods, bound once per advisor).
 */
export interface ToolLoopHooks {
  /** The advisor running the loop: each round calls the chain after it. */
  readonly advisor: Advisor;
  readonly maxIterations: number;
  readonly toolCallingManager: ToolCallingManager;
  /** The approval policy and signing key (empty: tools' own `needsApproval` only). */
  readonly approval: ToolApprovalOptions;
  /** Whether the loop executes the tool calls of a (non-null) response. */
  isToolCallResponse(response: ChatResponse): boolean;
  /*
   * The four hooks below are absent when the advisor keeps the default, which returns its input
   * unchanged: the core then skips the call and the `ToolLoopContext` snapshot built for it.
   */
  readonly initialize:
    | ((request: ChatClientRequest, loop: ToolLoopContext) => MaybePromise<ChatClientRequest>)
    | undefined;
  readonly beforeCall:
    | ((request: ChatClientRequest, loop: ToolLoopContext) => MaybePromise<ChatClientRequest>)
    | undefined;
  readonly afterCall:
    | ((response: ChatClientResponse, loop: ToolLoopContext) => MaybePromise<ChatClientResponse>)
    | undefined;
  readonly finalize:
    | ((response: ChatClientResponse, loop: ToolLoopContext) => MaybePromise<ChatClientResponse>)
    | undefined;
  nextInstructions(
    request: ChatClientRequest,
    response: ChatClientResponse,
    result: ToolExecutionResult,
  ): MaybePromise<Message[]>;
  finalAnswerOptions(options: ToolCallingChatOptions): ToolCallingChatOptions;
}

/** Whether a hook answered with something to await (a promise or another thenable). */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
