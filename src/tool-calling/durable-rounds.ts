import type { ChatClientRequest, ChatClientResponse, DurableSteps } from '../advisors/index.js';
import type { PendingToolApproval } from '../approval/index.js';
import { ToolloopError } from '../errors/index.js';
import type { AssistantMessage } from '../messages/index.js';
import { type ChatResponse, FinishReason, type Generation } from '../model/index.js';
import { runToolRound } from './run-tool-round.js';
import { StreamRound } from './stream-round.js';
import { resumedBatch, type TurnApproval } from './tool-loop-approval.js';
import type { ToolLoopHooks } from './tool-loop-hooks.js';
import type { ToolLoopState } from './tool-loop-state.js';

/** Where a durable round's chunks go besides the engine: the loop's caller (stream mode). */
export interface ChunkSink {
  emit(chunk: ChatClientResponse): void;
}

/**
 * The model call of a round of a durable turn, as a step. A live call answers with the chain's
 * response; a replayed one with its recorded response and the round request's context. In stream
 * mode a replayed round hands the caller what it would have seen of the round, in one chunk, so
 * advisors outside the loop that aggregate the stream (a memory advisor) see the same answer.
 * `replayed` says which of the two it was.
 */
export async function durableModelCall(
  hooks: ToolLoopHooks,
  state: ToolLoopState,
  request: ChatClientRequest,
  callModel: () => Promise<ChatClientResponse>,
  sink: ChunkSink,
): Promise<{ response: ChatClientResponse; replayed: boolean }> {
  let live: ChatClientResponse | undefined;
  const recorded = await (state.durable as DurableSteps).runModelCall(state.iteration, async () => {
    live = await callModel();
    return live.chatResponse;
  });
  if (live !== undefined) return { response: live, replayed: false };
  const response: ChatClientResponse = { chatResponse: recorded, context: request.context };
  if (state.mode === 'stream' && recorded !== null) {
    const outgoing = new StreamRound(hooks, state, request.context).accept(response);
    if (outgoing !== undefined) sink.emit(outgoing);
  }
  return { response, replayed: true };
}

/**
 * Stream mode, a durable round's live model call: reads the round's stream to its end inside the
 * model call's step, handing each chunk the caller may see to the caller and to the engine (which
 * passes it on to the turn's readers in other processes). Resolves to the round's aggregate.
 */
export async function pumpDurableRound(
  source: AsyncIterator<ChatClientResponse>,
  handler: StreamRound,
  durable: DurableSteps,
  round: number,
  sink: ChunkSink,
): Promise<ChatClientResponse> {
  try {
    await durable.startRound(round);
    for (;;) {
      const next = await source.next();
      if (next.done) break;
      const outgoing = handler.accept(next.value);
      if (outgoing === undefined) continue;
      sink.emit(outgoing);
      if (outgoing.chatResponse !== null) await durable.emitChunk(outgoing.chatResponse, round);
    }
  } catch (error) {
    // As a `for await` whose body throws: the source is closed, a failure to close is ignored.
    try {
      await source.return?.();
    } catch {}
    throw error;
  }
  return handler.result();
}

/**
 * A chunk the loop makes itself (a usage total, a `returnDirect` or limit ending) in stream mode:
 * to the caller, and in a durable turn to the engine as well.
 */
export async function emitMadeChunk(
  state: ToolLoopState,
  sink: ChunkSink,
  chunk: ChatClientResponse,
): Promise<void> {
  sink.emit(chunk);
  if (state.durable !== undefined && chunk.chatResponse !== null) {
    await state.durable.emitChunk(chunk.chatResponse, state.iteration);
  }
}

/** What checking one set of decisions came to, as a step records it. */
type DecisionCheck =
  | { readonly assistant: AssistantMessage; readonly denied: readonly [string, string][] }
  | { readonly refusal: string };

/**
 * A durable turn's approval ending, which is no ending: the turn waits in the engine for the
 * decisions (sent from any process), checks them as a resume would, and runs the batch with
 * them. Decisions that a resume would refuse (a wrong hash, a missing decision, an invalid edit)
 * are refused back to the sender and the turn waits again. The check is a step of its own, so a
 * recovered turn does not check again what it accepted (a resume's check may use up the state's
 * single-use token). Returns the generations that end the turn, as `runToolRound` does.
 */
export async function runBatchAfterApproval(
  hooks: ToolLoopHooks,
  state: ToolLoopState,
  roundRequest: ChatClientRequest,
  pending: PendingToolApproval,
): Promise<Generation[] | undefined> {
  const durable = state.durable as DurableSteps;
  let refusal: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const decisions = await durable.waitForApproval(pending, refusal);
    const approval: TurnApproval = { ...state.approval, resume: { state: pending, decisions } };
    const check = await durable.runStep(
      `approval-decision:${state.iteration}:${attempt}`,
      async (): Promise<DecisionCheck> => {
        try {
          const resumed = await resumedBatch(
            approval,
            state.options,
            state.history,
            roundRequest.context,
          );
          const generation = (resumed.response.chatResponse as ChatResponse)
            .results[0] as Generation;
          return { assistant: generation.output, denied: [...resumed.denied] };
        } catch (error) {
          if (!(ToolloopError.isInstance(error) && error.code === 'TOOL_APPROVAL_REFUSED')) {
            throw error;
          }
          return { refusal: error.message };
        }
      },
    );
    if ('refusal' in check) {
      refusal = check.refusal;
      continue;
    }
    const response: ChatClientResponse = {
      chatResponse: {
        results: [{ output: check.assistant, metadata: { finishReason: FinishReason.TOOL_CALLS } }],
        metadata: {},
      },
      context: roundRequest.context,
    };
    return runToolRound(hooks, state, roundRequest, response, new Map(check.denied));
  }
}
