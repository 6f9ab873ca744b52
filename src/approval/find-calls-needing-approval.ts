import type { Message, ToolCall } from '../messages/index.js';
import {
  parseToolArguments,
  type ToolCallback,
  type ToolContext,
  validateJsonSchema,
} from '../tools/index.js';
import { hashToolArguments } from './canonical-json.js';
import type { PendingToolCall } from './pending-tool-approval.js';
import type { ToolApprovalPolicy } from './tool-approval-policy.js';

/** What {@link findCallsNeedingApproval} looks at. */
export interface ApprovalGateInput {
  /** The calls of one batch, in order. */
  readonly calls: readonly ToolCall[];
  /** The tools attached to the round. */
  readonly callbacks: readonly ToolCallback[];
  readonly policy: ToolApprovalPolicy | undefined;
  /** The caller's tool context map. */
  readonly toolContext: Readonly<Record<string, unknown>> | undefined;
  /** The turn so far, up to and including the assistant message that made the calls. */
  readonly messages: readonly Message[];
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * The calls of a batch that need a human decision before the batch may run, in call order.
 *
 * Only a call that could run is asked about: one naming an attached tool, not cut off, with text
 * arguments that parse and satisfy the tool's schema (the others get error results without
 * running, so there is nothing to approve), and the first call of a repeated id. For such a call
 * the tool's own `needsApproval` decides (`true`, `false`, or its function); a tool that states
 * none is left to the policy; no policy means no approval.
 */
export async function findCallsNeedingApproval(
  input: ApprovalGateInput,
): Promise<PendingToolCall[]> {
  const pending: PendingToolCall[] = [];
  const seen = new Set<string>();
  const context = input.toolContext == null ? EMPTY : Object.freeze({ ...input.toolContext });
  for (const call of input.calls) {
    if (typeof call?.id !== 'string' || seen.has(call.id)) continue;
    seen.add(call.id);
    const callback = input.callbacks.find((candidate) => candidate.definition.name === call.name);
    if (
      callback === undefined ||
      call.metadata?.truncated === true ||
      call.metadata?.nonTextArguments === true
    ) {
      continue;
    }
    const needsApproval = callback.metadata?.needsApproval;
    if (needsApproval === false || (needsApproval === undefined && input.policy === undefined)) {
      continue;
    }
    const parsed = parseToolArguments(call.arguments);
    if (!parsed.ok) continue;
    if (validateJsonSchema(callback.definition.inputSchema, parsed.value).length > 0) continue;
    const toolContext: ToolContext = {
      context,
      toolCallId: call.id,
      messages: input.messages,
    };
    let needed: boolean;
    if (typeof needsApproval === 'function') {
      needed = (await needsApproval(structuredClone(parsed.value), toolContext)) === true;
    } else if (needsApproval !== undefined) {
      // `true`, or a value a hand-written callback put there: when in doubt, ask.
      needed = true;
    } else {
      needed =
        (await (input.policy as ToolApprovalPolicy)({
          toolCall: call,
          definition: callback.definition,
          metadata: callback.metadata ?? {},
          input: structuredClone(parsed.value),
          context: toolContext,
        })) === true;
    }
    if (!needed) continue;
    pending.push({
      id: call.id,
      name: call.name,
      arguments: parsed.value,
      argumentsHash: hashToolArguments(parsed.value),
    });
  }
  return pending;
}
