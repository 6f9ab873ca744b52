import type { ToolCall } from '../messages/index.js';
import type { ToolContext, ToolDefinition, ToolMetadata } from '../tools/index.js';

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
  policy?: ToolApprovalPolicy;
  /**
   * Signs every pending state (HMAC-SHA-256) and, on resume, refuses a state that is unsigned or
   * whose signature does not match. Use it whenever the state passes through hands you do not
   * trust (a browser): without it, a changed transcript cannot be detected. At least 32 bytes.
   */
  signingKey?: string | Uint8Array;
}
