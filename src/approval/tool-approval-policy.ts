import { InvalidArgumentError } from '../errors/index.js';
import type { ToolCall } from '../messages/index.js';
import type { ToolContext, ToolDefinition, ToolMetadata } from '../tools/index.js';
import type { ApprovalTokenStore } from './approval-token-store.js';
import { checkSigningKey } from './pending-approval-signature.js';

/** What a {@link ToolApprovalPolicy} is told about one call. */
export interface ToolApprovalRequest {
  /** The call as the model wrote it. */
  readonly toolCall: ToolCall;
  readonly definition: ToolDefinition;
  /** The tool's metadata: `readOnly`, `destructive`, `idempotent`, `openWorld` (MCP annotations arrive here). */
  readonly metadata: ToolMetadata;
  /** The arguments, parsed and checked against the tool's input schema. */
  readonly input: Record<string, unknown>;
  /** The caller's context map, the call id and the turn so far. */
  readonly context: ToolContext;
}

/**
 * Decides for a whole client which calls need approval, for tools that do not state
 * `needsApproval` themselves (a tool's own setting wins, `false` included).
 */
export type ToolApprovalPolicy = (request: ToolApprovalRequest) => boolean | Promise<boolean>;

/** Ready-made policies built on the tool metadata hints. */
export const ToolApprovalPolicies = Object.freeze({
  /** Every call of a tool marked `destructive: true` (MCP `destructiveHint: true`). */
  destructive: ((request) => request.metadata.destructive === true) as ToolApprovalPolicy,
  /** Every call of a tool not marked `readOnly: true` (MCP `readOnlyHint`). */
  unlessReadOnly: ((request) => request.metadata.readOnly !== true) as ToolApprovalPolicy,
  /** Every call of a tool not marked `readOnly` or `idempotent` (safe to repeat). */
  unlessReadOnlyOrIdempotent: ((request) =>
    request.metadata.readOnly !== true &&
    request.metadata.idempotent !== true) as ToolApprovalPolicy,
  /** Every call. */
  always: (() => true) as ToolApprovalPolicy,
});

/** How a tool loop handles approval (`ChatClientOptions.approval`, `ToolCallingAdvisorOptions.approval`). */
export interface ToolApprovalOptions {
  /** Decides for tools without their own `needsApproval`. Default: none (no approval). */
  policy?: ToolApprovalPolicy | undefined;
  /**
   * Signs every pending state (HMAC-SHA-256) and, on resume, refuses a state that is unsigned or
   * whose signature does not match. Use it whenever the state passes through hands you do not
   * trust (a browser): without it, a changed transcript, conversation, expiry or token cannot be
   * detected. At least 32 bytes.
   */
  signingKey?: string | Uint8Array | undefined;
  /**
   * How long a pending state may wait for its decisions, in milliseconds; a resume after that is
   * refused (`'expired-state'`). Default 24 hours.
   */
  stateTtlMs?: number | undefined;
  /**
   * Names who a turn runs for (a user or tenant id), from the request's tool context and advisor
   * params. The name goes into the pending state, and a resume that names another one, or none, is
   * refused (`'principal-mismatch'`). Default: none (states are bound to their conversation only).
   */
  principal?:
    | ((
        toolContext: Readonly<Record<string, unknown>>,
        params: Readonly<Record<string, unknown>>,
      ) => string | undefined)
    | undefined;
  /**
   * Where the single-use token of each state is marked used when its resume runs; a second resume
   * is refused (`'replayed-state'`). Every toolloop chat memory repository is one: pass the one
   * you have (Redis, PostgreSQL, SQLite) so that a replay is caught in every process. Default: a
   * set in this process (replays through another process, or after a restart, are not caught).
   */
  tokenStore?: ApprovalTokenStore | undefined;
}

/** Default {@link ToolApprovalOptions.stateTtlMs}: 24 hours. */
export const DEFAULT_APPROVAL_STATE_TTL_MS = 24 * 60 * 60 * 1000;

/** The longest {@link ToolApprovalOptions.stateTtlMs}: 10 years (an expiry must stay a date). */
const MAX_STATE_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000;

/**
 * Checks approval options where they are configured (a client, a tool advisor).
 * @throws InvalidArgumentError naming the first bad field.
 */
export function checkApprovalOptions(approval: unknown): ToolApprovalOptions | undefined {
  if (approval === undefined) return undefined;
  if (approval === null || typeof approval !== 'object') {
    throw new InvalidArgumentError('approval must be an object');
  }
  const options = approval as ToolApprovalOptions;
  if (options.policy !== undefined && typeof options.policy !== 'function') {
    throw new InvalidArgumentError('approval.policy must be a function');
  }
  checkSigningKey(options.signingKey);
  const ttl = options.stateTtlMs;
  if (ttl !== undefined && (typeof ttl !== 'number' || !(ttl > 0) || !(ttl <= MAX_STATE_TTL_MS))) {
    throw new InvalidArgumentError(
      'approval.stateTtlMs must be a number of milliseconds above 0 and at most 10 years',
    );
  }
  if (options.principal !== undefined && typeof options.principal !== 'function') {
    throw new InvalidArgumentError('approval.principal must be a function');
  }
  const store = options.tokenStore;
  if (store !== undefined && (store === null || typeof store.consumeApprovalToken !== 'function')) {
    throw new InvalidArgumentError(
      'approval.tokenStore must have consumeApprovalToken(token, expiresAt) (every toolloop chat memory repository has)',
    );
  }
  return options;
}
