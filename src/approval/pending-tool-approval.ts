import type { ChatClientResponse } from '../advisors/index.js';
import type { Message } from '../messages/index.js';
import type { ChatResponse, Usage } from '../model/index.js';

/** The `type` tag of every {@link PendingToolApproval}. */
export const PENDING_TOOL_APPROVAL_TYPE = 'toolloop.pending-tool-approval';

/** Key of the pending state in the paused response's `chatResponse.metadata`. */
export const PENDING_APPROVAL_METADATA_KEY = 'pendingApproval';

/** One call that waits for a decision. */
export interface PendingToolCall {
  /** The call id the model gave; a decision names it. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** The arguments, parsed and checked against the tool's input schema. */
  readonly arguments: Record<string, unknown>;
  /**
   * SHA-256 (hex) of the canonical JSON of `arguments`: a decision carries it, so it cannot
   * approve other arguments than the ones shown.
   */
  readonly argumentsHash: string;
}

/** The `version` of the {@link PendingToolApproval} this toolloop writes and reads. */
export const PENDING_TOOL_APPROVAL_VERSION = 2;

/**
 * A turn paused for approval, as plain JSON: store it (a database row, a file), send it to a
 * browser, and resume it later, in this process or another, with `client.resume(state,
 * decisions)`. It never holds the tool context, tools or options: the resuming request supplies
 * those again.
 *
 * It is bound (inside the signature, when the client signs): to the conversation it paused in and
 * the principal the client names, so it resumes nowhere else; to an expiry; and to a single-use
 * token, marked used in the client's token store when the resume runs, so it runs once.
 */
export interface PendingToolApproval {
  readonly type: typeof PENDING_TOOL_APPROVAL_TYPE;
  readonly version: typeof PENDING_TOOL_APPROVAL_VERSION;
  /** The tool loop's turn id; the resumed turn keeps it (a memory advisor in the loop needs it). */
  readonly turnId: string;
  /** The loop iteration (model call of the turn, from 1) whose tool calls wait. */
  readonly iteration: number;
  /** The request's messages as the tool loop received them (system, history, user turn). */
  readonly messages: readonly Message[];
  /**
   * What the loop added to the turn since: earlier tool rounds (assistant message, tool results)
   * and, last, the assistant message whose calls wait.
   */
  readonly turn: readonly Message[];
  /** The calls of that assistant message that wait for a decision (the others run at resume). */
  readonly toolCalls: readonly PendingToolCall[];
  /** Token usage of the turn's model calls so far. */
  readonly usage?: Usage;
  /** When the turn paused (ISO 8601). */
  readonly createdAt: string;
  /**
   * After this (ISO 8601) the state is refused: `approval.stateTtlMs` after `createdAt`, or, in a
   * durable turn, as long as its engine waits for the decision.
   */
  readonly expiresAt: string;
  /**
   * The conversation the turn paused in (the `CONVERSATION_ID` advisor param); absent when it had
   * none. A resume must name the same one.
   */
  readonly conversationId?: string;
  /** Who paused it, as `approval.principal` named them; a resume must name the same one. */
  readonly principal?: string;
  /** The single-use token (128 random bits, base64url): a resume marks it used. */
  readonly nonce: string;
  /**
   * HMAC-SHA-256 (base64url) over the canonical JSON of every other field, when the client has a
   * signing key. A resume with that key refuses a state whose signature does not match.
   */
  readonly signature?: string;
}

/**
 * The pending state a paused turn returned, or `undefined` when the turn did not pause. Takes the
 * response of `.call()` (a `ChatClientResponse`), its `chatResponse`, or the last chunk of a
 * stream.
 */
export function pendingApprovalOf(
  response: ChatClientResponse | ChatResponse | null | undefined,
): PendingToolApproval | undefined {
  if (response == null) return undefined;
  const chatResponse =
    'chatResponse' in response ? response.chatResponse : (response as ChatResponse);
  const value = chatResponse?.metadata?.[PENDING_APPROVAL_METADATA_KEY];
  return isPendingToolApprovalShape(value) ? value : undefined;
}

/** Whether `value` has the outer shape of a {@link PendingToolApproval} (type tag and version). */
export function isPendingToolApprovalShape(value: unknown): value is PendingToolApproval {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === PENDING_TOOL_APPROVAL_TYPE
  );
}

/**
 * Advisor param under which a resumed request carries `{ state, decisions }` to the tool loop
 * (set by `ChatClient.resume`). Plain JSON, no secret.
 */
export const TOOL_APPROVAL_RESUME = 'toolloop.approval.resume';

/** What {@link TOOL_APPROVAL_RESUME} holds. */
export interface ToolApprovalResume {
  readonly state: PendingToolApproval;
  readonly decisions: readonly unknown[];
}
