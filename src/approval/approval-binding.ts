import { conversationIdText } from '../advisors/conversation-id.js';
import { CONVERSATION_ID } from '../advisors/index.js';
import { InvalidArgumentError, ToolApprovalError } from '../errors/index.js';
import type { PendingToolApproval } from './pending-tool-approval.js';
import type { ToolApprovalOptions } from './tool-approval-policy.js';

/** Whom a turn runs for: what a pending state is bound to, read from one request. */
export interface ApprovalBinding {
  /** The request's `CONVERSATION_ID` advisor param, as text; absent when it has none. */
  readonly conversationId?: string;
  /** What `approval.principal` names for the request; absent without one. */
  readonly principal?: string;
}

/**
 * The binding of a request: its conversation id and, when the client names principals, its
 * principal. Computed the same way when a turn pauses and when it resumes.
 * @throws InvalidArgumentError when the conversation id is not a string or a number, or
 *   `approval.principal` returns something other than a string or `undefined`; what it throws
 *   ends the turn.
 */
export function approvalBindingOf(
  options: ToolApprovalOptions,
  params: Readonly<Record<string, unknown>>,
  toolContext: Readonly<Record<string, unknown>> | undefined,
): ApprovalBinding {
  const conversationId = conversationIdText(params[CONVERSATION_ID]);
  const principal = options.principal?.(toolContext ?? {}, params);
  if (principal !== undefined && typeof principal !== 'string') {
    throw new InvalidArgumentError('approval.principal must return a string or undefined');
  }
  return {
    ...(conversationId === undefined ? {} : { conversationId }),
    ...(principal === undefined ? {} : { principal }),
  };
}

/**
 * Refuses to resume a state in another conversation, for another principal, or after its expiry.
 * The messages never quote the ids: they may name users.
 * @throws ToolApprovalError (`conversation-mismatch`, `principal-mismatch`, `expired-state`).
 */
export function checkApprovalBinding(
  state: PendingToolApproval,
  binding: ApprovalBinding,
  now: number = Date.now(),
): void {
  if (state.conversationId !== binding.conversationId) {
    throw new ToolApprovalError({
      problem: 'conversation-mismatch',
      message:
        state.conversationId === undefined
          ? 'The pending approval state paused outside any conversation, but the resuming request names one (CONVERSATION_ID): refused.'
          : binding.conversationId === undefined
            ? 'The pending approval state belongs to a conversation, but the resuming request names none (set CONVERSATION_ID as when it paused): refused.'
            : 'The pending approval state belongs to another conversation than the resuming request (CONVERSATION_ID): refused.',
    });
  }
  if (state.principal !== binding.principal) {
    throw new ToolApprovalError({
      problem: 'principal-mismatch',
      message:
        'The pending approval state was paused for another principal than the one approval.principal names for the resuming request: refused.',
    });
  }
  if (!(now < Date.parse(state.expiresAt))) {
    throw new ToolApprovalError({
      problem: 'expired-state',
      message: `The pending approval state expired at ${state.expiresAt} (approval.stateTtlMs after it paused): refused. Run the turn again.`,
    });
  }
}
