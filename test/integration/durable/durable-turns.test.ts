import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DbosTurnClient,
  DbosTurnWorker,
  type DurableTurnEvent,
} from '../../../src/durable/index.js';
import {
  approveToolCall,
  ChatClient,
  createToolCallingManager,
  InMemoryChatMemoryRepository,
  type Message,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  type PendingToolApproval,
  ToolCallingAdvisor,
  type ToolContext,
  ToolSearchToolCallingAdvisor,
  type TurnEvent,
  tool,
} from '../../../src/index.js';
import { createOtelSdkHarness } from '../../../src/otel/__tests__/otel-sdk-harness.js';
import { openTelemetryListener } from '../../../src/otel/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../../src/testing/index.js';
// @ts-expect-error: a plain JavaScript fixture shared with the worker processes of the crash tests
import { roundScriptModel, toolResultsOf } from '../fixtures/round-script-model.mjs';
import { serviceUrl } from '../services.js';
import { dropDurableDatabase, durableDatabaseUrl } from '../support/durable-database.js';

const database = serviceUrl('DATABASE_URL');

/** What each tool call saw, in the order they ran (this process runs every turn). */
const runs: { tool: string; idempotencyKey: string | undefined; input: unknown }[] = [];

const lookup = tool({
  name: 'lookup_order',
  description: 'Finds an order',
  inputSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
  readOnly: true,
  execute: (input, context: ToolContext) => {
    runs.push({ tool: 'lookup_order', idempotencyKey: context.idempotencyKey, input });
    return `order ${input.id}: 2 books, 30 EUR`;
  },
});

const refund = tool({
  name: 'refund',
  description: 'Refunds an order',
  inputSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
  execute: (input, context: ToolContext) => {
    runs.push({ tool: 'refund', idempotencyKey: context.idempotencyKey, input });
    return `refunded order ${input.id}`;
  },
});

/** The answer of an uninterrupted turn: every tool result, as the tools' converter wrote it. */
const ANSWER = 'Done: lookup_order="order 42: 2 books, 30 EUR"; refund="refunded order 42".';

/** Two tool rounds, then an answer that echoes every tool result of the turn. */
function ordersModel() {
  return roundScriptModel(ScriptedChatModel, [
    () => toolCallResponse([{ id: 'c1', name: 'lookup_order', arguments: { id: 42 } }]),
    () => toolCallResponse([{ id: 'c2', name: 'refund', arguments: { id: 42 } }]),
    (messages: Message[]) => textResponse(`Done: ${toolResultsOf(messages).join('; ')}.`),
  ]);
}

const transfer = tool({
  name: 'transfer',
  description: 'Sends money',
  inputSchema: {
    type: 'object',
    properties: { to: { type: 'string' }, amount: { type: 'number' } },
    required: ['to', 'amount'],
  },
  needsApproval: true,
  execute: (input, context: ToolContext) => {
    runs.push({ tool: 'transfer', idempotencyKey: context.idempotencyKey, input });
    return `sent ${input.amount} to ${input.to}`;
  },
});

const weather = tool({
  name: 'current_weather',
  description: 'Current weather of a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  returnDirect: true,
  execute: (input) => `Sunny in ${input.city}`,
});

/** Tools the search agent finds by searching: only their descriptions differ much. */
const library = ['invoice_pdf', 'shipping_label', 'warehouse_stock', 'currency_rate'].map((name) =>
  tool({
    name,
    description: `Makes the ${name.replace('_', ' ')} of an order`,
    inputSchema: { type: 'object', properties: { order: { type: 'number' } } },
    readOnly: true,
    execute: () => `${name} ready`,
  }),
);

/** Resolved when the hold tool starts; the tool returns once `releaseHold` is called. */
let holdStarted: () => void = () => {};
let releaseHold: () => void = () => {};

const hold = tool({
  name: 'hold',
  description: 'Waits until the test lets it go',
  inputSchema: { type: 'object', properties: {} },
  execute: async () => {
    const released = new Promise<void>((resolve) => {
      releaseHold = resolve;
    });
    holdStarted();
    await released;
    return 'held';
  },
});

/** The events and spans of the observed agent's turns. */
const observedEvents: TurnEvent[] = [];
const otel = createOtelSdkHarness();

const memoryOutside = new InMemoryChatMemoryRepository();
const memoryInside = new InMemoryChatMemoryRepository();

function memoryAdvisor(repository: InMemoryChatMemoryRepository, inside: boolean) {
  return new MessageChatMemoryAdvisor({
    chatMemory: new MessageWindowChatMemory({ repository, maxMessages: 100 }),
    ...(inside ? { order: ToolCallingAdvisor.DEFAULT_ORDER + 1 } : {}),
  });
}

/** The function id of a turn's step, by name. */
async function stepId(engine: DBOSClient, turnId: string, name: string): Promise<number> {
  const step = (await engine.listWorkflowSteps(turnId))?.find((found) => found.name === name);
  if (step === undefined) throw new Error(`turn ${turnId} has no step ${name}`);
  return step.functionID;
}

/**
 * A crash between a step's effect and its checkpoint, made on purpose: the finished turn's
 * history is cut at the step (its start marker kept), and the turn runs again from there, under
 * its own id, on the worker, as a recovered turn does.
 */
async function crashBeforeCheckpointOf(engine: DBOSClient, turnId: string, name: string) {
  await engine.rewindWorkflow(turnId, {
    startStep: await stepId(engine, turnId, name),
    queueName: 'toolloop-turns',
  });
}

describe.skipIf(database.skip)('durable turns on DBOS (one worker in this process)', () => {
  // The worker is built while the suite is collected, also when it is skipped: it needs a URL.
  const url = database.skip
    ? 'postgres://skipped'
    : durableDatabaseUrl(database.url as string, 'turns');
  const worker = new DbosTurnWorker({
    systemDatabaseUrl: url,
    workerId: 'durable-turns-test',
    version: '1',
    queue: { pollingIntervalMs: 50 },
    logLevel: 'error',
  });
  let other: DbosTurnClient;
  let engine: DBOSClient;
  /** Started while no worker ran, so the engine gave it no version yet. */
  let earlyTurn: Awaited<ReturnType<DbosTurnClient['start']>>;
  let early: DbosTurnClient | undefined;

  beforeAll(async () => {
    worker.agent('orders', ChatClient.create(ordersModel(), { tools: [lookup, refund] }));
    worker.agent('orders-ask', ChatClient.create(ordersModel(), { tools: [lookup, refund] }), {
      unknownOutcome: 'ask-caller',
    });
    worker.agent(
      'payments',
      ChatClient.create(
        roundScriptModel(ScriptedChatModel, [
          () =>
            toolCallResponse([
              { id: 'p1', name: 'transfer', arguments: { to: 'bob', amount: 100 } },
              { id: 'p2', name: 'lookup_order', arguments: { id: 7 } },
            ]),
          (messages: Message[]) => textResponse(`Paid: ${toolResultsOf(messages).join('; ')}.`),
        ]),
        { tools: [transfer, lookup] },
      ),
    );
    const rememberingModel = () =>
      roundScriptModel(ScriptedChatModel, [
        () => toolCallResponse([{ id: 'm1', name: 'lookup_order', arguments: { id: 5 } }]),
        (messages: Message[]) =>
          textResponse(`Remembered ${messages.filter((m) => m.role === 'user').length} questions.`),
      ]);
    worker.agent(
      'memory-outside',
      ChatClient.create(rememberingModel(), {
        tools: [lookup],
        advisors: [memoryAdvisor(memoryOutside, false)],
      }),
    );
    worker.agent(
      'memory-inside',
      ChatClient.create(rememberingModel(), {
        tools: [lookup],
        advisors: [memoryAdvisor(memoryInside, true)],
      }),
    );
    worker.agent(
      'weather',
      ChatClient.create(
        roundScriptModel(ScriptedChatModel, [
          () =>
            toolCallResponse([{ id: 'w1', name: 'current_weather', arguments: { city: 'Oslo' } }]),
        ]),
        { tools: [weather] },
      ),
    );
    worker.agent(
      'limited',
      ChatClient.create(
        roundScriptModel(ScriptedChatModel, [
          () => toolCallResponse([{ id: 'l1', name: 'lookup_order', arguments: { id: 1 } }]),
          () => toolCallResponse([{ id: 'l2', name: 'lookup_order', arguments: { id: 2 } }]),
        ]),
        {
          tools: [lookup],
          toolCallingAdvisor: new ToolCallingAdvisor({
            toolCallingManager: createToolCallingManager({ limits: { maxCallsPerTool: 1 } }),
          }),
        },
      ),
    );
    worker.agent(
      'search',
      ChatClient.create(
        roundScriptModel(ScriptedChatModel, [
          () =>
            toolCallResponse([
              {
                id: 's1',
                name: 'toolSearchTool',
                arguments: { query: 'shipping label of an order' },
              },
            ]),
          () => toolCallResponse([{ id: 's2', name: 'shipping_label', arguments: { order: 3 } }]),
          (messages: Message[]) => textResponse(`Found: ${toolResultsOf(messages).at(-1)}`),
        ]),
        { tools: library, advisors: [new ToolSearchToolCallingAdvisor()] },
      ),
    );
    worker.agent(
      'observed',
      ChatClient.create(ordersModel(), {
        tools: [lookup, refund],
        listeners: [
          (event) => observedEvents.push(event),
          openTelemetryListener({ tracer: otel.tracer, meter: otel.meter }),
        ],
      }),
    );
    worker.agent(
      'holding',
      ChatClient.create(
        roundScriptModel(ScriptedChatModel, [
          () => toolCallResponse([{ id: 'h1', name: 'hold', arguments: {} }]),
          () => textResponse('Held.'),
        ]),
        { tools: [hold] },
      ),
    );
    // The durable-turns page runs a client while no worker runs: its turn waits in the queue with
    // no version, and a worker launched later must take it (it failed with a TypeError).
    await DbosTurnWorker.prepareDatabase(url);
    early = await DbosTurnClient.create({ systemDatabaseUrl: url });
    earlyTurn = await early.start('orders', { user: 'Refund order 42' });
    await worker.launch();
    // A second connection stands for another process (a web server) talking to the turns.
    other = await DbosTurnClient.create({ systemDatabaseUrl: url });
    engine = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: 'toolloop' });
  }, 60_000);

  afterAll(async () => {
    await early?.close();
    await other?.close();
    await engine?.destroy();
    await worker.shutdown();
    await dropDurableDatabase(url);
  }, 60_000);

  it('runs a turn started before any worker launched, which the engine had given no version', async () => {
    expect(await earlyTurn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    expect(worker.refusedTurns).toEqual([]);
  });

  it('runs a call-mode turn as a workflow: each model call and tool call a checkpointed step', async () => {
    const turn = await other.start('orders', { user: 'Refund order 42' });
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    expect(await turn.status()).toBe('succeeded');
    const steps = (await engine.listWorkflowSteps(turn.turnId))?.map((step) => step.name);
    expect(steps).toEqual([
      'toolloop.version',
      'model:1',
      'tool:1:lookup_order:c1',
      'model:2',
      'tool:2:refund:c2:start',
      'tool:2:refund:c2',
      'model:3',
      'DBOS.writeStream',
      'DBOS.closeStream',
    ]);
    const mine = runs.filter((run) => run.idempotencyKey?.startsWith(`${turn.turnId}:`));
    expect(mine.map((run) => [run.tool, run.idempotencyKey])).toEqual([
      ['lookup_order', `${turn.turnId}:1:c1`],
      ['refund', `${turn.turnId}:2:c2`],
    ]);
  });

  it('streams a turn to readers in any process, who read on from an offset after a lost connection', async () => {
    const turn = await other.start('orders', { user: 'Refund order 42', stream: true });
    const seen: DurableTurnEvent[] = [];
    let lastOffset = -1;
    // The first connection reads three events, then drops.
    for await (const entry of turn.events()) {
      seen.push(entry.event);
      lastOffset = entry.offset;
      if (seen.length === 3) break;
    }
    // The reconnect reads on from the next offset, in another client.
    for await (const entry of other.turn(turn.turnId).events({ from: lastOffset + 1 })) {
      expect(entry.offset).toBe(lastOffset + 1);
      lastOffset = entry.offset;
      seen.push(entry.event);
    }
    const rounds = seen.filter((event) => event.type === 'round').map((event) => event.round);
    expect(rounds).toEqual([1, 2, 3]);
    const text = seen
      .filter((event) => event.type === 'chunk')
      .map((event) => event.chatResponse.results[0]?.output.text ?? '')
      .join('');
    expect(text).toBe(ANSWER);
    const last = seen.at(-1);
    expect(last?.type).toBe('end');
    expect(await turn.text()).toBe(text);
  });

  it('ends the events of a cancelled turn with a cancelled event, the turn not going on', async () => {
    const started = new Promise<void>((resolve) => {
      holdStarted = resolve;
    });
    const turn = await other.start('holding', { user: 'Hold on', stream: true });
    await started;
    await turn.cancel();
    releaseHold();
    const seen: DurableTurnEvent[] = [];
    for await (const entry of other.turn(turn.turnId).events()) seen.push(entry.event);
    expect(seen[0]?.type).toBe('round');
    expect(seen.at(-1)).toEqual({ type: 'cancelled' });
    expect(seen.filter((event) => event.type === 'end' || event.type === 'error')).toEqual([]);
    expect(await turn.status()).toBe('cancelled');
    // A reader that comes back for the last event reads it again.
    const again: DurableTurnEvent[] = [];
    for await (const entry of turn.events({ from: seen.length - 1 })) again.push(entry.event);
    expect(again.map((event) => event.type)).toEqual(['cancelled']);
  });

  it('ends the events of a turn that fails before its first step with an error event saying why', async () => {
    const turn = await other.start('nobody', { user: 'Hello' });
    const seen: DurableTurnEvent[] = [];
    for await (const entry of turn.events()) seen.push(entry.event);
    expect(seen).toEqual([
      { type: 'error', message: expect.stringContaining("names the agent 'nobody'") },
    ]);
    await expect(turn.result()).rejects.toMatchObject({ problem: 'turn-failed' });
  });

  it('returns the same turn for a second start with its id, and refuses that id for another question', async () => {
    const turnId = `question-${Date.now()}`;
    const first = await other.start('orders', { user: 'Refund order 42' }, { turnId });
    const again = await worker.client.start('orders', { user: 'Refund order 42' }, { turnId });
    expect(again.turnId).toBe(first.turnId);
    expect(await again.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    await expect(
      other.start('orders', { user: 'Refund order 43' }, { turnId }),
    ).rejects.toMatchObject({
      problem: 'invalid-input',
      message: expect.stringContaining(turnId),
    });
    await expect(
      other.start('payments', { user: 'Refund order 42' }, { turnId }),
    ).rejects.toMatchObject({ problem: 'invalid-input' });
  });

  it('parks a turn that needs approval until a decision comes from another process, refusing a wrong one', async () => {
    const turn = await other.start('payments', { user: 'Pay bob 100' });
    const waiting = await turn.waitingApproval({ waitMs: 20_000 });
    const pending = waiting?.pending as PendingToolApproval;
    expect(pending.turnId).toBe(turn.turnId);
    expect(pending.toolCalls.map((call) => call.name)).toEqual(['transfer']);
    expect(await turn.status()).toBe('running');
    // Nothing of the batch ran while the turn waits, not even the call that needs no approval.
    expect(runs.filter((run) => run.idempotencyKey?.startsWith(`${turn.turnId}:`))).toEqual([]);

    const call = pending.toolCalls[0] as PendingToolApproval['toolCalls'][number];
    await other.decide(pending, [{ ...approveToolCall(call), argumentsHash: 'f'.repeat(64) }]);
    let refused = await turn.waitingApproval();
    for (let tries = 0; refused?.refusal === undefined && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      refused = await turn.waitingApproval();
    }
    expect(refused?.refusal).toMatch(/hash/i);

    await other.decide(pending, [approveToolCall(call)]);
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(
      'Paid: transfer="sent 100 to bob"; lookup_order="order 7: 2 books, 30 EUR".',
    );
    const ran = runs.filter((run) => run.idempotencyKey?.startsWith(`${turn.turnId}:`));
    expect(ran.map((run) => run.tool).sort()).toEqual(['lookup_order', 'transfer']);
    expect(await turn.waitingApproval()).toBeUndefined();
  });

  it('never runs a non-idempotent tool again when a crash left its outcome unknown: the model is told', async () => {
    const turn = await other.start('orders', { user: 'Refund order 42' });
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    await crashBeforeCheckpointOf(engine, turn.turnId, 'tool:2:refund:c2');
    await waitForSteps(engine, turn.turnId, 'DBOS.closeStream');
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(
      `Done: lookup_order="order 42: 2 books, 30 EUR"; refund=The outcome of this call of 'refund' is unknown: the worker running it stopped before its result was recorded, and the tool is not marked idempotent, so it was not run again. It may or may not have taken effect; check before calling it again..`,
    );
    const refunds = runs.filter((run) => run.idempotencyKey === `${turn.turnId}:2:c2`);
    expect(refunds).toHaveLength(1);
  });

  it('marks the model calls and tool calls a recovered turn replayed from their checkpoints', async () => {
    const turn = await other.start('observed', { user: 'Refund order 42' });
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    observedEvents.length = 0;
    const spansBefore = otel.spans().length;
    await crashBeforeCheckpointOf(engine, turn.turnId, 'model:2');
    await waitForSteps(engine, turn.turnId, 'DBOS.closeStream');
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    const modelCalls = observedEvents.flatMap((event) =>
      event.type === 'model-call-end' ? [[event.iteration, event.replayed ?? false]] : [],
    );
    expect(modelCalls).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    const toolCalls = observedEvents.flatMap((event) =>
      event.type === 'tool-result' ? [[event.toolName, event.replayed ?? false]] : [],
    );
    expect(toolCalls).toEqual([
      ['lookup_order', true],
      ['refund', false],
    ]);
    const spans = otel.spans().slice(spansBefore);
    const replayed = spans
      .filter((span) => span.attributes['toolloop.replayed'] === true)
      .map((span) => span.name);
    expect(replayed).toEqual(['chat', 'execute_tool lookup_order']);
  });

  it('runs an idempotent tool again after such a crash, with the same idempotency key', async () => {
    const turn = await other.start('orders', { user: 'Refund order 42' });
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    await crashBeforeCheckpointOf(engine, turn.turnId, 'tool:1:lookup_order:c1');
    await waitForSteps(engine, turn.turnId, 'DBOS.closeStream');
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    const lookups = runs.filter(
      (run) => run.tool === 'lookup_order' && run.idempotencyKey?.startsWith(turn.turnId),
    );
    expect(lookups.map((run) => run.idempotencyKey)).toEqual([
      `${turn.turnId}:1:c1`,
      `${turn.turnId}:1:c1`,
    ]);
  });

  it('asks the caller about an unknown outcome under the ask-caller policy, and uses the answer', async () => {
    const turn = await other.start('orders-ask', { user: 'Refund order 42' });
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    await crashBeforeCheckpointOf(engine, turn.turnId, 'tool:2:refund:c2');
    const question = await turn.unknownOutcome({ waitMs: 20_000 });
    expect(question).toEqual({
      round: 2,
      toolCallId: 'c2',
      toolName: 'refund',
      attempt: 1,
      idempotencyKey: `${turn.turnId}:2:c2`,
    });
    // The caller looked it up in the payment system by the key: it went through.
    await other.answerUnknownOutcome(turn.turnId, question as NonNullable<typeof question>, {
      type: 'succeeded',
      result: 'refunded order 42 (checked)',
    });
    await waitForSteps(engine, turn.turnId, 'DBOS.closeStream');
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(
      'Done: lookup_order="order 42: 2 books, 30 EUR"; refund=refunded order 42 (checked).',
    );
    expect(runs.filter((run) => run.idempotencyKey === `${turn.turnId}:2:c2`)).toHaveLength(1);
  });

  it('runs the call again when the caller answers retry, with the same key', async () => {
    const turn = await other.start('orders-ask', { user: 'Refund order 42' });
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    await crashBeforeCheckpointOf(engine, turn.turnId, 'tool:2:refund:c2');
    const question = await turn.unknownOutcome({ waitMs: 20_000 });
    await other.answerUnknownOutcome(turn.turnId, question as NonNullable<typeof question>, {
      type: 'retry',
    });
    await waitForSteps(engine, turn.turnId, 'DBOS.closeStream');
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(ANSWER);
    expect(runs.filter((run) => run.idempotencyKey === `${turn.turnId}:2:c2`)).toHaveLength(2);
    const names = (await engine.listWorkflowSteps(turn.turnId))?.map((step) => step.name);
    expect(names).toContain('tool:2:refund:c2#2');
  });

  it('keeps memory outside the loop: one read and one write per turn, not repeated by a crash after the write', async () => {
    const first = await other.start('memory-outside', {
      user: 'Where is order 5?',
      conversationId: 'out-1',
    });
    expect(await first.text({ timeoutMs: 20_000 })).toBe('Remembered 1 questions.');
    const second = await other.start('memory-outside', {
      user: 'And now?',
      conversationId: 'out-1',
    });
    expect(await second.text({ timeoutMs: 20_000 })).toBe('Remembered 2 questions.');
    const stored = await memoryOutside.findByConversationId('out-1');
    expect(stored.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    // A crash after the write and before its checkpoint: the write is not made twice.
    await crashBeforeCheckpointOf(engine, second.turnId, 'memory.add');
    await waitForSteps(engine, second.turnId, 'DBOS.closeStream');
    expect(await second.text({ timeoutMs: 20_000 })).toBe('Remembered 2 questions.');
    expect(await memoryOutside.findByConversationId('out-1')).toEqual(stored);
  });

  it('keeps memory inside the loop: the whole turn, tool call and result included, stored once', async () => {
    const turn = await other.start('memory-inside', {
      user: 'Where is order 5?',
      conversationId: 'in-1',
      stream: true,
    });
    expect(await turn.text({ timeoutMs: 20_000 })).toBe('Remembered 1 questions.');
    const stored = await memoryInside.findByConversationId('in-1');
    expect(stored.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('ends on a returnDirect result and on a limit breach as the loop does', async () => {
    const direct = await other.start('weather', { user: 'Weather in Oslo?' });
    expect(await direct.text({ timeoutMs: 20_000 })).toBe('"Sunny in Oslo"');
    const limited = await other.start('limited', { user: 'Look up orders 1 and 2' });
    const response = await limited.result({ timeoutMs: 20_000 });
    expect(response?.results[0]?.metadata.finishReason).toBe('toolCallLimitExceeded');
  });

  it('runs tool search in a durable turn: the search is a step, the found tool is offered next round', async () => {
    const turn = await other.start('search', {
      user: 'Print a shipping label',
      conversationId: 'search-1',
    });
    expect(await turn.text({ timeoutMs: 20_000 })).toBe(
      'Found: shipping_label="shipping_label ready"',
    );
    const names = (await engine.listWorkflowSteps(turn.turnId))?.map((step) => step.name);
    expect(names).toContain('tool:1:toolSearchTool:s1');
    expect(names).toContain('tool:2:shipping_label:s2');
  });
});

/** Waits until the turn has recorded a step of this name (after a rewind, its last one again). */
async function waitForSteps(engine: DBOSClient, turnId: string, name: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const status = await engine.getWorkflow(turnId);
    const steps = await engine.listWorkflowSteps(turnId);
    if (status?.status === 'SUCCESS' && steps?.some((step) => step.name === name)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`turn ${turnId} did not end`);
}
