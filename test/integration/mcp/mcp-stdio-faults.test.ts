import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AbortError, ChatClient, ToolExecutionError } from '../../../src/index.js';
import {
  McpClient,
  McpConnectionError,
  McpLimitError,
  McpProtocolError,
  McpToolCallbackProvider,
} from '../../../src/mcp/index.js';
import { ScriptedChatModel, textResponse } from '../../../src/testing/index.js';

// Faults of a real stdio MCP server (fixtures/fault-server.mjs, on the official SDK): killed
// mid-call, dead at start, hung, oversized, changing its tool list.
const faultServer = fileURLToPath(new URL('./fixtures/fault-server.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'toolloop-mcp-faults-'));
let ledger = '';
let clients: McpClient[] = [];
let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

function faultClient(
  options: ConstructorParameters<typeof McpClient>[2] = {},
  env: Record<string, string> = {},
  trust: { trusted?: boolean } = {},
) {
  const client = new McpClient(
    'faults',
    { command: process.execPath, args: [faultServer], env: { LEDGER: ledger, ...env }, ...trust },
    { reconnect: { initialDelayMs: 10, maxDelayMs: 200 }, ...options },
  );
  clients.push(client);
  return client;
}

const ledgerLines = () =>
  existsSync(ledger) ? readFileSync(ledger, 'utf8').trim().split('\n') : [];
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeEach(() => {
  ledger = join(mkdtempSync(join(work, 'case-')), 'ledger.txt');
  unhandled = [];
  process.on('unhandledRejection', onUnhandled);
});

afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  clients = [];
  process.off('unhandledRejection', onUnhandled);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a stdio MCP server that dies', () => {
  it('50 kills mid-call: each pending call fails within 1 s with the stderr tail, is never replayed (0 duplicate side effects), the host survives and the next call respawns the server', async () => {
    // Five servers, ten kills each, side by side: 50 kills in the time of ten.
    const failTimes: number[] = [];
    const pids = new Set<number>();
    await Promise.all(
      Array.from({ length: 5 }, async (_, lane) => {
        const client = faultClient();
        for (let round = 0; round < 10; round++) {
          const id = `${lane}-${round}`;
          await client.callTool('append', { id: `ok-${id}` });
          pids.add(client.pid as number);
          const started = performance.now();
          const failure = await client.callTool('append', { id: `kill-${id}`, die: 'after' }).then(
            () => undefined,
            (error: unknown) => error,
          );
          failTimes.push(performance.now() - started);
          expect(failure).toBeInstanceOf(McpConnectionError);
          expect((failure as McpConnectionError).failure).toBe('exited');
          expect((failure as McpConnectionError).stderrTail).toContain(
            `dying after the side effect of kill-${id}`,
          );
          expect((failure as McpConnectionError).message).not.toContain('dying');
        }
      }),
    );
    const lines = ledgerLines();
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    expect([...counts.values()].filter((count) => count > 1)).toEqual([]);
    expect(lines).toHaveLength(100);
    expect(failTimes).toHaveLength(50);
    expect(pids.size).toBe(50);
    expect(Math.max(...failTimes)).toBeLessThan(1000);
    expect(unhandled).toEqual([]);
  }, 120_000);

  it('replays a read-only call once after the respawn, and only once', async () => {
    const client = faultClient();
    const dieOnceFile = join(work, `die-once-${Date.now()}`);
    const result = await client.callTool('lookup', { key: 'k', dieOnceFile }, { replayable: true });
    expect(result.content).toEqual([{ type: 'text', text: 'value of k' }]);
    expect(ledgerLines()).toEqual(['lookup k', 'lookup k']);
  });

  it('a read-only MCP tool callback of a trusted server replays by its annotation; a non-idempotent one does not', async () => {
    const provider = new McpToolCallbackProvider({
      clients: [faultClient({}, {}, { trusted: true })],
    });
    const tools = await provider.getToolCallbacks();
    const lookup = tools.find((tool) => tool.definition.name === 'lookup');
    const append = tools.find((tool) => tool.definition.name === 'append');
    expect(lookup?.metadata).toMatchObject({ readOnly: true });
    expect(append?.metadata).toMatchObject({ readOnly: false, idempotent: false });
    const dieOnceFile = join(work, `die-once-cb-${Date.now()}`);
    expect(await lookup?.call(JSON.stringify({ key: 'a', dieOnceFile }))).toBe('value of a');
    const failed = await append
      ?.call(JSON.stringify({ id: 'x', die: 'before' }))
      .catch((error) => error);
    expect(failed).toBeInstanceOf(ToolExecutionError);
    expect((failed as ToolExecutionError).cause).toBeInstanceOf(McpConnectionError);
    expect(ledgerLines().filter((line) => line.startsWith('append'))).toEqual([]);
  });

  it('a server that dies at start fails with connect-failed and its stderr', async () => {
    const client = faultClient({}, { DIE_AT_START: '1' });
    const error = await client.listTools().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(McpConnectionError);
    expect((error as McpConnectionError).failure).toBe('connect-failed');
    expect((error as McpConnectionError).stderrTail).toContain('refusing to start');
  });

  it('a failed start says where to look: the stderr tail, or the non-MCP output on stdout', async () => {
    const dead = faultClient({}, { DIE_AT_START: '1' });
    const died = await dead.listTools().catch((failure: unknown) => failure);
    expect((died as Error).message).toMatch(/stderrTail/);
    expect((died as Error).message).not.toContain('refusing to start');

    const noisy = new McpClient(
      'noisy',
      {
        command: process.execPath,
        args: ['-e', "console.log('Server ready on stdio!'); setInterval(() => {}, 1000)"],
      },
      { connectTimeoutMs: 1_000 },
    );
    clients.push(noisy);
    const confused = await noisy.listTools().catch((failure: unknown) => failure);
    expect(confused).toMatchObject({ failure: 'connect-failed' });
    expect((confused as Error).message).toMatch(/not MCP/);
    expect((confused as Error).message).toMatch(/JSON/);
  });

  it('backs off between failed starts, capped', async () => {
    const client = faultClient(
      { reconnect: { initialDelayMs: 100, maxDelayMs: 150 } },
      { DIE_AT_START: '1' },
    );
    const times: number[] = [];
    for (let attempt = 0; attempt < 4; attempt++) {
      const started = performance.now();
      await client.listTools().catch(() => {});
      times.push(performance.now() - started);
    }
    // 0, 100, 150 (capped), 150 ms of waiting before each attempt.
    expect(times[1]).toBeGreaterThanOrEqual(95);
    expect(times[3]).toBeGreaterThanOrEqual(145);
  });

  it('close() ends the child process and nothing restarts it', async () => {
    const client = faultClient();
    await client.listTools();
    const pid = client.pid as number;
    expect(isAlive(pid)).toBe(true);
    await client.close();
    expect(isAlive(pid)).toBe(false);
    const after = await client.callTool('append', { id: 'late' }).catch((error: unknown) => error);
    expect(after).toBeInstanceOf(McpConnectionError);
    expect((after as McpConnectionError).failure).toBe('closed');
    expect(ledgerLines()).toEqual([]);
  });
});

describe('timeouts, aborts and caps', () => {
  it('a call past its timeout fails with McpProtocolError (timedOut) and the server is sent notifications/cancelled', async () => {
    const client = faultClient();
    const error = await client
      .callTool('hang', { id: 't1' }, { timeoutMs: 200 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect((error as McpProtocolError).timedOut).toBe(true);
    await expect.poll(ledgerLines).toEqual(['cancelled t1']);
  });

  it("the caller's abort cancels the MCP request", async () => {
    const client = faultClient();
    await client.connect();
    const controller = new AbortController();
    const pending = client.callTool('hang', { id: 'a1' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(ledgerLines).toEqual(['cancelled a1']);
  });

  it("the caller's abort ends a request whose MCP tool list is still pending (call and stream)", async () => {
    const provider = new McpToolCallbackProvider({
      clients: [faultClient({ requestTimeoutMs: 120_000 }, { HANG_LIST: '1' })],
    });
    const client = ChatClient.create(new ScriptedChatModel([textResponse('never')]), {
      tools: [provider],
    });
    const called = new AbortController();
    const call = client.prompt('hi').call({ signal: called.signal }).content();
    setTimeout(() => called.abort(), 100);
    await expect(call).rejects.toBeInstanceOf(AbortError);
    const streamed = new AbortController();
    const stream = (async () => {
      for await (const _ of client.prompt('hi').stream({ signal: streamed.signal }).content());
    })();
    setTimeout(() => streamed.abort(), 100);
    await expect(stream).rejects.toBeInstanceOf(AbortError);
  });

  it('refuses a result over the size cap with a clear error, and a tool list over the caps', async () => {
    const client = faultClient({ maxResultChars: 10_000 });
    const error = await client.callTool('huge', { chars: 50_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpLimitError);
    expect((error as McpLimitError).limit).toBe('result-size');
    expect((error as Error).message).toMatch(/over the limit of 10000/);
    expect((await client.callTool('huge', { chars: 10 })).content).toHaveLength(1);

    const few = faultClient({ maxTools: 2 });
    await expect(few.listTools()).rejects.toMatchObject({ limit: 'tool-count' });
  });
});

describe('messages past the stdio framing limit', () => {
  it('a result line over the transport limit fails its call saying so (not as a JSON parse error), and the next call works', async () => {
    const client = faultClient();
    const error = await client.callTool('huge', { chars: 11_000_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpConnectionError);
    expect((error as Error).message).toMatch(/over the stdio limit of \d+ bytes/);
    expect((error as Error).message).not.toMatch(/not valid JSON/);
    expect((await client.callTool('huge', { chars: 10 })).content).toHaveLength(1);
  });

  it('a result under a raised maxResultChars is not cut off by the stdio limit', async () => {
    const client = faultClient({ maxResultChars: 12_000_000 });
    const result = await client.callTool('huge', { chars: 11_000_000 });
    expect((result.content[0] as { text: string }).text).toHaveLength(11_000_000);
  });
});

describe('tool list changes', () => {
  it('the provider lists lazily, caches, and lists again after notifications/tools/list_changed', async () => {
    const client = faultClient();
    const provider = new McpToolCallbackProvider({ clients: [client] });
    expect(client.pid).toBeUndefined();
    const before = (await provider.getToolCallbacks()).map((tool) => tool.definition.name);
    expect(before.filter((name) => name.startsWith('extra-'))).toEqual([]);
    const again = await provider.getToolCallbacks();
    expect(again.map((tool) => tool.definition.name)).toEqual(before);
    let changed = 0;
    client.onToolsChanged(() => changed++);
    await client.callTool('add-tool', {});
    await expect.poll(() => changed).toBeGreaterThan(0);
    const after = (await provider.getToolCallbacks()).map((tool) => tool.definition.name);
    expect(after.filter((name) => name.startsWith('extra-'))).toHaveLength(1);
  });

  it('sends only allow-listed ToolContext entries as _meta', async () => {
    const provider = new McpToolCallbackProvider({
      clients: [faultClient()],
      toolContextToMeta: { tenantId: 'tenant' },
    });
    const meta = (await provider.getToolCallbacks()).find(
      (tool) => tool.definition.name === 'meta',
    );
    const sent = await meta?.call('{}', { context: { tenantId: 'acme', apiKey: 'ctx-SECRET-1' } });
    expect(JSON.parse(sent as string)).toEqual({ tenant: 'acme' });
    const none = new McpToolCallbackProvider({ clients: [faultClient()] });
    const bare = (await none.getToolCallbacks()).find((tool) => tool.definition.name === 'meta');
    expect(await bare?.call('{}', { context: { tenantId: 'acme' } })).toBe('{}');
  });
});
