import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { McpClient, McpConnectionError } from '../../../src/mcp/index.js';

// toolloop's MCP client over Streamable HTTP against real servers killed and restarted on the
// same port mid-conversation: server-everything (answers a stale session with HTTP 400) and a
// small SDK server with a ledger (answers it with 404; its tool's side effect precedes its answer).
const everything = fileURLToPath(
  new URL(
    '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    import.meta.url,
  ),
);
const ledgerServer = fileURLToPath(new URL('./fixtures/ledger-http-server.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'toolloop-mcp-recovery-'));
const children: ChildProcess[] = [];
const clients: McpClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const child of children.splice(0)) child.kill('SIGKILL');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a server process and resolves once it listens. */
async function start(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk) => {
      text += String(chunk);
      if (ready.test(text)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${text}`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

function client(port: number): McpClient {
  const created = new McpClient(
    'remote',
    { url: `http://127.0.0.1:${port}/mcp` },
    { requestTimeoutMs: 30_000, reconnect: { initialDelayMs: 10, maxDelayMs: 50 } },
  );
  clients.push(created);
  return created;
}

describe('a Streamable HTTP server restarted mid-conversation', () => {
  it('a server that is not there is named as refused, not just "fetch failed"', async () => {
    const refused = await client(await freePort())
      .listTools()
      .catch((failure: unknown) => failure);
    expect(refused).toMatchObject({ failure: 'connect-failed' });
    expect((refused as Error).message).toMatch(/fetch failed \(.*ECONNREFUSED/);
  });

  it('server-everything: a stale session (HTTP 400) is treated as gone; lists and calls reconnect', async () => {
    const port = await freePort();
    const startEverything = () =>
      start([everything, 'streamableHttp'], { PORT: String(port) }, /listening on port/);
    let server = await startEverything();
    const mcp = client(port);
    expect((await mcp.listTools()).map((tool) => tool.name)).toContain('echo');
    expect((await mcp.callTool('echo', { message: 'before' })).content).toEqual([
      { type: 'text', text: 'Echo: before' },
    ]);

    await kill(server);
    server = await startEverything();
    // The old session id now gets HTTP 400 "No valid session ID provided": nothing ran.
    expect((await mcp.callTool('echo', { message: 'after' })).content).toEqual([
      { type: 'text', text: 'Echo: after' },
    ]);
    await kill(server);
    server = await startEverything();
    mcp.invalidateTools();
    expect((await mcp.listTools()).map((tool) => tool.name)).toContain('get-sum');
  }, 60_000);

  it('a call whose server died after running it is reported as "may have run", at once, and never replayed', async () => {
    const port = await freePort();
    const ledger = join(work, `ledger-${port}.txt`);
    const env = { PORT: String(port), LEDGER: ledger, DELAY_MS: '3000' };
    let server = await start([ledgerServer], env, /listening/);
    const mcp = client(port);
    await mcp.listTools();
    const started = performance.now();
    const call = mcp.callTool('append', { id: 'once' }).catch((error: unknown) => error);
    await expect
      .poll(() => (existsSync(ledger) ? readFileSync(ledger, 'utf8') : ''))
      .toBe('append once\n');
    await kill(server);
    server = await start([ledgerServer], env, /listening/);
    const error = await call;
    expect(error).toBeInstanceOf(McpConnectionError);
    expect((error as McpConnectionError).failure).toBe('exited');
    expect((error as McpConnectionError).message).toMatch(/may have run/);
    expect((error as McpConnectionError).message).not.toMatch(/could not be reached/);
    // Well before the 30 s request timeout.
    expect(performance.now() - started).toBeLessThan(10_000);
    // The restarted server knows nothing of the old session (404): the next call reconnects.
    expect((await mcp.callTool('append', { id: 'next' })).content).toEqual([
      { type: 'text', text: 'appended next' },
    ]);
    expect(readFileSync(ledger, 'utf8')).toBe('append once\nappend next\n');
  }, 60_000);

  it('a call to a server that is down never ran: it is sent again once on a new connection', async () => {
    const port = await freePort();
    const ledger = join(work, `ledger-down-${port}.txt`);
    const env = { PORT: String(port), LEDGER: ledger, DELAY_MS: '0' };
    let server = await start([ledgerServer], env, /listening/);
    const mcp = client(port);
    await mcp.listTools();
    await kill(server);
    const refused = await mcp.callTool('append', { id: 'lost' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpConnectionError);
    expect((refused as McpConnectionError).message).not.toMatch(/may have run/);
    expect(existsSync(ledger)).toBe(false);
    server = await start([ledgerServer], env, /listening/);
    expect((await mcp.callTool('append', { id: 'back' })).content).toEqual([
      { type: 'text', text: 'appended back' },
    ]);
    expect(readFileSync(ledger, 'utf8')).toBe('append back\n');
  }, 60_000);
});
