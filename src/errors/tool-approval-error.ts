import type { ToolInputIssue } from './invalid-tool-input-error.js';
import { ToolloopError } from './toolloop-error.js';

/**
 * Why a resume with approval decisions was refused:
 * - `'malformed-state'`: the pending state is not one toolloop wrote (wrong shape or version);
 * - `'unsigned-state'`: a signing key is configured but the state carries no signature;
 * - `'tampered-state'`: the signature does not match the state (it was changed after signing,
 *   or signed with another key), or the waiting calls do not match the turn's tool calls;
 * - `'unknown-call'`: a decision names a call id the state does not wait for;
 * - `'duplicate-decision'`: two decisions name the same call;
 * - `'missing-decision'`: a call that needs approval has no decision;
 * - `'arguments-mismatch'`: a decision's argument hash is not the hash of the call's arguments
 *   (it was made for other arguments);
 * - `'invalid-decision'`: a decision is not `approve` or `deny`, or its fields have wrong types;
 * - `'invalid-edit'`: edited arguments fail the tool's input schema (see `issues`);
 * - `'conversation-mismatch'`: the state paused in another conversation (or in none) than the
 *   resuming request names with `CONVERSATION_ID`;
 * - `'principal-mismatch'`: the client's `approval.principal` names another principal (or none)
 *   for the resuming request than for the paused one;
 * - `'expired-state'`: the state's `expiresAt` has passed;
 * - `'replayed-state'`: the state's single-use token was already used: it was resumed before.
 */
export type ToolApprovalProblem =
  | 'malformed-state'
  | 'unsigned-state'
  | 'tampered-state'
  | 'unknown-call'
  | 'duplicate-decision'
  | 'missing-decision'
  | 'arguments-mismatch'
  | 'invalid-decision'
  | 'invalid-edit'
  | 'conversation-mismatch'
  | 'principal-mismatch'
  | 'expired-state'
  | 'replayed-state';

/**
 * A paused turn could not be resumed with the given state and decisions. Nothing of the turn ran:
 * the refusal comes before any tool of the batch and before any model call. The message names the
 * call id and tool but never quotes arguments.
 */
export class ToolApprovalError extends ToolloopError {
  /** What was wrong; stable values to branch on. */
  readonly problem: ToolApprovalProblem;
  /** The call the problem concerns, when it concerns one. */
  readonly toolCallId?: string;
  /** The tool of that call, when known. */
  readonly toolName?: string;
  /** For `'invalid-edit'`: the schema problems of the edited arguments. */
  readonly issues: readonly ToolInputIssue[];

  constructor(options: {
    problem: ToolApprovalProblem;
    message: string;
    toolCallId?: string;
    toolName?: string;
    issues?: readonly ToolInputIssue[];
    cause?: unknown;
  }) {
    super({ code: 'TOOL_APPROVAL_REFUSED', message: options.message, cause: options.cause });
    this.problem = options.problem;
    if (options.toolCallId !== undefined) this.toolCallId = options.toolCallId;
    if (options.toolName !== undefined) this.toolName = options.toolName;
    this.issues = options.issues ?? [];
  }
}
