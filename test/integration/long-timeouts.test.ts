import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { chatClientFromConfig, loadConfig } from '../../src/config/index.js';
import { jsonSchema, type Message, type ToolResponseMessage, tool } from '../../src/index.js';
import { McpClient } from '../../src/mcp/index.js';
import { PostgresChatMemoryRepository } from '../../src/memory/postgres/index.js';
import { RedisChatMemoryRepository } from '../../src/memory/redis/index.js';
import { OpenAiChatModel } from '../../src/openai/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../src/testing/index.js';
import { projectRoot } from '../package/packed-package.js';
import { serviceUrl } from './services.js';
import { FixtureHttpServer, sendJson } from './support/fixture-http-server.js';

// Node fires a setTimeout of 2^31 ms or more (about 24.8 days), and one of Infinity, after 1 ms.
// Every limit a user can configure must mean what it says: each case below gives a month (or no
// limit) to an operation that takes a few milliseconds, which must then succeed.

const DAY = 86_400_000;
const LONG: [string, number][] = [
  ['2^31 ms', 2 ** 31],
  ['30 days', 30 * DAY],
  ['Infinity', Number.POSITIVE_INFINITY],
];
const everything = join(
  projectRoot,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
const dir = mkdtempSync(join(tmpdir(), 'toolloop-long-timeouts-'));
const redis = serviceUrl('REDIS_URL');
const postgres = serviceUrl('DATABASE_URL');
const run = `${process.pid}_${Date.now().toString(36)}`;
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

const slowTool = tool({
  name: 'slowEcho',
  description: 'Echoes a text after 40 ms',
  inputSchema: jsonSchema<{ text: string }>({
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  }),
  execute: async ({ text }) => {
    await new Promise((resolve) => setTimeout(resolve, 40));
    return `echo: ${text}`;
  },
});

const TURN: Message[] = [
  { role: 'user', text: 'Hi' },
  { role: 'assistant', text: 'Hello', toolCalls: [] },
];

describe('a configured month is a month', () => {
  it('toolloop.tools.default-timeout and the MCP request-timeout of PT720H let a slow local tool and a slow MCP tool finish', async () => {
    const path = join(dir, 'long.properties');
    writeFileSync(
      path,
      [
        'toolloop.tools.default-timeout=PT720H',
        'spring.ai.mcp.client.request-timeout=PT720H',
        `spring.ai.mcp.client.stdio.connections.everything.command=${process.execPath}`,
        `spring.ai.mcp.client.stdio.connections.everything.args=${everything}`,
        'toolloop.mcp.include-tools=trigger-long-running-operation',
      ].join('\n'),
    );
    const config = await loadConfig({ files: [path], env: false });
    expect(config.tools.defaultTimeoutMs).toBe(720 * 3_600_000);
    expect(config.mcp.requestTimeoutMs).toBe(720 * 3_600_000);
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'c1', name: 'slowEcho', arguments: { text: 'a month' } },
        {
          id: 'c2',
          name: 'trigger-long-running-operation',
          arguments: { duration: 0.2, steps: 1 },
        },
      ]),
      textResponse('both done'),
    ]);
    const built = await chatClientFromConfig(config, { chatModel: model, tools: [slowTool] });
    try {
      expect(await built.client.prompt('go').call().content()).toBe('both done');
      const results =
        (model.prompts[1]?.messages.at(-1) as ToolResponseMessage | undefined)?.responses ?? [];
      expect(results.map((result) => result.isError ?? false)).toEqual([false, false]);
      expect(results[0]?.responseData).toBe('"echo: a month"');
      expect(results[1]?.responseData).toMatch(/completed/i);
    } finally {
      await built.close();
    }
  }, 60_000);

  it.each(LONG)(
    'an McpClient with request and connect timeouts of %s connects, lists and calls',
    async (_name, ms) => {
      const client = new McpClient(
        'everything',
        { command: process.execPath, args: [everything] },
        { requestTimeoutMs: ms, connectTimeoutMs: ms },
      );
      closers.push(() => client.close());
      const tools = await client.listTools();
      expect(tools.map((listed) => listed.name)).toContain('trigger-long-running-operation');
      const result = await client.callTool(
        'trigger-long-running-operation',
        { duration: 0.2, steps: 1 },
        { timeoutMs: ms },
      );
      expect(result.isError ?? false).toBe(false);
      await client.close();
    },
    60_000,
  );
});

describe('a provider adapter with long limits', () => {
  it.each(LONG)(
    'timeoutMs, attemptTimeoutMs and idleTimeoutMs of %s: an answer after 60 ms arrives',
    async (_name, ms) => {
      const server = new FixtureHttpServer();
      await server.start();
      closers.push(() => server.stop());
      const answer = sendJson({
        id: 'c1',
        choices: [
          { index: 0, message: { role: 'assistant', content: 'late' }, finish_reason: 'stop' },
        ],
      });
      server.replyAlways(async (request, response) => {
        await new Promise((resolve) => setTimeout(resolve, 60));
        await answer(request, response);
      });
      const model = new OpenAiChatModel({
        baseUrl: `${server.baseUrl}/v1`,
        apiKey: 'sk-long-timeouts-0123456789',
        maxRetries: 0,
        timeoutMs: ms,
        attemptTimeoutMs: ms,
        idleTimeoutMs: ms,
      });
      const response = await model.call({ messages: [{ role: 'user', text: 'Hi' }], options: {} });
      expect(response.results[0]?.output.text).toBe('late');
    },
  );
});

describe.skipIf(redis.skip)('Redis store with a long timeout', () => {
  it.each(LONG)('timeoutMs %s: 20 appends and a read succeed', async (name, ms) => {
    const client = new Redis(redis.url as string, { lazyConnect: true });
    await client.connect();
    closers.push(() => client.quit());
    const repository = new RedisChatMemoryRepository({
      client,
      keyPrefix: `toolloop-long-${run}-${name.replace(/\W/g, '')}:`,
      timeoutMs: ms,
    });
    for (let index = 0; index < 20; index++) await repository.append('c', TURN);
    await repository.append('c', TURN, { retain: (messages) => messages.map((_, i) => i) });
    expect(await repository.findByConversationId('c')).toHaveLength(42);
    await repository.deleteByConversationId('c');
  });
});

describe.skipIf(postgres.skip)('PostgreSQL store with a long timeout', () => {
  const schema = `toolloop_long_${run}`;
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it.each(LONG)(
    'timeoutMs %s: migrate, append, trimming append and read succeed',
    async (name, ms) => {
      const pool = new pg.Pool({ connectionString: postgres.url, max: 2, idleTimeoutMillis: 500 });
      pool.on('error', () => {});
      closers.push(() => pool.end());
      const repository = new PostgresChatMemoryRepository({
        pool,
        schema,
        tablePrefix: `long_${name.replace(/\W/g, '')}`.toLowerCase(),
        timeoutMs: ms,
      });
      await repository.append('c', TURN);
      await repository.append('c', TURN, { retain: (messages) => messages.map((_, i) => i) });
      expect(await repository.findByConversationId('c')).toEqual([...TURN, ...TURN]);
    },
  );
});
