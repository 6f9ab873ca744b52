import { randomBytes } from 'node:crypto';
import type { Message } from '../messages/index.js';
import type { Usage } from '../model/index.js';
import type { ApprovalBinding } from './approval-binding.js';
import { signPendingApproval } from './pending-approval-signature.js';
import {
  PENDING_TOOL_APPROVAL_TYPE,
  PENDING_TOOL_APPROVAL_VERSION,
  type PendingToolApproval,
  type PendingToolCall,
} from './pending-tool-approval.js';

/** What the loop knows when a batch pauses. */
export interface PendingApprovalInput {
  readonly turnId: string;
  readonly iteration: number;
  /** The request's messages as the loop received them. */
  readonly messages: readonly Message[];
  /** Added by the loop since, ending with the assistant message whose calls wait. */
  readonly turn: readonly Message[];
  readonly toolCalls: readonly PendingToolCall[];
  readonly usage: Usage | undefined;
  readonly signingKey: string | Uint8Array | undefined;
  /** The conversation and principal the state is bound to. */
  readonly binding: ApprovalBinding;
  /** How long the state may wait for its decisions, in milliseconds. */
  readonly ttlMs: number;
}

/**
 * The pending state of a paused batch: a deep plain-JSON copy of what the loop needs to continue,
 * bound to its conversation and principal, an expiry and a fresh single-use token, and signed
 * when a key is given. Copying through JSON proves the state is JSON now, not when it is stored
 * later.
 */
export function createPendingApproval(input: PendingApprovalInput): PendingToolApproval {
  const now = Date.now();
  const unsigned: Omit<PendingToolApproval, 'signature'> = JSON.parse(
    JSON.stringify({
      type: PENDING_TOOL_APPROVAL_TYPE,
      version: PENDING_TOOL_APPROVAL_VERSION,
      turnId: input.turnId,
      iteration: input.iteration,
      messages: input.messages,
      turn: input.turn,
      toolCalls: input.toolCalls,
      ...(input.usage === undefined ? {} : { usage: input.usage }),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + input.ttlMs).toISOString(),
      ...input.binding,
      nonce: randomBytes(16).toString('base64url'),
    }),
  );
  if (input.signingKey === undefined) return unsigned as PendingToolApproval;
  return { ...unsigned, signature: signPendingApproval(unsigned, input.signingKey) };
}
