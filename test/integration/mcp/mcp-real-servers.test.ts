import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ChatClient,
  ToolDefinitionError,
  type ToolResponseMessage,
  tool,
} from '../../../src/index.js';
import { type McpClient, McpToolCallbackProvider } from '../../../src/mcp/index.js';
import type { McpToolCallback } from '../../../src/mcp/mcp-tool-callback.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../../src/testing/index.js';

// The reference servers from npm (dev dependencies, so npx resolves them with no network).
const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'toolloop-mcp-servers-'));
const providers: McpToolCallbackProvider[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(providers.map((provider) => provider.close()));
  for (const child of children) child.kill();
  rmSync(work, { recursive: true, force: true });
});

function provider(options: ConstructorParameters<typeof McpToolCallbackProvider>[0]) {
  const created = new McpToolCallbackProvider(options);
  providers.push(created);
  return created;
}

/** The connection exactly as written in the docs; npm offline proves it resolves locally. */
const everything = {
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-everything'],
  env: { npm_config_offline: 'true' },
  cwd: projectRoot,
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('@modelcontextprotocol/server-everything', () => {
  it('over stdio via npx (offline): lazy listing, names, annotations, calls and the result mapping', async () => {
    const mcpTools = provider({ connections: { everything } });
    const client = mcpTools.clients[0] as McpClient;
    expect(client.pid).toBeUndefined();
    const tools = await mcpTools.getToolCallbacks();
    const byName = new Map(tools.map((entry) => [entry.definition.name, entry]));
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image']),
    );
    for (const name of byName.keys()) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    // Untrusted by default: its annotations are kept, not taken at their word.
    const echo = byName.get('echo') as McpToolCallback;
    expect(echo.tool.annotations).toMatchObject({ readOnlyHint: true });
    expect(echo.metadata).toMatchObject({ readOnly: false, destructive: true });
    expect(client.connectionInfo?.serverInfo?.name).toBe('mcp-servers/everything');

    expect(await byName.get('echo')?.call('{"message":"hi"}')).toBe('Echo: hi');
    expect(await byName.get('get-sum')?.call('{"a":2,"b":3}')).toMatch(/5/);
    const image = JSON.parse((await byName.get('get-tiny-image')?.call('{}')) as string) as {
      type: string;
      mimeType?: string;
    }[];
    expect(image.some((block) => block.type === 'image' && block.mimeType === 'image/png')).toBe(
      true,
    );
    const structured = await byName.get('get-structured-content')?.call('{"location":"Chicago"}');
    expect(JSON.parse(structured as string)).toHaveProperty('temperature');
    const links = JSON.parse(
      (await byName.get('get-resource-links')?.call('{"count":2}')) as string,
    );
    expect(links.filter((block: { type: string }) => block.type === 'resource_link')).toHaveLength(
      2,
    );
    await expect(byName.get('get-sum')?.call('{"a":"two"}')).rejects.toThrow(/Invalid arguments/);
  }, 60_000);

  it('over Streamable HTTP', async () => {
    const port = await freePort();
    const server = spawn(
      process.execPath,
      [
        join(projectRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
        'streamableHttp',
      ],
      { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    children.push(server);
    await new Promise<void>((resolve) =>
      server.stderr?.on('data', (chunk) => /listening/.test(String(chunk)) && resolve()),
    );
    const mcpTools = provider({
      connections: { everything: { url: `http://127.0.0.1:${port}/mcp` } },
    });
    const echo = (await mcpTools.getToolCallbacks()).find(
      (entry) => entry.definition.name === 'echo',
    );
    expect(await echo?.call('{"message":"over http"}')).toBe('Echo: over http');
  }, 60_000);
});

describe('server-memory and server-filesystem', () => {
  it('server-memory keeps entities across calls', async () => {
    const mcpTools = provider({
      connections: {
        memory: {
          command: process.execPath,
          args: [
            join(projectRoot, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js'),
          ],
          env: { MEMORY_FILE_PATH: join(work, 'memory.jsonl') },
        },
      },
    });
    const tools = new Map(
      (await mcpTools.getToolCallbacks()).map((entry) => [entry.definition.name, entry]),
    );
    const ada = { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] };
    await tools.get('create_entities')?.call(JSON.stringify({ entities: [ada] }));
    const graph = await tools.get('read_graph')?.call('{}');
    expect(graph).toContain('wrote the first program');
  }, 60_000);

  it('server-filesystem reads inside its root and reports an error result outside it', async () => {
    const root = mkdtempSync(join(work, 'fs-'));
    writeFileSync(join(root, 'note.txt'), 'hello from the file');
    const mcpTools = provider({
      connections: {
        files: {
          command: process.execPath,
          args: [
            join(projectRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
            root,
          ],
        },
      },
      toolFilter: (_connection, listed) => listed.annotations?.readOnlyHint === true,
    });
    const tools = new Map(
      (await mcpTools.getToolCallbacks()).map((entry) => [entry.definition.name, entry]),
    );
    expect(tools.has('write_file')).toBe(false);
    expect(
      await tools.get('read_text_file')?.call(JSON.stringify({ path: join(root, 'note.txt') })),
    ).toContain('hello from the file');
    await expect(
      tools.get('read_text_file')?.call(JSON.stringify({ path: '/etc/hostname' })),
    ).rejects.toThrow(/denied|outside/i);
  }, 60_000);
});

describe('MCP tools next to local tools in a ChatClient', () => {
  const getSum = { id: 'call-1', name: 'get-sum', arguments: '{"a":20,"b":22}' };
  const localTime = tool({
    name: 'localTime',
    description: 'The time here',
    execute: () => '12:00',
  });

  it('one batch calls an MCP tool and a local tool', async () => {
    const mcpTools = provider({ connections: { everything } });
    const model = new ScriptedChatModel([
      toolCallResponse([getSum, { id: 'call-2', name: 'localTime', arguments: '{}' }]),
      textResponse('42 at noon'),
    ]);
    const answer = await ChatClient.create(model)
      .prompt('sum and time')
      .tools(localTime, mcpTools)
      .call()
      .content();
    expect(answer).toBe('42 at noon');
    const toolMessage = model.prompts[1]?.messages.at(-1) as ToolResponseMessage;
    expect(
      toolMessage.responses.map((response) => [response.name, response.isError ?? false]),
    ).toEqual([
      ['get-sum', false],
      ['localTime', false],
    ]);
    expect(toolMessage.responses[0]?.responseData).toMatch(/42/);
  }, 60_000);

  it('a local tool of the same name: error by default, prefix, or local wins (default tools and per-call tools alike)', async () => {
    const localEcho = tool({ name: 'echo', description: 'Local echo', execute: () => 'local' });
    const strict = provider({ connections: { everything } });
    const model = () => new ScriptedChatModel([textResponse('ok')]);
    await expect(
      ChatClient.create(model(), { tools: [localEcho] })
        .prompt('x')
        .tools(strict)
        .call()
        .content(),
    ).rejects.toThrow(ToolDefinitionError);
    await expect(
      ChatClient.create(model(), { tools: [strict] })
        .prompt('x')
        .tools(localEcho)
        .call()
        .content(),
    ).rejects.toThrow(/MCP tool 'echo' of server 'everything'/);

    const prefixing = provider({ connections: { everything }, onNameCollision: 'prefix' });
    const prefixModel = model();
    await ChatClient.create(prefixModel, { tools: [prefixing] })
      .prompt('x')
      .tools(localEcho)
      .call()
      .content();
    const offered =
      prefixModel.prompts[0]?.options.toolCallbacks?.map((entry) => entry.definition.name) ?? [];
    expect(offered).toContain('echo');
    expect(offered).toContain('everything_echo');

    const localWins = provider({ connections: { everything }, onNameCollision: 'local-wins' });
    const winsModel = model();
    await ChatClient.create(winsModel).prompt('x').tools(localEcho, localWins).call().content();
    // The model receives each tool as its definition only: the local one is the one offered.
    const winners = winsModel.prompts[0]?.options.toolCallbacks ?? [];
    expect(
      winners.filter((entry) => entry.definition.name === 'echo').map((entry) => entry.definition),
    ).toEqual([localEcho.definition]);
  }, 60_000);

  it('two servers with the same tools: alt_<n>_ prefixes by default, <server>_ with server-prefix naming, and a filter by server', async () => {
    const twice = provider({ connections: { first: everything, second: everything } });
    const names = (await twice.getToolCallbacks()).map((entry) => entry.definition.name);
    expect(names).toContain('echo');
    expect(names).toContain('alt_1_echo');
    const prefixed = provider({
      connections: { first: everything, second: everything },
      toolNaming: 'server-prefix',
      toolFilter: (connection, listed) =>
        connection.serverName === 'second' || listed.name === 'echo',
    });
    const prefixedNames = (await prefixed.getToolCallbacks()).map((entry) => entry.definition.name);
    expect(prefixedNames.filter((name) => name.startsWith('first_'))).toEqual(['first_echo']);
    expect(prefixedNames).toContain('second_get-sum');
  }, 60_000);
});
