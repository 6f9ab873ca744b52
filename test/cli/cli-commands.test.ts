import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../package/packed-package.js';
import { assertCliBuilt, cleanEnv, cliPath, runCli } from './cli-process.js';
import { writeToolsModule } from './tools-module.js';

const everything = join(
  projectRoot,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
const { dir, module } = writeToolsModule();
const children: ChildProcess[] = [];

beforeAll(() => assertCliBuilt());
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('toolloop help and exit codes', () => {
  it.each([
    [['--help'], 'Usage: toolloop <command>'],
    [['help', 'chat'], 'Usage: toolloop chat'],
    [['demo', '--help'], 'Usage: toolloop demo'],
    [['chat', '--help'], 'Usage: toolloop chat'],
    [['chat', '-h'], 'Usage: toolloop chat'],
    [['mcp', '--help'], 'Usage: toolloop mcp <serve|tools>'],
    [['mcp', 'serve', '--help'], 'Usage: toolloop mcp serve <module>'],
    [['mcp', 'tools', '--help'], 'Usage: toolloop mcp tools <config>'],
  ])('toolloop %j prints its help and exits 0', (args, usage) => {
    const run = runCli(args);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(usage);
    expect(run.stdout).toContain('Exit codes:');
  });

  it.each([
    [[], 'Usage: toolloop <command>'],
    [['bogus'], 'unknown command "bogus"'],
    [['mcp', 'bogus'], 'unknown command "mcp bogus"'],
    [['chat', '--bogus'], "Unknown option '--bogus'"],
    [['chat', '--model', 'scripted'], '--model scripted needs --script <file>'],
    [['chat'], 'no model: pass --model'],
    [['mcp', 'serve'], 'give the tools module to serve'],
    [['mcp', 'serve', 'x.js', '--http', 'abc'], '--http needs a decimal port from 1 to 65535'],
    [['mcp', 'tools'], 'give at least one configuration file'],
  ])('toolloop %j is a usage error: exit 2 with the reason on stderr', (args, reason) => {
    const run = runCli(args);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(reason);
    expect(run.stdout).toBe('');
  });

  it('exits 2 naming the key and line of an invalid configuration file', () => {
    const config = join(dir, 'bad.properties');
    writeFileSync(
      config,
      'spring.ai.mcp.client.enabled=true\nspring.ai.tools.limits.max-total-tool-calls=0\n',
    );
    const run = runCli(['chat', '--config', config, '--model', 'openai:x']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      `${config}:2: spring.ai.tools.limits.max-total-tool-calls: 0 is out of range`,
    );
  });

  it('exits 2 naming the environment variable of an invalid value', () => {
    const config = join(dir, 'servers.properties');
    writeFileSync(config, 'spring.ai.mcp.client.stdio.connections.a.command=node\n');
    const run = runCli(['mcp', 'tools', config], {
      env: cleanEnv({ SPRING_AI_MCP_CLIENT_REQUEST_TIMEOUT: 'soon' }),
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      'environment variable SPRING_AI_MCP_CLIENT_REQUEST_TIMEOUT: spring.ai.mcp.client.request-timeout',
    );
  });

  it('exits 1 when a configured server cannot be started', () => {
    const config = join(dir, 'broken-server.properties');
    writeFileSync(
      config,
      'spring.ai.mcp.client.stdio.connections.ghost.command=/nonexistent/toolloop-mcp-server\n',
    );
    const run = runCli(['mcp', 'tools', config]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('ghost');
  });

  it('exits 2 for a tools module that exports no tools', () => {
    const empty = join(dir, 'empty.mjs');
    writeFileSync(empty, 'export const x = 1;\n');
    const run = runCli(['mcp', 'serve', empty]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('exports no tools');
  });
});

describe('toolloop mcp tools', () => {
  it('lists the tools of server-everything after prefixing and filtering', () => {
    const config = join(dir, 'everything.yaml');
    writeFileSync(
      config,
      [
        'spring.ai.mcp.client.stdio.connections.everything:',
        `  command: ${JSON.stringify(process.execPath)}`,
        `  args: [${JSON.stringify(everything)}]`,
        'toolloop.mcp:',
        '  tool-naming: server-prefix',
        '  exclude-tools: [everything/get-env, get-tiny-image]',
      ].join('\n'),
    );
    const table = runCli(['mcp', 'tools', config]);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^TOOL\s+SERVER\s+DESCRIPTION$/);
    expect(table.stdout).toMatch(/^everything_echo\s+everything\s+Echoes back the input string$/m);

    const json = runCli(['mcp', 'tools', config, '--json']);
    expect(json.status, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as { name: string; server: string }[];
    const names = rows.map((row) => row.name);
    expect(names).toContain('everything_get-sum');
    expect(names).not.toContain('everything_get-env');
    expect(names).not.toContain('everything_get-tiny-image');
    expect(
      rows.every((row) => row.server === 'everything' && row.name.startsWith('everything_')),
    ).toBe(true);
  }, 60_000);
});

describe('toolloop mcp serve', () => {
  it("serves a module's tools over stdio to the MCP SDK client", async () => {
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, 'mcp', 'serve', module, '--name', 'weather-server'],
        env: cleanEnv() as Record<string, string>,
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('weather-server');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['failing', 'getWeather', 'weather']);
      const result = await client.callTool({ name: 'getWeather', arguments: { city: 'Paris' } });
      expect(result.isError).toBeFalsy();
      expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual({
        city: 'Paris',
        temperature: 21,
        sky: 'sunny',
      });
      const failed = await client.callTool({ name: 'failing', arguments: {} });
      expect(failed.isError).toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('serves over Streamable HTTP on the given port, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [cliPath, 'mcp', 'serve', module, '--http', '0'], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stderr?.on('data', (chunk) => {
        text += String(chunk);
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(text);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const result = await client.callTool({
      name: 'weather',
      arguments: { location: 'San Francisco' },
    });
    expect((result.content as { text: string }[])[0]?.text).toContain('foggy');
    await client.close();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
