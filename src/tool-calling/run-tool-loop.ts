import type {
  CallAdvisorChain,
  ChatClientRequest,
  ChatClientResponse,
  StreamAdvisorChain,
} from '../advisors/index.js';
import { TOOL_LOOP_TURN_ID } from '../advisors/index.js';
import type { PendingToolApproval } from '../approval/index.js';
import { throwIfAborted } from '../errors/index.js';
import { keepInstanceShape } from '../internal/keep-instance-shape.js';
import type { ToolCall } from '../messages/index.js';
import { type ChatResponse, type Generation, isUsageEmpty, type Usage } from '../model/index.js';
import { createTurnEventEmitter } from '../observability/turn-event-emitter.js';
import { durableModelCall, emitMadeChunk, runBatchAfterApproval } from './durable-rounds.js';
import { newTurnId } from './new-turn-id.js';
import { runToolRound } from './run-tool-round.js';
import type { ExecuteToolCallsOptions } from './tool-calling-manager.js';
import {
  mayNeedApproval,
  pendingApprovalFor,
  pendingApprovalResponse,
  resumedBatch,
  resumedHistory,
  startTurnApproval,
  type TurnApproval,
} from './tool-loop-approval.js';
import {
  emitApprovalPending,
  emitModelCallEnd,
  emitModelCallStart,
  emitStepFinish,
  emitToolCalls,
  emitTurnEnd,
  emitTurnError,
  emitTurnStart,
} from './tool-loop-events.js';
import { isThenable, type MaybePromise, type ToolLoopHooks } from './tool-loop-hooks.js';
import { finalAnswerResponse, withChatResponse, withGenerations } from './tool-loop-responses.js';
import { type ToolLoopState, toolLoopContext } from './tool-loop-state.js';
import { UsageAccumulator } from './usage-accumulator.js';

/**
 * Makes the model calls of the loop core: the call driver with the rest of the chain's `nextCall`;
 * the stream driver streams the round to the caller and answers with the round's aggregate
 * (`chatResponse: null` when the round streamed no response).
 */
export interface ModelCaller {
  callModel(request: ChatClientRequest, state: ToolLoopState): Promise<ChatClientResponse>;
  /** Stream mode: hands the caller a chunk the core made itself (usage trailer, tool-result ending). */
  emit(chunk: ChatClientResponse): void;
}

/**
 * The tool loop, once for both modes: start the turn, then round after round
 * prepare → model call (by the driver) → decide → execute the tools → next instructions, until an
 * ending (an answer without tool calls, `returnDirect`, a limit breach, the iteration cap, a pause
 * for approval before a batch with calls that need it). A resumed turn (`ChatClient.resume`)
 * first runs the paused batch with its decisions, without a model call. Returns
 * the finalized response: the call driver's answer; the stream driver has already streamed it.
 * A plain async function, not an async generator: a generator's `next`/`yield` protocol cost
 * ~1.8 KB more per turn (measured), and the stream driver pulls chunks without passing them here.
 *
 * Mode differs only where the caller sees it: a stream round's chunks are forwarded by the stream
 * driver while the round runs, so on the answer ending this core only adds a trailing usage chunk,
 * and the `returnDirect` and limit endings are emitted as one last chunk.
 */
export async function runToolLoop(
  hooks: ToolLoopHooks,
  request: ChatClientRequest,
  mode: 'call' | 'stream',
  chain: CallAdvisorChain | StreamAdvisorChain,
  caller: ModelCaller,
): Promise<ChatClientResponse> {
  // A resume's state is checked before anything of the turn starts (ToolApprovalError).
  const start = startTurnApproval(request, hooks.approval);
  const turnId = start.approval.resume?.state.turnId ?? request.durable?.executionId ?? newTurnId();
  const events = createTurnEventEmitter(turnId, request.listeners);
  const seed = newState(hooks, start.request, mode, chain, events, turnId, start.approval);
  try {
    // Hooks that answer synchronously are not awaited: each await is a microtask hop.
    let initialized =
      hooks.initialize === undefined
        ? start.request
        : hooks.initialize(start.request, toolLoopContext(seed));
    if (isThenable(initialized)) initialized = await initialized;
    const state = startState(seed, initialized, turnId);
    if (events !== undefined) emitTurnStart(state, initialized);

    if (state.approval.resume !== undefined) {
      const resumed = await resumeBatch(hooks, state);
      if (resumed.ending !== undefined) {
        return await endWithToolResults(hooks, state, resumed.response, resumed.ending, caller);
      }
    }

    for (;;) {
      let roundRequest = prepareRound(hooks, state);
      if (isThenable(roundRequest)) roundRequest = await roundRequest;
      const callStarted = events === undefined ? 0 : emitModelCallStart(state, roundRequest);
      let response: ChatClientResponse;
      let replayed = false;
      try {
        if (state.durable === undefined) {
          response = await caller.callModel(roundRequest, state);
        } else {
          ({ response, replayed } = await durableModelCall(
            hooks,
            state,
            roundRequest,
            () => caller.callModel(roundRequest as ChatClientRequest, state),
            caller,
          ));
        }
      } catch (error) {
        if (events !== undefined) emitModelCallEnd(state, callStarted, undefined, { error });
        throw error;
      }
      if (events !== undefined) {
        emitModelCallEnd(state, callStarted, response.chatResponse, undefined, replayed);
      }

      if (mode === 'stream' && response.chatResponse === null) {
        // The round streamed no response (the chain answered without a model): nothing to decide.
        let finalized = finalize(hooks, state, response);
        if (isThenable(finalized)) finalized = await finalized;
        if (events !== undefined) emitTurnEnd(state, finalized.chatResponse);
        return finalized;
      }
      if (hooks.afterCall !== undefined) {
        let decided = hooks.afterCall(response, toolLoopContext(state));
        if (isThenable(decided)) decided = await decided;
        response = decided;
      }
      // Only a stream needs the usage before this round (a copy: `total` allocates).
      const previousUsage = mode === 'stream' ? state.usage.total : undefined;
      state.usage.addRound(response.chatResponse);

      if (
        state.finalAnswer ||
        response.chatResponse === null ||
        !hooks.isToolCallResponse(response.chatResponse)
      ) {
        // The answer ending.
        if (mode === 'stream') {
          const trailer = usageTrailer(state, previousUsage, response);
          if (trailer !== undefined) await emitMadeChunk(state, caller, trailer);
        }
        if (state.finalAnswer) {
          response = withChatResponse(response, finalAnswerResponse(response.chatResponse, true));
        }
        if (events !== undefined) emitStepFinish(state, response.chatResponse, false);
        let finalized = finalize(
          hooks,
          state,
          withChatResponse(response, state.usage.apply(response.chatResponse)),
        );
        if (isThenable(finalized)) finalized = await finalized;
        if (events !== undefined) emitTurnEnd(state, finalized.chatResponse);
        return finalized;
      }

      if (events !== undefined) emitToolCalls(state, response.chatResponse);
      const pending = mayNeedApproval(state.approval, state.options)
        ? await pendingApproval(state, response.chatResponse)
        : undefined;
      if (pending !== undefined && state.durable !== undefined) {
        // A durable turn waits for the decisions in its engine instead of ending here.
        if (events !== undefined) emitApprovalPending(state, batchToolCalls(response.chatResponse));
        const ending = await runBatchAfterApproval(hooks, state, roundRequest, pending);
        if (events !== undefined) emitStepFinish(state, response.chatResponse, true);
        if (ending !== undefined) {
          return await endWithToolResults(hooks, state, response, ending, caller);
        }
        continue;
      }
      if (pending !== undefined) {
        // The approval ending: nothing of the batch has run; the state goes to the caller.
        const paused = pendingApprovalResponse(response, pending, state.usage.total);
        if (events !== undefined) {
          emitApprovalPending(state, paused.chatResponse?.results[0]?.output.toolCalls ?? []);
          emitStepFinish(state, paused.chatResponse, false);
        }
        let finalized = finalize(hooks, state, paused);
        if (isThenable(finalized)) finalized = await finalized;
        if (mode === 'stream') caller.emit(finalized);
        if (events !== undefined) emitTurnEnd(state, finalized.chatResponse);
        return finalized;
      }
      const ending = await runToolRound(hooks, state, roundRequest, response);
      if (events !== undefined) emitStepFinish(state, response.chatResponse, true);
      if (ending !== undefined) {
        return await endWithToolResults(hooks, state, response, ending, caller);
      }
    }
  } catch (error) {
    if (events !== undefined) emitTurnError(events, seed.startedAt, error);
    throw error;
  }
}

function newState(
  hooks: ToolLoopHooks,
  request: ChatClientRequest,
  mode: 'call' | 'stream',
  chain: CallAdvisorChain | StreamAdvisorChain,
  events: ToolLoopState['events'],
  turnId: string,
  approval: TurnApproval,
): ToolLoopState {
  const signal = request.signal;
  return {
    mode,
    chain,
    signal,
    context: request.context,
    durable: request.durable,
    usage: new UsageAccumulator(),
    events,
    executeOptions: signal === undefined ? NO_EXECUTE_OPTIONS : { signal },
    startedAt: events === undefined ? 0 : performance.now(),
    maxIterations: hooks.maxIterations,
    turnId,
    approval,
    instructions: request.prompt.messages,
    options: request.prompt.options,
    history: request.prompt.messages,
    iteration: 0,
    finalAnswer: false,
  };
}

/** The turn's advisor context: the request's, with the turn id. */
function turnContext(context: Record<string, unknown>, turnId: string): Record<string, unknown> {
  return { ...context, [TOOL_LOOP_TURN_ID]: turnId };
}

// A computed key adds its property after the copy: only a live instance keeps that hidden class,
// and without this one every full GC deoptimized the loop (see keepInstanceShape).
keepInstanceShape(turnContext({}, ''));

const NO_EXECUTE_OPTIONS: ExecuteToolCallsOptions = Object.freeze({});

/** Seeds the state with the request `doInitializeLoop` answered with (in place: no copy). */
function startState(
  state: ToolLoopState,
  initialized: ChatClientRequest,
  turnId: string,
): ToolLoopState {
  // Every round of this turn carries the turn id (memory inside the loop links rounds by it).
  const approval = state.approval;
  approval.initializedLength = initialized.prompt.messages.length;
  const history =
    approval.resume === undefined
      ? initialized.prompt.messages
      : resumedHistory(approval, initialized.prompt.messages);
  const usage = approval.resume?.state.usage;
  if (usage !== undefined) state.usage.addRound({ results: [], metadata: { usage } });
  state.context = turnContext(initialized.context, turnId);
  state.instructions = history;
  state.options = initialized.prompt.options;
  state.history = history;
  return state;
}

/**
 * A resumed turn's first step: the round that made the waiting batch is prepared again
 * (`doBeforeCall` rebuilds its options, such as the tools tool search found), the decisions are
 * applied, and the batch runs without a model call. The next round sends the whole turn so far,
 * so a memory advisor inside the loop (in this process or another) can rebuild the turn.
 */
async function resumeBatch(
  hooks: ToolLoopHooks,
  state: ToolLoopState,
): Promise<{ response: ChatClientResponse; ending: Generation[] | undefined }> {
  const paused = (state.approval.resume as NonNullable<TurnApproval['resume']>).state;
  state.iteration = paused.iteration - 1;
  let roundRequest = prepareRound(hooks, state);
  if (isThenable(roundRequest)) roundRequest = await roundRequest;
  const { response, denied } = await resumedBatch(
    state.approval,
    state.options,
    state.history,
    roundRequest.context,
  );
  if (state.events !== undefined) emitToolCalls(state, response.chatResponse as ChatResponse);
  const ending = await runToolRound(hooks, state, roundRequest, response, denied);
  if (state.events !== undefined) emitStepFinish(state, response.chatResponse, true);
  if (ending === undefined) state.instructions = state.history;
  return { response, ending };
}

/**
 * The pending state when some call of the response's batch needs approval. In a durable turn it
 * is made in a step of its own, so the turn's every run waits on the same state (it carries its
 * time of creation and its signature).
 */
function pendingApproval(
  state: ToolLoopState,
  response: ChatResponse,
): Promise<PendingToolApproval | undefined> {
  const make = () =>
    pendingApprovalFor(state.approval, {
      response,
      options: state.options,
      history: state.history,
      turnId: state.turnId,
      iteration: state.iteration,
      usage: state.usage.total,
      ...(state.durable?.approvalStateTtlMs === undefined
        ? {}
        : { ttlMs: state.durable.approvalStateTtlMs }),
    });
  if (state.durable === undefined) return make();
  return state.durable
    .runStep(`approval:${state.iteration}`, async () => (await make()) ?? null)
    .then((pending) => pending ?? undefined);
}

/** The tool calls of the response's batch: the first generation that has any. */
function batchToolCalls(response: ChatResponse): ToolCall[] {
  for (const generation of response.results) {
    if (generation.output.toolCalls.length > 0) return generation.output.toolCalls;
  }
  return [];
}

/** Builds the next round's request, runs `doBeforeCall`, and checks the signal. */
function prepareRound(
  hooks: ToolLoopHooks,
  state: ToolLoopState,
): ChatClientRequest | Promise<ChatClientRequest> {
  state.iteration++;
  state.finalAnswer = state.iteration > state.maxIterations;
  const request: ChatClientRequest = {
    prompt: { messages: state.instructions.slice(), options: state.options },
    context: { ...state.context },
  };
  if (state.signal !== undefined) request.signal = state.signal;
  if (state.durable !== undefined) request.durable = state.durable;
  if (hooks.beforeCall === undefined) return finishRound(hooks, state, request);
  const prepared = hooks.beforeCall(request, toolLoopContext(state));
  return isThenable(prepared)
    ? Promise.resolve(prepared).then((ready) => finishRound(hooks, state, ready))
    : finishRound(hooks, state, prepared);
}

/** The rest of {@link prepareRound} once `doBeforeCall` has answered. */
function finishRound(
  hooks: ToolLoopHooks,
  state: ToolLoopState,
  prepared: ChatClientRequest,
): ChatClientRequest {
  let request = prepared;
  state.options = request.prompt.options;
  if (state.finalAnswer) {
    request = {
      ...request,
      prompt: { ...request.prompt, options: hooks.finalAnswerOptions(request.prompt.options) },
    };
  }
  throwIfAborted(state.signal);
  return request;
}

/**
 * Stream mode, answer ending: when earlier rounds reported usage and the last round's chunks
 * carried none, a usage-only chunk (no generations) carries the turn's total.
 */
function usageTrailer(
  state: ToolLoopState,
  previousUsage: Usage | undefined,
  response: ChatClientResponse,
): ChatClientResponse | undefined {
  const total = state.usage.total;
  if (
    isUsageEmpty(previousUsage) ||
    !isUsageEmpty(response.chatResponse?.metadata.usage) ||
    total === undefined
  ) {
    return undefined;
  }
  return {
    chatResponse: { results: [], metadata: { ...response.chatResponse?.metadata, usage: total } },
    context: response.context,
  };
}

/** Runs `doFinalizeLoop`; awaited only when it answers asynchronously. */
/**
 * The endings where the tool results are the answer (`returnDirect`, a limit breach, and either of
 * them reached by a resumed batch): the round's response with the tool-result generations,
 * finalized, emitted as the last chunk in stream mode, and the turn's end reported.
 */
async function endWithToolResults(
  hooks: ToolLoopHooks,
  state: ToolLoopState,
  response: ChatClientResponse,
  ending: Generation[],
  caller: ModelCaller,
): Promise<ChatClientResponse> {
  const final = withGenerations(response, ending);
  let finalized = finalize(
    hooks,
    state,
    withChatResponse(final, state.usage.apply(final.chatResponse)),
  );
  if (isThenable(finalized)) finalized = await finalized;
  if (state.mode === 'stream') await emitMadeChunk(state, caller, finalized);
  if (state.events !== undefined) emitTurnEnd(state, finalized.chatResponse);
  return finalized;
}

function finalize(
  hooks: ToolLoopHooks,
  state: ToolLoopState,
  response: ChatClientResponse,
): MaybePromise<ChatClientResponse> {
  return hooks.finalize === undefined ? response : hooks.finalize(response, toolLoopContext(state));
}
