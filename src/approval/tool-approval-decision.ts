import type { PendingToolCall } from './pending-tool-approval.js';

/** Approves one waiting call, with its arguments as shown or with edited ones. */
export interface ApproveToolCallDecision {
  readonly type: 'approve';
  /** The id of the waiting call. */
  readonly toolCallId: string;
  /** The `argumentsHash` of the waiting call: the arguments the human saw. */
  readonly argumentsHash: string;
  /**
   * Edited arguments to run the call with instead. They are checked against the tool's input
   * schema when the turn resumes; invalid ones refuse the resume before anything runs. The model
   * sees the call with these arguments in the transcript. For an augmented tool, give the tool's
   * own arguments: the extra fields the model wrote (its reasoning, say) are kept unless the edit
   * gives them too (see `ToolCallback.completeEditedArguments`).
   */
  readonly arguments?: Record<string, unknown>;
}

/** Denies one waiting call: it never runs, and the model receives an error result with the reason. */
export interface DenyToolCallDecision {
  readonly type: 'deny';
  readonly toolCallId: string;
  readonly argumentsHash: string;
  /** Told to the model in the call's error result. */
  readonly reason?: string;
}

/** A human's decision on one waiting call; plain JSON, so it can come from a browser. */
export type ToolApprovalDecision = ApproveToolCallDecision | DenyToolCallDecision;

/**
 * The decision approving `call`, bound to its id and argument hash; with `arguments`, the call
 * runs with those instead (checked against the tool's schema at resume).
 */
export function approveToolCall(
  call: PendingToolCall,
  options: { arguments?: Record<string, unknown> } = {},
): ApproveToolCallDecision {
  return {
    type: 'approve',
    toolCallId: call.id,
    argumentsHash: call.argumentsHash,
    ...(options.arguments === undefined ? {} : { arguments: options.arguments }),
  };
}

/** The decision denying `call`, bound to its id and argument hash; `reason` goes to the model. */
export function denyToolCall(call: PendingToolCall, reason?: string): DenyToolCallDecision {
  return {
    type: 'deny',
    toolCallId: call.id,
    argumentsHash: call.argumentsHash,
    ...(reason === undefined ? {} : { reason }),
  };
}
