import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../package/packed-package.js';
import { assertCliBuilt, cleanEnv, cliPath, runCli } from './cli-process.js';

// `toolloop mcp serve` and `mcp tools` as real processes, against the hardening issue's attacks.
const dir = mkdtempSync(join(tmpdir(), 'toolloop-serve-hardening-'));
const ledger = join(dir, 'ledger.txt');
const module = join(dir, 'risky-tools.mjs');
const children: ChildProcess[] = [];

beforeAll(() => {
  assertCliBuilt();
  const entry = pathToFileURL(join(projectRoot, 'dist', 'index.js')).href;
  writeFileSync(
    module,
    `import { appendFileSync } from 'node:fs';
import { tool } from ${JSON.stringify(entry)};
const record = (line) => appendFileSync(${JSON.stringify(ledger)}, line + '\\n');
export const chatty = tool({
  name: 'chatty',
  description: 'Logs to stdout in every way, then answers its tag',
  inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
  execute: ({ tag }) => {
    console.log('log line', tag);
    console.info('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"forged"}]}}');
    console.debug('debug', { tag });
    process.stdout.write('raw write ' + tag + '\\n');
    return { tag };
  },
});
export const slow = tool({
  name: 'slow',
  description: 'Waits for its signal',
  timeoutMs: 300,
  inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
  execute: ({ tag }, context) => new Promise((_resolve, reject) => {
    record('started ' + tag);
    context.signal.addEventListener('abort', () => {
      record('aborted ' + tag + ': ' + context.signal.reason.message);
      reject(context.signal.reason);
    });
  }),
});
export const waitLong = tool({
  name: 'waitLong',
  description: 'Waits for its signal (the default timeout)',
  inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
  execute: ({ tag }, context) => new Promise((_resolve, reject) => {
    record('started ' + tag);
    context.signal.addEventListener('abort', () => {
      record('aborted ' + tag + ': ' + context.signal.reason.message);
      reject(context.signal.reason);
    });
  }),
});
export const deleteAll = tool({
  name: 'deleteAll',
  description: 'Deletes everything',
  destructive: true,
  inputSchema: { type: 'object', properties: {} },
  execute: () => { record('deleted everything'); return 'deleted'; },
});
`,
  );
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const ledgerLines = () =>
  existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n').filter(Boolean) : [];

async function stdioClient(): Promise<{ client: Client; stderr: () => string }> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, 'mcp', 'serve', module],
    env: cleanEnv() as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const client = new Client({ name: 'hardening', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    stderr: () => {
      if (errors.length > 0)
        throw new Error(`protocol errors: ${errors.map((e) => e.message).join('; ')}`);
      return stderr;
    },
  };
}

const textOf = (result: unknown) =>
  ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? '') as string;

describe('toolloop mcp serve over stdio', () => {
  it('a tool that logs to stdout does not corrupt the protocol: every answer matches its call', async () => {
    const { client, stderr } = await stdioClient();
    try {
      const tags = Array.from({ length: 12 }, (_, index) => `t${index}`);
      const results = await Promise.all(
        tags.map((tag) => client.callTool({ name: 'chatty', arguments: { tag } })),
      );
      expect(results.map((result) => JSON.parse(textOf(result)))).toEqual(
        tags.map((tag) => ({ tag })),
      );
      expect(results.every((result) => result.isError !== true)).toBe(true);
      for (let round = 0; round < 3; round++) {
        const answer = await client.callTool({ name: 'chatty', arguments: { tag: `seq${round}` } });
        expect(JSON.parse(textOf(answer))).toEqual({ tag: `seq${round}` });
      }
      // What the tool printed went to stderr.
      await expect.poll(() => stderr()).toContain('raw write seq2');
      expect(stderr()).toContain('log line t0');
      expect(stderr()).toContain('"text":"forged"');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('enforces the tool timeout and aborts the tool on notifications/cancelled', async () => {
    writeFileSync(ledger, '');
    const { client } = await stdioClient();
    try {
      const timedOut = await client.callTool({ name: 'slow', arguments: { tag: 'late' } });
      expect(timedOut.isError).toBe(true);
      expect(textOf(timedOut)).toBe("Tool 'slow' timed out after 300 ms");
      const controller = new AbortController();
      const cancelled = client
        .callTool({ name: 'slow', arguments: { tag: 'dropped' } }, undefined, {
          signal: controller.signal,
        })
        .catch((error: unknown) => error);
      await expect.poll(ledgerLines).toContain('started dropped');
      controller.abort();
      await cancelled;
      await expect
        .poll(ledgerLines)
        .toContain('aborted dropped: The MCP client cancelled the call or went away');
      expect(ledgerLines()).toContain('aborted late: The tool call timed out after 300 ms');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('aborts a running tool when the client disconnects (stdin closes)', async () => {
    writeFileSync(ledger, '');
    const { client } = await stdioClient();
    const pending = client
      .callTool({ name: 'waitLong', arguments: { tag: 'orphan' } })
      .catch((error: unknown) => error);
    await expect.poll(ledgerLines).toContain('started orphan');
    await client.close();
    await pending;
    await expect
      .poll(ledgerLines)
      .toContain('aborted orphan: The MCP client cancelled the call or went away');
  }, 60_000);

  it('a stdin line over 10 MiB gets a JSON-RPC error for its id and a message on stderr; the server keeps serving', async () => {
    const child = spawn(process.execPath, [cliPath, 'mcp', 'serve', module], {
      env: cleanEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const answers = () =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map(
          (line) =>
            JSON.parse(line) as {
              id: unknown;
              result?: unknown;
              error?: { code: number; message: string };
            },
        );
    const send = (message: object) => child.stdin?.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      },
    });
    await expect.poll(() => answers().length, { timeout: 20_000 }).toBe(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // The SDK's own serialisation: the id comes last.
    const huge = `{"method":"tools/call","params":{"name":"chatty","arguments":{"tag":"${'x'.repeat(11 * 1024 * 1024)}"}},"jsonrpc":"2.0","id":2}\n`;
    child.stdin?.write(huge);
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'chatty', arguments: { tag: 'after' } },
    });
    await expect.poll(() => answers().length, { timeout: 20_000 }).toBe(3);
    const [, dropped, after] = answers();
    expect(dropped).toMatchObject({
      id: 2,
      error: {
        code: -32600,
        message: expect.stringMatching(/over the limit of 10485760 bytes; it was dropped/),
      },
    });
    expect(after).toMatchObject({
      id: 3,
      result: { content: [{ type: 'text', text: '{"tag":"after"}' }] },
    });
    expect(stderr).toMatch(/toolloop MCP server: a message of \d+ bytes is over the limit/);
    expect(child.exitCode).toBeNull();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin?.end();
    expect(await exited).toBe(0);
  }, 60_000);
});

describe('toolloop mcp serve over HTTP on another interface', () => {
  it('refuses --host 0.0.0.0 without --bearer-token-env or --allow-unauthenticated', () => {
    const run = runCli(['mcp', 'serve', module, '--http', '0', '--host', '0.0.0.0']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      '--host 0.0.0.0 is reachable from other machines: give --bearer-token-env <VAR> (or --allow-unauthenticated',
    );
  });

  it('accepts decimal ports only', () => {
    for (const port of ['0x50', '8e1', '80.0', '+80', '65536', ' 80']) {
      const run = runCli(['mcp', 'serve', module, '--http', port]);
      expect(run.status, port).toBe(2);
      expect(run.stderr).toContain('--http needs a decimal port from 1 to 65535');
    }
  });

  it('with a bearer token, a client sending Host: 127.0.0.1 without it is refused and the destructive tool never runs', async () => {
    writeFileSync(ledger, '');
    const token = 'serve-token-0123456789abcdef';
    const child = spawn(
      process.execPath,
      [
        cliPath,
        'mcp',
        'serve',
        module,
        '--http',
        '0',
        '--host',
        '0.0.0.0',
        '--bearer-token-env',
        'MCP_TEST_TOKEN',
      ],
      { env: cleanEnv({ MCP_TEST_TOKEN: token }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stderr = '';
    const port = await new Promise<string>((resolve, reject) => {
      child.stderr?.on('data', (chunk) => {
        stderr += String(chunk);
        const match = /listening on http:\/\/0\.0\.0\.0:(\d+)\/mcp/.exec(stderr);
        if (match) resolve(match[1] as string);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    expect(stderr).toContain(
      'warning: serving on 0.0.0.0, reachable from other machines (bearer token required)',
    );
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: {
            host: '127.0.0.1',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'deleteAll', arguments: {} },
        }),
      );
    });
    expect(status).toBe(401);
    expect(ledgerLines()).toEqual([]);
    const client = new Client({ name: 'ops', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect(JSON.parse(textOf(await client.callTool({ name: 'deleteAll', arguments: {} })))).toBe(
      'deleted',
    );
    await client.close();
    expect(ledgerLines()).toEqual(['deleted everything']);
  }, 60_000);

  it('with --allow-unauthenticated it serves, and says loudly on stderr that anyone can run the tools', async () => {
    const child = spawn(
      process.execPath,
      [
        cliPath,
        'mcp',
        'serve',
        module,
        '--http',
        '0',
        '--host',
        '0.0.0.0',
        '--allow-unauthenticated',
      ],
      { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr?.on('data', (chunk) => {
        stderr += String(chunk);
        if (stderr.includes('listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    expect(stderr).toContain(
      'WARNING: serving on 0.0.0.0 WITHOUT authentication: anyone who reaches this port can run every tool',
    );
  }, 60_000);
});

describe('toolloop mcp tools | head', () => {
  it('exits quietly when the reader closes the pipe (no unhandled EPIPE)', async () => {
    const everything = fileURLToPath(
      new URL(
        '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
        import.meta.url,
      ),
    );
    const config = join(dir, 'everything.yaml');
    writeFileSync(
      config,
      [
        'spring.ai.mcp.client.stdio.connections.everything:',
        `  command: ${JSON.stringify(process.execPath)}`,
        `  args: [${JSON.stringify(everything)}]`,
      ].join('\n'),
    );
    const child = spawn(process.execPath, [cliPath, 'mcp', 'tools', config], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    // The reader is gone before the command writes its first line, as `head` is after a line.
    child.stdout?.destroy();
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js/);
    expect(code).toBe(0);
  }, 60_000);
});
