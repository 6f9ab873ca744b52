import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { CONFIG_PROPERTIES } from './config-properties.js';
import { loadConfig } from './load-config.js';

const dir = mkdtempSync(join(tmpdir(), 'toolloop-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function problemsOf(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('loadConfig', () => {
  it('reads a Spring AI application.properties with the keys of the reference page', async () => {
    const path = file(
      'application.properties',
      [
        '# a Spring AI application',
        'server.port=8080',
        'spring.application.name=weather',
        'spring.ai.tools.throw-exception-on-error=true',
        'spring.ai.tools.limits.max-calls-per-tool-default=5',
        'spring.ai.tools.limits.max-calls-per-tool.getWeather=-1',
        'spring.ai.tools.limits.max-calls-per-tool.search=2',
        'spring.ai.tools.limits.excluded-tools=ping, pong',
        'spring.ai.tools.limits.max-total-tool-calls=-1',
        'spring.ai.tools.limits.on-limit-exceeded=RETURN_ERROR_RESPONSE',
        'spring.ai.tools.resolution.fallback.enabled=true',
        'spring.ai.chat.client.tool-calling.enabled=false',
        'spring.ai.chat.client.tool-search-advisor.enabled=true',
        'spring.ai.chat.client.tool-search-advisor.tool-index-type=lucene',
        'spring.ai.chat.client.tool-search-advisor.max-results=7',
        'spring.ai.chat.client.tool-search-advisor.eviction.ttl=PT10M',
        'spring.ai.mcp.client.request-timeout=30s',
        'spring.ai.mcp.client.toolcallback.enabled=false',
        'spring.ai.mcp.client.stdio.connections.my-server.command=npx',
        'spring.ai.mcp.client.stdio.connections.my-server.args=-y,@modelcontextprotocol/server-everything',
        'spring.ai.mcp.client.streamable-http.connections.remote.url=http://127.0.0.1:9000',
        'spring.ai.mcp.client.streamable-http.connections.remote.endpoint=/mcp',
        'spring.ai.model.chat=openai',
        'spring.ai.openai.base-url=http://127.0.0.1:11434/v1',
        'spring.ai.openai.chat.options.model=llama3.2',
        'spring.datasource.url=jdbc:postgresql://db.internal:5432/app',
        'spring.ai.chat.memory.repository.jdbc.initialize-schema=never',
      ].join('\n'),
    );
    const config = await loadConfig({ files: [path], env: false });
    expect(config.tools).toMatchObject({
      throwExceptionOnError: true,
      resolutionFallbackEnabled: true,
      limits: {
        maxCallsPerToolDefault: 5,
        maxCallsPerTool: { getWeather: 'unlimited', search: 2 },
        excludedTools: ['ping', 'pong'],
        maxTotalToolCalls: 'unlimited',
        onLimitExceeded: 'RETURN_ERROR_RESPONSE',
      },
    });
    expect(config.chatClient.toolCalling.enabled).toBe(false);
    expect(config.chatClient.toolSearchAdvisor).toMatchObject({
      enabled: true,
      toolIndexType: 'lucene',
      maxResults: 7,
      eviction: { lruMaxSessions: 1000, ttlMs: 600_000 },
    });
    expect(config.mcp).toMatchObject({
      requestTimeoutMs: 30_000,
      toolCallbackEnabled: false,
      stdio: {
        'my-server': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
      },
      streamableHttp: { remote: { url: 'http://127.0.0.1:9000', endpoint: '/mcp' } },
    });
    expect(config.chatProvider).toBe('openai');
    expect(config.providers.openai).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.2',
    });
    expect(config.memory.postgres).toMatchObject({
      url: 'postgresql://db.internal:5432/app',
      autoMigrate: false,
    });
    expect(Object.isFrozen(config.tools.limits)).toBe(true);
  });

  it('reads the same keys from YAML, nested or dotted, with lists as sequences', async () => {
    const path = file(
      'application.yaml',
      [
        'spring:',
        '  ai:',
        '    tools:',
        '      limits:',
        '        maxTotalToolCalls: 12', // camelCase binds like Spring's relaxed binding
        '        excluded-tools: [ping, pong]',
        '    mcp.client.stdio.connections:',
        '      my-server:',
        '        command: npx',
        '        args:',
        '          - -y',
        '          - "@modelcontextprotocol/server-everything"',
        '        env:',
        '          API_TOKEN: abc',
        'toolloop:',
        '  model: openai:gpt-4.1-mini',
        '  tools.default-timeout: 1500ms',
      ].join('\n'),
    );
    const config = await loadConfig({ files: [path], env: false });
    expect(config.tools.limits.maxTotalToolCalls).toBe(12);
    expect(config.tools.limits.excludedTools).toEqual(['ping', 'pong']);
    expect(config.tools.defaultTimeoutMs).toBe(1500);
    expect(config.model).toBe('openai:gpt-4.1-mini');
    expect(config.mcp.stdio['my-server']).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything'],
      env: { API_TOKEN: 'abc' },
    });
  });

  it('reads JSON with the same key tree, and indexed list keys in properties', async () => {
    const json = file(
      'toolloop.json',
      JSON.stringify({ toolloop: { memory: { store: 'in-memory', 'max-messages': 4 } } }, null, 2),
    );
    const properties = file(
      'indexed.properties',
      'spring.ai.mcp.client.stdio.connections.fs.command=node\n' +
        'spring.ai.mcp.client.stdio.connections.fs.args[0]=server.js\n' +
        'spring.ai.mcp.client.stdio.connections.fs.args[1]=--root=/tmp\n',
    );
    const config = await loadConfig({ files: [json, properties], env: false });
    expect(config.memory).toMatchObject({ store: 'in-memory', maxMessages: 4 });
    expect(config.mcp.stdio.fs?.args).toEqual(['server.js', '--root=/tmp']);
  });

  it('layers defaults < file < environment < code', async () => {
    const path = file(
      'layers.properties',
      'spring.ai.tools.limits.max-total-tool-calls=10\n' +
        'spring.ai.tools.limits.max-calls-per-tool-default=9\n' +
        'toolloop.tools.max-concurrency=2\n',
    );
    const config = await loadConfig({
      files: [path],
      env: {
        SPRING_AI_TOOLS_LIMITS_MAX_TOTAL_TOOL_CALLS: '20',
        TOOLLOOP_TOOLS_MAX_CONCURRENCY: '3',
        TOOLLOOP_NO_INSTALL: '1', // belongs to the test scripts: ignored
        SPRING_AI_OLLAMA_BASE_URL: 'http://x', // another Spring AI module: ignored
      },
      overrides: { tools: { maxConcurrency: 4 } },
    });
    expect(config.tools.limits.maxCallsPerToolDefault).toBe(9); // file
    expect(config.tools.limits.maxTotalToolCalls).toBe(20); // environment over file
    expect(config.tools.maxConcurrency).toBe(4); // code over environment
    expect(config.tools.limits.onLimitExceeded).toBe('THROW'); // default
  });

  it('binds every property from its environment variable, names in kebab case', async () => {
    const config = await loadConfig({
      env: {
        SPRING_AI_MCP_CLIENT_STDIO_CONNECTIONS_MY_SERVER_COMMAND: 'npx',
        SPRING_AI_MCP_CLIENT_STDIO_CONNECTIONS_MY_SERVER_ARGS: '-y,pkg',
        SPRING_AI_MCP_CLIENT_STDIO_CONNECTIONS_MY_SERVER_ENV_API_TOKEN: 'secret',
        SPRING_AI_CHAT_CLIENT_TOOLSEARCHADVISOR_ENABLED: 'TRUE',
        SPRING_AI_OPENAI_API_KEY: 'sk-test',
        TOOLLOOP_MEMORY_STORE: 'sqlite',
        TOOLLOOP_MEMORY_SQLITE_PATH: '/tmp/x.db',
      },
    });
    expect(config.mcp.stdio['my-server']).toEqual({
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { API_TOKEN: 'secret' },
    });
    expect(config.chatClient.toolSearchAdvisor.enabled).toBe(true);
    expect(config.providers.openai?.apiKey).toBe('sk-test');
    expect(config.memory).toMatchObject({ store: 'sqlite', sqlite: { path: '/tmp/x.db' } });
  });

  it('reports every unknown key, wrong type and out-of-range value with its file line', async () => {
    const path = file(
      'broken.yaml',
      [
        'spring:',
        '  ai:',
        '    tools:',
        '      limits:',
        '        max-total-tool-calls: 0',
        '        max-calls-per-tool-defualt: 3',
        '        on-limit-exceeded: EXPLODE',
        '    chat.client.tool-calling.enabled: maybe',
        'logging.level.root: DEBUG',
      ].join('\n'),
    );
    const error = await problemsOf(loadConfig({ files: [path], env: false }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.problems.map((p) => [p.key, p.origin])).toEqual([
      ['spring.ai.tools.limits.max-total-tool-calls', { kind: 'file', file: path, line: 5 }],
      ['spring.ai.tools.limits.max-calls-per-tool-defualt', { kind: 'file', file: path, line: 6 }],
      ['spring.ai.tools.limits.on-limit-exceeded', { kind: 'file', file: path, line: 7 }],
      ['spring.ai.chat.client.tool-calling.enabled', { kind: 'file', file: path, line: 8 }],
    ]);
    expect(error.message).toContain(
      `${path}:5: spring.ai.tools.limits.max-total-tool-calls: 0 is out of range`,
    );
    expect(error.message).toContain('unknown property');
    expect(error.message).toContain('one of THROW, RETURN_ERROR_RESPONSE, got "EXPLODE"');
    expect(error.message).toContain('expected true or false, got "maybe"');
  });

  it('names the line of a properties key, also after continuation lines', async () => {
    const path = file(
      'broken.properties',
      'spring.ai.mcp.client.stdio.connections.a.args=one,\\\n    two\n\nspring.ai.tools.limits.max-total-tool-calls=many\n',
    );
    const error = await problemsOf(loadConfig({ files: [path], env: false }));
    expect(error.problems).toEqual([
      {
        key: 'spring.ai.tools.limits.max-total-tool-calls',
        origin: { kind: 'file', file: path, line: 4 },
        problem: 'expected a positive integer, or -1 for no limit, got "many"',
      },
      {
        key: 'spring.ai.mcp.client.stdio.connections.a.command',
        origin: { kind: 'file', file: path, line: 1 },
        problem: 'a stdio connection needs a command',
      },
    ]);
  });

  it('names the environment variable and the code path of a bad value', async () => {
    const error = await problemsOf(
      loadConfig({
        env: {
          TOOLLOOP_TOOLS_MAX_CONCURENCY: '3',
          SPRING_AI_TOOLS_LIMITS_MAX_TOTAL_TOOL_CALLS: 'x',
        },
        overrides: { tools: { maxConcurrency: 0, bogus: true } as never },
      }),
    );
    // Unknown names are found while reading each layer; bad values while applying them.
    expect(error.problems.map((p) => [p.key, p.origin])).toEqual([
      ['TOOLLOOP_TOOLS_MAX_CONCURENCY', { kind: 'env', variable: 'TOOLLOOP_TOOLS_MAX_CONCURENCY' }],
      ['tools.bogus', { kind: 'code', path: 'tools.bogus' }],
      [
        'spring.ai.tools.limits.max-total-tool-calls',
        { kind: 'env', variable: 'SPRING_AI_TOOLS_LIMITS_MAX_TOTAL_TOOL_CALLS' },
      ],
      ['toolloop.tools.max-concurrency', { kind: 'code', path: 'tools.maxConcurrency' }],
    ]);
    expect(error.message).toContain(
      'environment variable SPRING_AI_TOOLS_LIMITS_MAX_TOTAL_TOOL_CALLS: spring.ai.tools.limits.max-total-tool-calls',
    );
  });

  it('never shows a secret value in an error', async () => {
    const error = await problemsOf(
      loadConfig({
        env: false,
        overrides: { memory: { redis: { url: 'https://user:hunter2@x' } } },
      }),
    );
    expect(error.message).toContain('toolloop.memory.redis.url');
    expect(error.message).not.toContain('hunter2');
  });

  it('requires the settings of the chosen memory store, naming where the store was chosen', async () => {
    const path = file('store.properties', '\ntoolloop.memory.store=postgres\n');
    const error = await problemsOf(loadConfig({ files: [path], env: false }));
    expect(error.problems).toEqual([
      {
        key: 'toolloop.memory.store',
        origin: { kind: 'file', file: path, line: 2 },
        problem: 'the postgres store needs toolloop.memory.postgres.url (or spring.datasource.url)',
      },
    ]);
  });

  it('refuses map keys that reach the prototype', async () => {
    const error = await problemsOf(
      loadConfig({
        env: false,
        texts: [
          {
            text: 'spring.ai.tools.limits.max-calls-per-tool.__proto__=3\n',
            format: 'properties',
            source: 'x.properties',
          },
        ],
      }),
    );
    expect(error.problems[0]?.problem).toBe('unknown property');
    expect(({} as Record<string, unknown>)['3']).toBeUndefined();
  });

  it('reports syntax errors and unreadable files with their location', async () => {
    const yaml = file('bad.yaml', 'spring:\n  ai: [unclosed\n');
    const error = await problemsOf(
      loadConfig({ files: [yaml, join(dir, 'absent.yaml')], env: false }),
    );
    expect(error.problems[0]?.problem).toMatch(/^YAML syntax error/);
    expect(error.problems[1]).toMatchObject({
      origin: { kind: 'file', file: join(dir, 'absent.yaml'), line: 1 },
      problem: 'cannot be read (ENOENT)',
    });
  });

  it("reads Spring AI's Google GenAI keys, from a file and from the environment, as the google provider", async () => {
    const path = file(
      'google.properties',
      [
        'spring.ai.model.chat=google-genai',
        'spring.ai.google.genai.chat.options.model=gemini-2.5-flash',
        'spring.ai.google.genai.chat.options.max-output-tokens=2048',
        'spring.ai.google.genai.chat.options.temperature=0.4',
      ].join('\n'),
    );
    const config = await loadConfig({
      files: [path],
      env: { SPRING_AI_GOOGLE_GENAI_API_KEY: 'AIza-from-env' },
    });
    expect(config.chatProvider).toBe('google-genai');
    expect(config.providers.google).toEqual({
      apiKey: 'AIza-from-env',
      model: 'gemini-2.5-flash',
      maxTokens: 2048,
      temperature: 0.4,
    });
    const typo = await problemsOf(
      loadConfig({ env: { SPRING_AI_GOOGLE_GENAI_CHAT_OPTIONS_TOPKK: '3' } }),
    );
    expect(typo.problems[0]?.problem).toMatch(/^names no toolloop property/);
  });

  it('maps no two properties to one environment variable name', () => {
    const names = CONFIG_PROPERTIES.map((p) => p.key.replace(/[.-]/g, '').toUpperCase());
    expect(new Set(names).size).toBe(names.length);
  });
});
