import { describe, expect, it } from 'vitest';
import type {
  DurablePendingApproval,
  DurableSteps,
  DurableToolCallOutcome,
  DurableToolCallStep,
} from '../advisors/index.js';
import { approveToolCall, type PendingToolApproval } from '../approval/index.js';
import { ChatClient } from '../client/chat-client.js';
import type { ChatResponse } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/index.js';

/**
 * The smallest engine the loop's contract allows: it records each step's result by its position
 * in the turn, and a replay answers every recorded position without running it, checking that the
 * step at that position has the same name (as DBOS does). What the loop must give every engine:
 * the same steps, in the same order, on every run of a turn.
 */
class RecordingSteps implements DurableSteps {
  readonly executionId = 'turn-1';
  readonly names: string[] = [];
  readonly records: { name: string; value: unknown }[];
  #position = 0;

  constructor(records: { name: string; value: unknown }[] = []) {
    this.records = records;
  }

  #step<T>(name: string, run: () => Promise<T>): Promise<T> {
    // The position is taken now, when the step is started, not when it settles.
    const position = this.#position++;
    this.names.push(name);
    const recorded = this.records[position];
    if (recorded !== undefined) {
      if (recorded.name !== name)
        throw new Error(`step ${position} was ${recorded.name}, now ${name}`);
      return Promise.resolve(recorded.value as T);
    }
    return run().then((value) => {
      this.records[position] = { name, value: structuredClone(value) };
      return value;
    });
  }

  runModelCall(round: number, call: () => Promise<ChatResponse | null>) {
    return this.#step(`model:${round}`, call);
  }

  runToolCall(
    step: DurableToolCallStep,
    call: (idempotencyKey: string) => Promise<DurableToolCallOutcome>,
  ): Promise<DurableToolCallOutcome | undefined> {
    return this.#step(`tool:${step.round}:${step.toolCallId}`, () =>
      call(`${this.executionId}:${step.round}:${step.toolCallId}`),
    );
  }

  async resolveUnknownOutcome(): Promise<'retry'> {
    return 'retry';
  }

  runStep<T>(name: string, run: () => Promise<T>): Promise<T> {
    return this.#step(name, run);
  }

  async waitForApproval(_pending: DurablePendingApproval): Promise<readonly unknown[]> {
    throw new Error('no approval in these turns');
  }

  async emitChunk(): Promise<void> {}

  async startRound(): Promise<void> {}
}

/** Three calls in one batch whose tools finish in the reverse of their order. */
function client() {
  const calls: string[] = [];
  const slow = (name: string, ms: number) =>
    tool({
      name,
      description: name,
      inputSchema: { type: 'object', properties: {} },
      readOnly: true,
      execute: async (_input, context) => {
        calls.push(`${name} ${context.idempotencyKey}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        return `${name} done`;
      },
    });
  const model = () =>
    new ScriptedChatModel([
      toolCallResponse([
        { id: 'a', name: 'first', arguments: {} },
        { id: 'b', name: 'second', arguments: {} },
        { id: 'c', name: 'third', arguments: {} },
      ]),
      textResponse('all three done'),
    ]);
  return {
    calls,
    make: (scripted = model()) =>
      ChatClient.create(scripted, {
        tools: [slow('first', 30), slow('second', 15), slow('third', 1)],
      }),
  };
}

describe('the loop on durable steps (engine-neutral)', () => {
  it('runs each model call and tool call as a step, in call order whatever order the tools end in', async () => {
    const { calls, make } = client();
    const steps = new RecordingSteps();
    const answer = await make().prompt('do all three').call({ durable: steps }).content();
    expect(answer).toBe('all three done');
    expect(steps.names).toEqual(['model:1', 'tool:1:a', 'tool:1:b', 'tool:1:c', 'model:2']);
    expect(calls).toEqual(['first turn-1:1:a', 'second turn-1:1:b', 'third turn-1:1:c']);
  });

  it('replays a recorded turn from its records: no model call, no tool call, the same answer', async () => {
    const { calls, make } = client();
    const first = new RecordingSteps();
    await make().prompt('do all three').call({ durable: first }).content();
    calls.length = 0;

    const emptyModel = new ScriptedChatModel([]);
    const replay = new RecordingSteps(first.records);
    const answer = await make(emptyModel)
      .prompt('do all three')
      .call({ durable: replay })
      .content();
    expect(answer).toBe('all three done');
    expect(emptyModel.callCount).toBe(0);
    expect(calls).toEqual([]);
    expect(replay.names).toEqual(first.names);
  });

  it('runs only what has no record yet, after a crash between two steps', async () => {
    const { calls, make } = client();
    const first = new RecordingSteps();
    await make().prompt('do all three').call({ durable: first }).content();
    calls.length = 0;
    // The worker died after the batch's first two tool steps were recorded.
    const survived = first.records.slice(0, 3);
    const model = new ScriptedChatModel([textResponse('all three done')]);
    const recovered = new RecordingSteps(survived);
    const answer = await make(model).prompt('do all three').call({ durable: recovered }).content();
    expect(answer).toBe('all three done');
    expect(calls).toEqual(['third turn-1:1:c']);
    expect(model.callCount).toBe(1);
  });

  it('streams a replayed round to the caller as one chunk with its text', async () => {
    const { make } = client();
    const first = new RecordingSteps();
    const live: string[] = [];
    for await (const text of make().prompt('do all three').stream({ durable: first }).content()) {
      live.push(text);
    }
    const replayed: string[] = [];
    const replay = new RecordingSteps(first.records);
    for await (const text of make(new ScriptedChatModel([]))
      .prompt('do all three')
      .stream({ durable: replay })
      .content()) {
      replayed.push(text);
    }
    expect(live.join('')).toBe('all three done');
    expect(replayed).toEqual(['all three done']);
  });
});

describe('an approval wait in a durable turn', () => {
  /** Engine steps whose approval wait outlasts `approval.stateTtlMs`, then approves every call. */
  class SlowDecisionSteps extends RecordingSteps {
    readonly states: PendingToolApproval[] = [];
    readonly #ttlMs: number | undefined;

    constructor(ttlMs: number | undefined) {
      super();
      this.#ttlMs = ttlMs;
    }

    get approvalStateTtlMs(): number | undefined {
      return this.#ttlMs;
    }

    override async waitForApproval(
      pending: DurablePendingApproval,
      refusal?: string,
    ): Promise<readonly unknown[]> {
      if (refusal !== undefined) throw new Error(`refused: ${refusal}`);
      const state = pending as PendingToolApproval;
      this.states.push(state);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return state.toolCalls.map((call) => approveToolCall(call));
    }
  }

  const approvedTurn = (steps: DurableSteps) => {
    const charge = tool({
      name: 'charge',
      description: 'Charges the card',
      inputSchema: { type: 'object', properties: {} },
      needsApproval: true,
      execute: async () => 'charged',
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'a', name: 'charge', arguments: {} }]),
      textResponse('charged once'),
    ]);
    return ChatClient.create(model, {
      tools: [charge],
      approval: { signingKey: 'a-test-signing-key-of-enough-length-32b', stateTtlMs: 1 },
    })
      .prompt('charge it')
      .call({ durable: steps })
      .content();
  };
  const lifetimeOf = (state: PendingToolApproval | undefined) =>
    Date.parse(state?.expiresAt ?? '') - Date.parse(state?.createdAt ?? '');

  it('signs the pending state for as long as the engine waits, not approval.stateTtlMs', async () => {
    const steps = new SlowDecisionSteps(60_000);
    await expect(approvedTurn(steps)).resolves.toBe('charged once');
    expect(lifetimeOf(steps.states[0])).toBe(60_000);
  });

  it('a decision that arrives after approval.stateTtlMs still runs the call (the engine owns the wait)', async () => {
    const steps = new SlowDecisionSteps(undefined);
    await expect(approvedTurn(steps)).resolves.toBe('charged once');
    expect(lifetimeOf(steps.states[0])).toBe(1);
  });
});
