import { describe, expect, it } from 'vitest';
import type { ChatClientResponse } from '../advisors/index.js';
import { isAbortError } from '../errors/index.js';
import { stopFlagFor } from '../internal/stream-stop-flags.js';
import { assistantMessage } from '../messages/index.js';
import { chatResponse, hasToolCalls } from '../model/index.js';
import { StreamRound } from './stream-round.js';
import type { ToolLoopHooks } from './tool-loop-hooks.js';
import type { ToolLoopState } from './tool-loop-state.js';
import { UsageAccumulator } from './usage-accumulator.js';

const hooks = { isToolCallResponse: hasToolCalls } as unknown as ToolLoopHooks;

function roundWith(signal: AbortSignal): StreamRound {
  const state = {
    signal,
    usage: new UsageAccumulator(),
    events: undefined,
    finalAnswer: false,
    iteration: 1,
  } as unknown as ToolLoopState;
  return new StreamRound(hooks, state, {});
}

/** What `run` threw, or `undefined`. */
function failureOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

function delta(text: string): ChatClientResponse {
  return { chatResponse: chatResponse(assistantMessage(text)), context: {} };
}

describe('StreamRound', () => {
  it('fails the next chunk once the signal is aborted', () => {
    const controller = new AbortController();
    const round = roundWith(controller.signal);
    const first = delta('a');
    expect(round.accept(first)).toBe(first);
    controller.abort();
    expect(isAbortError(failureOf(() => round.accept(delta('b'))))).toBe(true);
  });

  it("reads a signal's stop flag instead of the signal, and fails the next chunk once it is set", () => {
    const controller = new AbortController();
    const flag = stopFlagFor(controller.signal);
    const round = roundWith(controller.signal);
    expect(round.accept(delta('a'))?.chatResponse?.results[0]?.output.text).toBe('a');
    flag.stopped = true;
    controller.abort();
    expect(isAbortError(failureOf(() => round.accept(delta('b'))))).toBe(true);
    expect(round.result().chatResponse?.results[0]?.output.text).toBe('a');
  });
});
