import type { ChatClientRequest, ChatClientResponse } from '../advisors/index.js';
import {
  applyApprovalDecisions,
  approvalBindingOf,
  batchMessage,
  checkApprovalBinding,
  createPendingApproval,
  DEFAULT_APPROVAL_STATE_TTL_MS,
  findCallsNeedingApproval,
  PENDING_APPROVAL_METADATA_KEY,
  type PendingToolApproval,
  processApprovalTokens,
  readPendingApproval,
  TOOL_APPROVAL_RESUME,
  type ToolApprovalOptions,
} from '../approval/index.js';
import { ToolApprovalError } from '../errors/index.js';
import type { AssistantMessage, Message } from '../messages/index.js';
import {
  type ChatResponse,
  FinishReason,
  type Generation,
  type ToolCallingChatOptions,
  type Usage,
} from '../model/index.js';

/**
 * Approval within one turn of the tool loop: the settings, the messages the turn started from (a
 * pending state records them), and the checked state when the turn is a resume.
 */
export interface TurnApproval {
  readonly options: ToolApprovalOptions;
  /** The advisor params the turn started with: a pause binds its state to their conversation. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The request's messages as the loop received them (a resume: the state's messages). */
  readonly initialMessages: readonly Message[];
  /** How many messages `doInitializeLoop` made of them: the turn's own messages follow. */
  initializedLength: number;
  /** The checked state this turn resumes, with its decisions not yet applied. */
  readonly resume: { readonly state: PendingToolApproval; readonly decisions: unknown } | undefined;
}

/**
 * Reads a resume from the request's advisor params and checks the state (shape, signature,
 * consistency, then its binding: the request's conversation and principal, and the expiry) before
 * anything runs. Returns the request the loop starts from: the resume param removed, and on a
 * resume the state's messages as the prompt.
 * @throws ToolApprovalError for a state that cannot be trusted or does not belong here.
 */
export function startTurnApproval(
  request: ChatClientRequest,
  options: ToolApprovalOptions,
): { request: ChatClientRequest; approval: TurnApproval } {
  const param = request.context[TOOL_APPROVAL_RESUME] as
    | { state?: unknown; decisions?: unknown }
    | undefined;
  if (param === undefined) {
    return {
      request,
      approval: {
        options,
        params: request.context,
        initialMessages: request.prompt.messages,
        initializedLength: 0,
        resume: undefined,
      },
    };
  }
  const state = readPendingApproval(param?.state, options.signingKey);
  const { [TOOL_APPROVAL_RESUME]: _resume, ...context } = request.context;
  checkApprovalBinding(
    state,
    approvalBindingOf(options, context, request.prompt.options?.toolContext),
  );
  const messages = state.messages.slice();
  return {
    request: { ...request, prompt: { ...request.prompt, messages }, context },
    approval: {
      options,
      params: context,
      initialMessages: messages,
      initializedLength: 0,
      resume: { state, decisions: param.decisions },
    },
  };
}

/**
 * The history a resumed turn continues from: the initialized messages, then what the loop had
 * added before the pause, without the assistant message whose calls waited (the batch re-enters
 * the loop as the round's response).
 */
export function resumedHistory(approval: TurnApproval, initialized: readonly Message[]): Message[] {
  const turn = (approval.resume as NonNullable<TurnApproval['resume']>).state.turn;
  const history = initialized.slice();
  for (let index = 0; index < turn.length - 1; index++) history.push(turn[index] as Message);
  return history;
}

/**
 * The resumed batch with its decisions applied, as the round's response: the assistant message
 * (edited arguments written in) and the denied calls for the manager. The gate runs again with
 * the resuming request's tools and policy: a call that needs approval and has no decision is
 * refused.
 * @throws ToolApprovalError before anything runs.
 */
export async function resumedBatch(
  approval: TurnApproval,
  options: ToolCallingChatOptions,
  history: readonly Message[],
  context: Record<string, unknown>,
): Promise<{ response: ChatClientResponse; denied: ReadonlyMap<string, string> }> {
  const resume = approval.resume as NonNullable<TurnApproval['resume']>;
  const original = batchMessage(resume.state) as AssistantMessage;
  const callbacks = options.toolCallbacks ?? [];
  const stillNeeded = await findCallsNeedingApproval({
    calls: original.toolCalls,
    callbacks,
    policy: approval.options.policy,
    toolContext: options.toolContext,
    messages: [...history, original],
  });
  const resolved = applyApprovalDecisions({
    state: resume.state,
    decisions: resume.decisions,
    callbacks,
    stillNeeded,
  });
  // Last, once the state and decisions hold: a refused resume can be corrected and sent again.
  const store = approval.options.tokenStore ?? processApprovalTokens;
  if (!(await store.consumeApprovalToken(resume.state.nonce, new Date(resume.state.expiresAt)))) {
    throw new ToolApprovalError({
      problem: 'replayed-state',
      message:
        'The pending approval state was already resumed (its single-use token is used): refused, nothing ran.',
    });
  }
  const chatResponse: ChatResponse = {
    results: [{ output: resolved.assistant, metadata: { finishReason: FinishReason.TOOL_CALLS } }],
    metadata: {},
  };
  return { response: { chatResponse, context }, denied: resolved.denied };
}

/**
 * Whether any call of a round could need approval: an approval policy is set, or an attached tool
 * states a `needsApproval` other than `false`. When not, the loop skips the approval gate, which
 * allocates ~1.7 KB per batch (its copies of the turn and context, measured with
 * bench/allocation-profile.ts) to find what this check already knows: nothing needs approval.
 */
export function mayNeedApproval(approval: TurnApproval, options: ToolCallingChatOptions): boolean {
  if (approval.options.policy !== undefined) return true;
  const callbacks = options.toolCallbacks;
  if (callbacks === undefined) return false;
  for (let index = 0; index < callbacks.length; index++) {
    const needsApproval = callbacks[index]?.metadata?.needsApproval;
    if (needsApproval !== undefined && needsApproval !== false) return true;
  }
  return false;
}

/**
 * The pending state when some call of the response's batch needs approval, else `undefined`.
 * `history` is the turn before the batch; `usage` the turn's usage so far.
 */
export async function pendingApprovalFor(
  approval: TurnApproval,
  input: {
    readonly response: ChatResponse;
    readonly options: ToolCallingChatOptions;
    readonly history: readonly Message[];
    readonly turnId: string;
    readonly iteration: number;
    readonly usage: Usage | undefined;
    /** The states' lifetime when the turn decides it (a durable turn); else the option's. */
    readonly ttlMs?: number;
  },
): Promise<PendingToolApproval | undefined> {
  const generation = batchGeneration(input.response);
  // The manager runs no call of a filtered response (content filter, refusal): nothing to approve.
  if (generation === undefined || generation.metadata.finishReason === FinishReason.CONTENT_FILTER)
    return undefined;
  const assistant = generation.output;
  const toolCalls = await findCallsNeedingApproval({
    calls: assistant.toolCalls,
    callbacks: input.options.toolCallbacks ?? [],
    policy: approval.options.policy,
    toolContext: input.options.toolContext,
    messages: [...input.history, assistant],
  });
  if (toolCalls.length === 0) return undefined;
  return createPendingApproval({
    turnId: input.turnId,
    iteration: input.iteration,
    messages: approval.initialMessages,
    turn: [...input.history.slice(approval.initializedLength), assistant],
    toolCalls,
    usage: input.usage,
    signingKey: approval.options.signingKey,
    binding: approvalBindingOf(approval.options, approval.params, input.options.toolContext),
    ttlMs: input.ttlMs ?? approval.options.stateTtlMs ?? DEFAULT_APPROVAL_STATE_TTL_MS,
  });
}

/**
 * The response a paused turn ends with: the assistant message whose calls wait, finish reason
 * `'approvalPending'`, the turn's usage, and the pending state in the metadata.
 */
export function pendingApprovalResponse(
  response: ChatClientResponse,
  pending: PendingToolApproval,
  usage: Usage | undefined,
): ChatClientResponse {
  const chatResponse = response.chatResponse as ChatResponse;
  const generation = batchGeneration(chatResponse) as Generation;
  return {
    ...response,
    chatResponse: {
      results: [
        {
          output: generation.output,
          metadata: { ...generation.metadata, finishReason: FinishReason.APPROVAL_PENDING },
        },
      ],
      metadata: {
        ...chatResponse.metadata,
        ...(usage === undefined ? {} : { usage }),
        [PENDING_APPROVAL_METADATA_KEY]: pending,
      },
    },
  };
}

/** The generation whose tool calls the manager would execute: the first that has any. */
function batchGeneration(response: ChatResponse): Generation | undefined {
  for (const generation of response.results) {
    if (generation.output.toolCalls.length > 0) return generation;
  }
  return undefined;
}
