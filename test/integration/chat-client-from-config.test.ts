import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ChatModelRegistry,
  chatClientFromConfig,
  loadConfig,
  type ToolloopConfigInput,
} from '../../src/config/index.js';
import { HashingEmbeddingModel } from '../../src/embeddings/testing/hashing-embedding-model.js';
import {
  CONVERSATION_ID,
  HybridToolIndex,
  jsonSchema,
  type Message,
  type ToolResponseMessage,
  ToolSearchToolCallingAdvisor,
  tool,
} from '../../src/index.js';
import { SqliteToolEmbeddingCache } from '../../src/memory/sqlite/index.js';
import { OpenAiChatModel } from '../../src/openai/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../src/testing/index.js';
import { projectRoot } from '../package/packed-package.js';
import { serviceUrl } from './services.js';
import { FixtureHttpServer, sendJson } from './support/fixture-http-server.js';

const dir = mkdtempSync(join(tmpdir(), 'toolloop-from-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const everything = join(
  projectRoot,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
const redis = serviceUrl('REDIS_URL');
const postgres = serviceUrl('DATABASE_URL');
const run = `${process.pid}_${Date.now().toString(36)}`;

const counter = tool({
  name: 'countWords',
  description: 'Counts the words of a text',
  inputSchema: jsonSchema<{ text: string }>({
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  }),
  execute: (input) => input.text.split(/\s+/).length,
});

function lastToolResponses(model: ScriptedChatModel, call: number) {
  const last = model.prompts[call]?.messages.at(-1) as Message | undefined;
  expect(last?.role).toBe('tool');
  return (last as ToolResponseMessage).responses;
}

describe('chatClientFromConfig', () => {
  it('applies the limits and the exception setting of a Spring AI properties file', async () => {
    const path = join(dir, 'limits.properties');
    writeFileSync(
      path,
      'spring.ai.tools.limits.max-calls-per-tool.countWords=1\n' +
        'spring.ai.tools.limits.on-limit-exceeded=RETURN_ERROR_RESPONSE\n',
    );
    const config = await loadConfig({ files: [path], env: false });
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'c1', name: 'countWords', arguments: '{"text":"a b"}' },
        { id: 'c2', name: 'countWords', arguments: '{"text":"a b c"}' },
      ]),
      textResponse('done'),
    ]);
    const built = await chatClientFromConfig(config, { chatModel: model, tools: [counter] });
    try {
      expect(await built.client.prompt('count').call().content()).toBe('done');
      const responses = lastToolResponses(model, 1);
      expect(responses[0]).toMatchObject({ id: 'c1', responseData: '2' });
      expect(responses[1]).toMatchObject({ id: 'c2', isError: true });
      expect(responses[1]?.responseData).toMatch(/limit/i);
    } finally {
      await built.close();
    }
  });

  it('turns the tool loop off with spring.ai.chat.client.tool-calling.enabled=false', async () => {
    const config = await loadConfig({
      env: false,
      texts: [
        {
          text: 'spring.ai.chat.client.tool-calling.enabled=false',
          format: 'properties',
          source: 'off.properties',
        },
      ],
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'countWords', arguments: '{"text":"a"}' }]),
    ]);
    const built = await chatClientFromConfig(config, { chatModel: model, tools: [counter] });
    const response = await built.client.prompt('count').call().chatResponse();
    expect(response?.results[0]?.output.toolCalls.map((call) => call.id)).toEqual(['c1']);
    expect(model.callCount).toBe(1);
    await built.close();
  });

  it('builds the tool search advisor with the configured index and results', async () => {
    const config = await loadConfig({
      env: false,
      overrides: {
        chatClient: {
          toolSearchAdvisor: { enabled: true, toolIndexType: 'lucene', maxResults: 3 },
        },
      },
    });
    const built = await chatClientFromConfig(config, { chatModel: new ScriptedChatModel([]) });
    expect(built.toolCallingAdvisor).toBeInstanceOf(ToolSearchToolCallingAdvisor);
    expect((built.toolCallingAdvisor as ToolSearchToolCallingAdvisor).maxResults).toBe(3);
    await built.close();
  });

  it('builds a hybrid index from tool-index-type=hybrid over the embedding model and cache passed in code', async () => {
    const path = join(dir, 'hybrid.properties');
    writeFileSync(
      path,
      'spring.ai.chat.client.tool-search-advisor.enabled=true\n' +
        'spring.ai.chat.client.tool-search-advisor.tool-index-type=hybrid\n',
    );
    const config = await loadConfig({ env: false, files: [path] });
    expect(config.chatClient.toolSearchAdvisor.toolIndexType).toBe('hybrid');
    const database = new Database(':memory:');
    const embeddingCache = new SqliteToolEmbeddingCache({ database });
    const built = await chatClientFromConfig(config, {
      chatModel: new ScriptedChatModel([]),
      embeddingModel: {
        id: 'hashing',
        embed: (texts) => new HashingEmbeddingModel().embed(texts),
      },
      embeddingCache,
    });
    const index = (built.toolCallingAdvisor as ToolSearchToolCallingAdvisor).toolIndex;
    expect(index).toBeInstanceOf(HybridToolIndex);
    await index.indexTools('s', [
      { toolName: 'countWords', summary: 'Counts the words of a text' },
    ]);
    const found = await index.search({ sessionId: 's', query: 'how many words' });
    expect(found.toolReferences.map((reference) => reference.toolName)).toEqual(['countWords']);
    // The vector side went through the cache passed in code.
    expect(database.prepare('SELECT COUNT(*) AS n FROM toolloop_tool_embeddings').get()).toEqual({
      n: 1,
    });
    await built.close();
    database.close();

    await expect(
      chatClientFromConfig(config, { chatModel: new ScriptedChatModel([]) }),
    ).rejects.toThrow('tool-index-type=hybrid needs the embeddingModel option');
  });

  it('resolves an openai: model id to a real HTTP call at the configured base URL', async () => {
    const server = new FixtureHttpServer();
    await server.start();
    try {
      server.reply(
        sendJson({
          id: 'x',
          object: 'chat.completion',
          model: 'local-model',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'hello from the server' },
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 },
        }),
      );
      const config = await loadConfig({
        env: { SPRING_AI_OPENAI_BASE_URL: server.baseUrl },
        overrides: { model: 'openai:local-model' },
      });
      const built = await chatClientFromConfig(config, { env: {} });
      expect(built.chatModel).toBeInstanceOf(OpenAiChatModel);
      expect(await built.client.prompt('hi').call().content()).toBe('hello from the server');
      expect((server.requests[0]?.body as { model?: string } | undefined)?.model).toBe(
        'local-model',
      );
      await built.close();
    } finally {
      await server.stop();
    }
  });

  it('uses a registered provider and names the known ones for an unknown id', async () => {
    const registry = new ChatModelRegistry().register(
      'scripted',
      (model) => new ScriptedChatModel([textResponse(`scripted ${model}`)]),
    );
    const config = await loadConfig({ env: false, overrides: { model: 'scripted:m1' } });
    const built = await chatClientFromConfig(config, { registry });
    expect(await built.client.prompt('hi').call().content()).toBe('scripted m1');
    const unknown = await loadConfig({ env: false, overrides: { model: 'nope:x' } });
    await expect(chatClientFromConfig(unknown, { registry })).rejects.toThrow(
      'unknown model provider \'nope\' in "nope:x": registered are anthropic, google, openai, openai-responses, scripted',
    );
    await expect(chatClientFromConfig(await loadConfig({ env: false }))).rejects.toThrow(
      /no model configured: set toolloop.model/,
    );
  });

  it("offers an MCP stdio server's tools, filtered, and calls them", async () => {
    const path = join(dir, 'mcp.yaml');
    writeFileSync(
      path,
      [
        'spring.ai.mcp.client:',
        '  request-timeout: 30s',
        '  stdio.connections.everything:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(everything)}]`,
        'toolloop.mcp.include-tools: [echo, everything/get-sum]',
      ].join('\n'),
    );
    const config = await loadConfig({ files: [path], env: false });
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'echo', arguments: '{"message":"from config"}' }]),
      textResponse('echoed'),
    ]);
    const built = await chatClientFromConfig(config, { chatModel: model, tools: [counter] });
    try {
      expect(await built.client.prompt('echo').call().content()).toBe('echoed');
      const offered = (model.prompts[0]?.options.toolCallbacks ?? []).map((t) => t.definition.name);
      expect(offered.sort()).toEqual(['countWords', 'echo', 'get-sum']);
      expect(lastToolResponses(model, 1)[0]?.responseData).toContain('from config');
    } finally {
      await built.close();
    }
    expect(built.mcpTools?.clients[0]?.pid).toBeUndefined();
  }, 60_000);

  const stores: [string, boolean, () => ToolloopConfigInput][] = [
    ['in-memory', false, () => ({ memory: { store: 'in-memory' } })],
    [
      'sqlite',
      false,
      () => ({ memory: { store: 'sqlite', sqlite: { path: join(dir, 'sub', 'memory.db') } } }),
    ],
    [
      'redis',
      redis.skip,
      () => ({
        memory: { store: 'redis', redis: { url: redis.url, keyPrefix: `toolloop-config-${run}:` } },
      }),
    ],
    [
      'postgres',
      postgres.skip,
      () => ({
        memory: {
          store: 'postgres',
          postgres: { url: postgres.url, schema: `toolloop_config_${run}` },
        },
      }),
    ],
  ];

  afterAll(async () => {
    if (postgres.skip) return;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "toolloop_config_${run}" CASCADE`);
    await admin.end();
  });

  it.each(stores)('keeps conversations in the %s store', async (kind, skip, overrides) => {
    if (skip) return;
    const config = await loadConfig({
      env: false,
      overrides: { ...overrides(), memory: { ...overrides().memory, maxMessages: 10 } },
    });
    const first = new ScriptedChatModel([textResponse('Nice to meet you, Ada')]);
    const one = await chatClientFromConfig(config, { chatModel: first });
    expect(one.chatMemory).toBeDefined();
    await one.client
      .prompt('My name is Ada')
      .advisors((a) => a.param(CONVERSATION_ID, `c-${kind}-${run}`))
      .call()
      .content();
    await one.close();
    // A second client from the same config: the durable stores still hold the first turn.
    const second = new ScriptedChatModel([textResponse('You are Ada')]);
    const two = await chatClientFromConfig(config, {
      chatModel: second,
      ...(kind === 'in-memory' ? { memoryRepository: one.chatMemory!.repository } : {}),
    });
    await two.client
      .prompt('What is my name?')
      .advisors((a) => a.param(CONVERSATION_ID, `c-${kind}-${run}`))
      .call()
      .content();
    expect(
      second.prompts[0]?.messages.map((m) =>
        m.role === 'assistant' ? m.text : m.role === 'user' ? m.text : m.role,
      ),
    ).toEqual(['My name is Ada', 'Nice to meet you, Ada', 'What is my name?']);
    await two.close();
  });

  // The pool and the client a config makes are not the user's to watch: an idle connection the
  // server ended made the pool emit 'error' with no listener, which ended the process, and every
  // failed Redis reconnect was printed as '[ioredis] Unhandled error event'.
  it.skipIf(postgres.skip)(
    'the PostgreSQL pool it makes outlives the server ending an idle connection',
    async () => {
      const applicationName = `toolloop-config-idle-${run}`;
      const url = new URL(postgres.url as string);
      url.searchParams.set('application_name', applicationName);
      const config = await loadConfig({
        env: false,
        overrides: {
          memory: {
            store: 'postgres',
            postgres: { url: url.toString(), schema: `toolloop_config_${run}` },
          },
        },
      });
      const model = new ScriptedChatModel([textResponse('one'), textResponse('two')]);
      const built = await chatClientFromConfig(config, { chatModel: model });
      const uncaught: unknown[] = [];
      const onUncaught = (error: unknown) => uncaught.push(error);
      process.prependListener('uncaughtException', onUncaught);
      const ask = () =>
        built.client
          .prompt('Hello')
          .advisors((a) => a.param(CONVERSATION_ID, `idle-${run}`))
          .call()
          .content();
      try {
        expect(await ask()).toBe('one');
        const admin = new pg.Client({ connectionString: postgres.url });
        await admin.connect();
        const ended = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
          [applicationName],
        );
        await admin.end();
        expect(ended.rows.length).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(uncaught).toEqual([]);
        expect(await ask()).toBe('two');
      } finally {
        process.removeListener('uncaughtException', onUncaught);
        await built.close();
      }
    },
  );

  it('the Redis client it makes reports nothing on its own while the server is unreachable', async () => {
    const config = await loadConfig({
      env: false,
      overrides: { memory: { store: 'redis', redis: { url: 'redis://127.0.0.1:1' } } },
    });
    const printed: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => {
      printed.push(args);
    };
    try {
      const built = await chatClientFromConfig(config, {
        chatModel: new ScriptedChatModel([]),
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await built.close();
    } finally {
      console.error = original;
    }
    expect(printed.filter((args) => String(args[0]).includes('[ioredis]'))).toEqual([]);
  });

  it('refuses two MCP connections of one name across transports', async () => {
    const config = await loadConfig({
      env: false,
      overrides: {
        memory: { store: 'sqlite', sqlite: { path: join(dir, 'dup.db') } },
        mcp: {
          stdio: { twin: { command: 'node', args: [] } },
          streamableHttp: { twin: { url: 'http://127.0.0.1:1/mcp' } },
        },
      },
    });
    await expect(
      chatClientFromConfig(config, { chatModel: new ScriptedChatModel([]) }),
    ).rejects.toThrow("two MCP connections are named 'twin'");
  });
});
