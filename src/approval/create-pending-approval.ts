import type { Message } from '../messages/index.js';
import type { Usage } from '../model/index.js';
import { signPendingApproval } from './pending-approval-signature.js';
import {
  PENDING_TOOL_APPROVAL_TYPE,
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
}

/**
 * The pending state of a paused batch: a deep plain-JSON copy of what the loop needs to continue,
 * signed when a key is given. Copying through JSON proves the state is JSON now, not when it is
 * stored later.
 */
export function createPendingApproval(input: PendingApprovalInput): PendingToolApproval {
  const unsigned: Omit<PendingToolApproval, 'signature'> = JSON.parse(
    JSON.stringify({
      type: PENDING_TOOL_APPROVAL_TYPE,
      version: 1,
      turnId: input.turnId,
      iteration: input.iteration,
      messages: input.messages,
      turn: input.turn,
      toolCalls: input.toolCalls,
      ...(input.usage === undefined ? {} : { usage: input.usage }),
      createdAt: new Date().toISOString(),
    }),
  );
  if (input.signingKey === undefined) return unsigned as PendingToolApproval;
  return { ...unsigned, signature: signPendingApproval(unsigned, input.signingKey) };
}
