import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbosTurnClient, DbosTurnWorker, type DurableTurnEvent } from '../../../src/durable/index.js';
import {
  ChatClient,
  type Message,
  type ToolContext,
  tool,
} from '../../../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../../src/testing/index.js';
// @ts-expect-error: a plain JavaScript fixture shared with the worker processes of the crash tests
import { roundScriptModel, toolResultsOf } from '../fixtures/round-script-model.mjs';
import { serviceUrl } from '../services.js';
import { durableDatabaseUrl, dropDurableDatabase } from '../support/durable-database.js';

const database = serviceUrl('DATABASE_URL');

/** What each tool call saw, in the order they ran (this process runs every turn). */
const runs: { tool: string; idempotencyKey: string | undefined; input: unknown }[] = [];

const lookup = tool({
  name: 'lookup_order',
  description: 'Finds an order',
  inputSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
  readOnly: true,
  execute: (input: { id: number }, context: ToolContext) => {
    runs.push({ tool: 'lookup_order', idempotencyKey: context.idempotencyKey, input });
    return `order ${input.id}: 2 books, 30 EUR`;
  },
});

const refund = tool({
  name: 'refund',
  description: 'Refunds an order',
  inputSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
  execute: (input: { id: number }, context: ToolContext) => {
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

describe.skipIf(database.skip)('durable turns on DBOS (one worker in this process)', () => {
  const url = database.skip ? '' : durableDatabaseUrl(database.url as string, 'turns');
  const worker = new DbosTurnWorker({
    systemDatabaseUrl: url,
    workerId: 'durable-turns-test',
    version: '1',
    queue: { pollingIntervalMs: 50 },
    logLevel: 'error',
  });
  let other: DbosTurnClient;
  let engine: DBOSClient;

  beforeAll(async () => {
    worker.agent('orders', ChatClient.create(ordersModel(), { tools: [lookup, refund] }));
    await worker.launch();
    // A second connection stands for another process (a web server) talking to the turns.
    other = await DbosTurnClient.create({ systemDatabaseUrl: url });
    engine = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: 'toolloop' });
  }, 60_000);

  afterAll(async () => {
    await other?.close();
    await engine?.destroy();
    await worker.shutdown();
    await dropDurableDatabase(url);
  }, 60_000);

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
});
