import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbosTurnClient, DbosTurnWorker, DurableTurnError } from '../../../src/durable/index.js';
import { ChatClient, type Message, tool } from '../../../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../../src/testing/index.js';
// @ts-expect-error: a plain JavaScript fixture shared with the worker processes of the crash tests
import { roundScriptModel, toolResultsOf } from '../fixtures/round-script-model.mjs';
import { serviceUrl } from '../services.js';
import { type PrivatePostgres, privatePostgres } from '../support/private-postgres.js';
import { freePort } from '../support/private-redis.js';

// The shared test PostgreSQL stands for "installed here"; this file runs a server of its own,
// which it stops and starts again.
const database = serviceUrl('DATABASE_URL');

describe.skipIf(database.skip)('durable turns when PostgreSQL goes away', () => {
  let server: PrivatePostgres;
  let url: string;
  let releaseTool: () => void = () => {};
  let toolStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    toolStarted = resolve;
  });
  let shipments = 0;
  const problems: DurableTurnError[] = [];

  const ship = tool({
    name: 'ship_order',
    description: 'Ships an order',
    inputSchema: { type: 'object', properties: { id: { type: 'number' } } },
    execute: async ({ id }) => {
      toolStarted();
      await new Promise<void>((resolve) => {
        releaseTool = resolve;
      });
      shipments++;
      return `shipped order ${id}`;
    },
  });

  beforeAll(async () => {
    server = privatePostgres(await freePort());
    url = server.url.replace(/\/postgres$/, '/toolloop_durable_faults');
  }, 60_000);

  afterAll(() => server?.remove(), 60_000);

  it('refuses to launch while PostgreSQL is unreachable, with a clear error and no credentials', async () => {
    const worker = new DbosTurnWorker({
      systemDatabaseUrl: url.replace('postgres@', 'postgres:s3cret@'),
      version: '1',
      logLevel: 'error',
    });
    worker.agent('shipping', ChatClient.create(new ScriptedChatModel([])));
    const error = await worker.launch().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(DurableTurnError);
    expect((error as DurableTurnError).problem).toBe('database-unreachable');
    expect((error as Error).message).toMatch(
      /^PostgreSQL at 127\.0\.0\.1:\d+\/toolloop_durable_faults cannot be reached: .*ECONNREFUSED.*no turn was started or recovered\.$/,
    );
    expect((error as Error).message).not.toContain('s3cret');

    const client = await DbosTurnClient.create({
      systemDatabaseUrl: url,
      connectTimeoutMs: 3000,
    }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect((client as DurableTurnError).problem).toBe('database-unreachable');
  }, 60_000);

  it('waits through an outage mid-turn and finishes when PostgreSQL is back: nothing lost, nothing run twice', async () => {
    server.start();
    const worker = new DbosTurnWorker({
      systemDatabaseUrl: url,
      version: '1',
      workerId: 'faults',
      queue: { pollingIntervalMs: 50 },
      logLevel: 'error',
      onProblem: (problem) => problems.push(problem),
    });
    worker.agent(
      'shipping',
      ChatClient.create(
        roundScriptModel(ScriptedChatModel, [
          () => toolCallResponse([{ id: 'x1', name: 'ship_order', arguments: { id: 3 } }]),
          (messages: Message[]) => textResponse(`Done: ${toolResultsOf(messages).join('; ')}`),
        ]),
        { tools: [ship] },
      ),
    );
    await worker.launch();
    try {
      const turn = await worker.client.start('shipping', { user: 'Ship order 3' });
      await started;
      // PostgreSQL goes away while the tool runs: its result cannot be checkpointed.
      server.stop();
      releaseTool();
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(problems.map((problem) => problem.problem)).toContain('database-unreachable');
      expect(problems[0]?.message).toMatch(
        /^PostgreSQL at 127\.0\.0\.1:\d+\/toolloop_durable_faults cannot be reached .*the turns of this worker wait, and go on by themselves once it answers again; nothing is lost\.$/,
      );
      server.start();
      expect(await turn.text({ timeoutMs: 60_000 })).toBe('Done: ship_order="shipped order 3"');
      expect(shipments).toBe(1);
    } finally {
      await worker.shutdown();
    }
  }, 120_000);
});
