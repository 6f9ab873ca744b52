import { ToolApprovalError, type ToolApprovalProblem } from '../errors/index.js';
import type { AssistantMessage, Message, ToolCall } from '../messages/index.js';
import { parseToolArguments, type ToolCallback, validateJsonSchema } from '../tools/index.js';
import { hashToolArguments } from './canonical-json.js';
import { hasValidSignature } from './pending-approval-signature.js';
import {
  PENDING_TOOL_APPROVAL_TYPE,
  PENDING_TOOL_APPROVAL_VERSION,
  type PendingToolApproval,
  type PendingToolCall,
} from './pending-tool-approval.js';
import type { ToolApprovalDecision } from './tool-approval-decision.js';

/** A pending state and its decisions, checked and ready for the loop. */
export interface ResolvedToolApproval {
  /** The assistant message whose calls waited, with approved edits written into its calls. */
  readonly assistant: AssistantMessage;
  /** Denied call ids and the error text the model receives for each. */
  readonly denied: ReadonlyMap<string, string>;
}

function refuse(
  problem: ToolApprovalProblem,
  message: string,
  extra: {
    toolCallId?: string;
    toolName?: string;
    issues?: { path: string; message: string }[];
  } = {},
): never {
  throw new ToolApprovalError({ problem, message, ...extra });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a pending state before a resume: its shape, its signature when a key is configured, and
 * that the waiting calls are the calls of the turn's last assistant message with the same
 * arguments. Returns it typed.
 * @throws ToolApprovalError (`malformed-state`, `unsigned-state`, `tampered-state`).
 */
export function readPendingApproval(
  value: unknown,
  signingKey: string | Uint8Array | undefined,
): PendingToolApproval {
  const malformed = (what: string): never =>
    refuse('malformed-state', `The pending approval state is malformed: ${what}.`);
  if (!isRecord(value) || value.type !== PENDING_TOOL_APPROVAL_TYPE) {
    malformed(`it is not a ${PENDING_TOOL_APPROVAL_TYPE} object`);
  }
  const state = value as Record<string, unknown>;
  if (state.version === 1) {
    refuse(
      'malformed-state',
      'The pending approval state has version 1 (written by an older toolloop): it is bound to no conversation, has no expiry and no single-use token, so it is refused. Run the turn again.',
    );
  }
  if (state.version !== PENDING_TOOL_APPROVAL_VERSION) malformed('unsupported version');
  if (typeof state.turnId !== 'string' || state.turnId === '') malformed('turnId');
  if (!Number.isInteger(state.iteration) || (state.iteration as number) < 1) {
    malformed('iteration');
  }
  if (!Array.isArray(state.messages) || !state.messages.every(isRecord)) malformed('messages');
  if (!Array.isArray(state.turn) || !state.turn.every(isRecord)) malformed('turn');
  if (!Array.isArray(state.toolCalls) || state.toolCalls.length === 0) malformed('toolCalls');
  if (!isTimestamp(state.createdAt)) malformed('createdAt');
  if (!isTimestamp(state.expiresAt)) malformed('expiresAt');
  if (typeof state.nonce !== 'string' || !/^[\w-]{16,128}$/.test(state.nonce)) malformed('nonce');
  for (const key of ['conversationId', 'principal']) {
    if (state[key] !== undefined && typeof state[key] !== 'string') malformed(key);
  }
  for (const call of state.toolCalls as unknown[]) {
    if (
      !isRecord(call) ||
      typeof call.id !== 'string' ||
      typeof call.name !== 'string' ||
      !isRecord(call.arguments) ||
      typeof call.argumentsHash !== 'string'
    ) {
      malformed('a waiting tool call');
    }
  }
  if (signingKey !== undefined) {
    if (state.signature === undefined) {
      refuse(
        'unsigned-state',
        'The pending approval state is not signed, but this client signs its states: refused.',
      );
    }
    if (!hasValidSignature(state as unknown as PendingToolApproval, signingKey)) {
      refuse(
        'tampered-state',
        'The pending approval state does not match its signature: it was changed after it was signed (or signed with another key). Refused.',
      );
    }
  }
  const checked = state as unknown as PendingToolApproval;
  const assistant = batchMessage(checked);
  if (assistant === undefined) malformed('the turn does not end with the assistant tool calls');
  for (const pending of checked.toolCalls) {
    const call = (assistant as AssistantMessage).toolCalls.find((c) => c.id === pending.id);
    const parsed = call === undefined ? undefined : parseToolArguments(call.arguments);
    if (
      call === undefined ||
      call.name !== pending.name ||
      parsed === undefined ||
      !parsed.ok ||
      hashToolArguments(parsed.value) !== pending.argumentsHash ||
      hashToolArguments(pending.arguments) !== pending.argumentsHash
    ) {
      refuse(
        'tampered-state',
        `The pending approval state is inconsistent: waiting call '${pending.id}' does not match the tool call of the turn. Refused.`,
        { toolCallId: pending.id, toolName: pending.name },
      );
    }
  }
  return checked;
}

function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

/** The assistant message whose calls wait: the last message of the turn. */
export function batchMessage(state: PendingToolApproval): AssistantMessage | undefined {
  const last = state.turn[state.turn.length - 1] as Message | undefined;
  return last?.role === 'assistant' && Array.isArray(last.toolCalls) && last.toolCalls.length > 0
    ? last
    : undefined;
}

/** The text a denied call's error result carries to the model. */
export function deniedToolCallText(toolName: string, reason: string | undefined): string {
  const because = reason === undefined || reason.trim() === '' ? '' : ` Reason: ${reason.trim()}`;
  return `Tool call not executed: the user denied this call of tool '${toolName}'.${because}`;
}

/**
 * Applies decisions to a checked state. Every call that waits in the state, and every call that
 * needs approval now (`stillNeeded`, the gate run again with the resuming request's tools and
 * policy), must have exactly one decision bound to its id and argument hash. Edited arguments are
 * checked against the tool's input schema.
 * @throws ToolApprovalError before anything runs, for any problem.
 */
export function applyApprovalDecisions(input: {
  readonly state: PendingToolApproval;
  readonly decisions: unknown;
  readonly callbacks: readonly ToolCallback[];
  readonly stillNeeded: readonly PendingToolCall[];
}): ResolvedToolApproval {
  const { state, callbacks } = input;
  const assistant = batchMessage(state) as AssistantMessage;
  if (!Array.isArray(input.decisions)) {
    refuse('invalid-decision', 'Approval decisions must be an array.');
  }
  const waiting = new Map(state.toolCalls.map((call) => [call.id, call]));
  const decided = new Map<string, ToolApprovalDecision>();
  for (const raw of input.decisions as unknown[]) {
    if (!isRecord(raw) || typeof raw.toolCallId !== 'string') {
      refuse('invalid-decision', 'An approval decision must be an object with a toolCallId.');
    }
    const decision = raw as unknown as ToolApprovalDecision;
    const call = waiting.get(decision.toolCallId);
    if (call === undefined) {
      refuse(
        'unknown-call',
        `An approval decision names tool call '${decision.toolCallId}', which does not wait for approval in this state.`,
        { toolCallId: decision.toolCallId },
      );
    }
    const ids = { toolCallId: call.id, toolName: call.name };
    if (decided.has(call.id)) {
      refuse('duplicate-decision', `Tool call '${call.id}' has more than one decision.`, ids);
    }
    if (decision.type !== 'approve' && decision.type !== 'deny') {
      refuse(
        'invalid-decision',
        `The decision on tool call '${call.id}' must have type 'approve' or 'deny'.`,
        ids,
      );
    }
    if (decision.argumentsHash !== call.argumentsHash) {
      refuse(
        'arguments-mismatch',
        `The decision on tool call '${call.id}' (${call.name}) was made for other arguments: its argumentsHash does not match the call's.`,
        ids,
      );
    }
    if (
      decision.type === 'deny' &&
      decision.reason !== undefined &&
      typeof decision.reason !== 'string'
    ) {
      refuse(
        'invalid-decision',
        `The reason denying tool call '${call.id}' must be a string.`,
        ids,
      );
    }
    decided.set(call.id, decision);
  }
  for (const call of [...state.toolCalls, ...input.stillNeeded]) {
    if (!decided.has(call.id)) {
      refuse(
        'missing-decision',
        waiting.has(call.id)
          ? `Tool call '${call.id}' (${call.name}) waits for approval but has no decision.`
          : `Tool call '${call.id}' (${call.name}) needs approval but the pending state does not list it: refused.`,
        { toolCallId: call.id, toolName: call.name },
      );
    }
  }

  const denied = new Map<string, string>();
  const edited = new Map<string, string>();
  for (const [id, decision] of decided) {
    const call = waiting.get(id) as PendingToolCall;
    if (decision.type === 'deny') {
      denied.set(id, deniedToolCallText(call.name, decision.reason));
    } else if (decision.arguments !== undefined) {
      edited.set(id, checkedEdit(call, decision.arguments, callbacks));
    }
  }
  if (edited.size === 0) return { assistant, denied };
  const toolCalls: ToolCall[] = assistant.toolCalls.map((call) => {
    const text = edited.get(call.id);
    return text === undefined ? call : { ...call, arguments: text };
  });
  return { assistant: { ...assistant, toolCalls }, denied };
}

/** Edited arguments as JSON text, after the same checks the model's arguments pass. */
function checkedEdit(
  call: PendingToolCall,
  edit: unknown,
  callbacks: readonly ToolCallback[],
): string {
  const ids = { toolCallId: call.id, toolName: call.name };
  if (!isRecord(edit)) {
    refuse(
      'invalid-edit',
      `The edited arguments of tool call '${call.id}' must be an object.`,
      ids,
    );
  }
  const callback = callbacks.find((candidate) => candidate.definition.name === call.name);
  if (callback === undefined) {
    refuse(
      'invalid-edit',
      `The edited arguments of tool call '${call.id}' cannot be checked: tool '${call.name}' is not attached to the resuming request.`,
      ids,
    );
  }
  const completed = callback.completeEditedArguments?.(edit, call.arguments) ?? edit;
  let text: string;
  try {
    text = JSON.stringify(completed);
  } catch (error) {
    throw new ToolApprovalError({
      problem: 'invalid-edit',
      message: `The edited arguments of tool call '${call.id}' are not JSON.`,
      ...ids,
      cause: error,
    });
  }
  const parsed = parseToolArguments(text);
  const issues = parsed.ok
    ? validateJsonSchema(callback.definition.inputSchema, parsed.value)
    : parsed.issues;
  if (issues.length > 0) {
    const listed = issues
      .map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
      .join('; ');
    refuse(
      'invalid-edit',
      `The edited arguments of tool call '${call.id}' fail the input schema of tool '${call.name}': ${listed}.`,
      { ...ids, issues: [...issues] },
    );
  }
  return text;
}
