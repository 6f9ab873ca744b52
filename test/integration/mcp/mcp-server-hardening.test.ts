import { createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, tool } from '../../../src/index.js';
import {
  type McpPrincipal,
  McpToolServer,
  type McpToolServerOptions,
} from '../../../src/mcp/server/index.js';

// McpToolServer against the attacks of the hardening issue, over real Streamable HTTP with the
// official SDK client (and raw HTTP where a client must misbehave).
const servers: McpToolServer[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A tool that waits until its signal aborts, and records why. */
function waiting(name: string, seen: string[], options: { timeoutMs?: number } = {}) {
  return tool({
    name,
    description: 'Waits for its signal',
    inputSchema: { type: 'object', properties: { tag: { type: 'string' } } },
    ...options,
    execute: ({ tag }: { tag?: string }, context) =>
      new Promise<string>((_resolve, reject) => {
        seen.push(`started ${tag ?? ''}`);
        context.signal?.addEventListener('abort', () => {
          seen.push(`aborted ${tag ?? ''}: ${(context.signal?.reason as Error)?.message}`);
          reject(context.signal?.reason);
        });
      }),
  });
}

const quick = tool({
  name: 'quick',
  description: 'Answers at once',
  inputSchema: { type: 'object', properties: {} },
  execute: () => 'quick answer',
});

async function start(options: McpToolServerOptions) {
  const server = new McpToolServer(options);
  servers.push(server);
  return { server, ...(await server.listen()) };
}

async function sdkClient(url: URL, token?: string) {
  const client = new Client({ name: 'hardening-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      ...(token === undefined
        ? {}
        : { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    }),
  );
  closers.push(() => client.close());
  return client;
}

function rawPost(
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

const textOf = (result: unknown) =>
  ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? '') as string;

/** A tool's string result as the client reads it (tools answer JSON). */
const answerOf = (result: unknown) => JSON.parse(textOf(result)) as unknown;

describe('configuration', () => {
  it('refuses two tools of one name when it is created, not on the first tools/list', () => {
    const first = tool({ name: 'lookup', execute: () => 'first' });
    const second = tool({ name: 'lookup', execute: () => 'second' });
    expect(() => new McpToolServer({ tools: [first, second] })).toThrow(
      /Multiple tools with the same name \(lookup\)/,
    );
  });
});

describe('tool timeouts, cancellation and disconnects', () => {
  it("enforces a tool's own timeoutMs and the server's default, aborting the tool's signal", async () => {
    const seen: string[] = [];
    const { url } = await start({
      tools: [waiting('own', seen, { timeoutMs: 150 }), waiting('defaulted', seen)],
      toolTimeoutMs: 250,
    });
    const client = await sdkClient(url);
    const own = await client.callTool({ name: 'own', arguments: { tag: 'a' } });
    expect(own.isError).toBe(true);
    expect(textOf(own)).toBe("Tool 'own' timed out after 150 ms");
    const defaulted = await client.callTool({ name: 'defaulted', arguments: { tag: 'b' } });
    expect(textOf(defaulted)).toBe("Tool 'defaulted' timed out after 250 ms");
    expect(seen).toEqual([
      'started a',
      'aborted a: The tool call timed out after 150 ms',
      'started b',
      'aborted b: The tool call timed out after 250 ms',
    ]);
  });

  it("aborts the tool's signal on notifications/cancelled", async () => {
    const seen: string[] = [];
    const { url, server } = await start({ tools: [waiting('wait', seen)] });
    const client = await sdkClient(url);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait', arguments: { tag: 'c' } }, undefined, {
      signal: controller.signal,
    });
    await expect.poll(() => seen).toEqual(['started c']);
    controller.abort('the user gave up');
    await expect(call).rejects.toThrow();
    await expect.poll(() => seen[1]).toMatch(/^aborted c: The MCP client cancelled the call/);
    expect(server.runningToolCount).toBe(0);
  });

  it("aborts the tool's signal when the HTTP client disconnects mid-call", async () => {
    const seen: string[] = [];
    const { url, server } = await start({ tools: [waiting('wait', seen)] });
    const init = await rawPost(url, {}, initialize);
    expect(init.status).toBe(200);
    const session = await new Promise<string>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
        },
        (res) => {
          res.resume();
          resolve(String(res.headers['mcp-session-id']));
        },
      );
      req.on('error', reject);
      req.end(initialize);
    });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    };
    await rawPost(
      url,
      headers,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    const call = request(url, { method: 'POST', headers });
    call.on('error', () => {});
    call.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'wait', arguments: { tag: 'd' } },
      }),
    );
    await expect.poll(() => seen).toEqual(['started d']);
    call.destroy();
    await expect
      .poll(() => seen[1])
      .toMatch(/^aborted d: The MCP client cancelled the call or went away/);
    await expect.poll(() => server.runningToolCount).toBe(0);
  });
});

describe('caps', () => {
  it('refuses a tool call over maxConcurrentTools with a clear JSON-RPC error, and accepts one again once a call ends', async () => {
    const seen: string[] = [];
    const { url, server } = await start({
      tools: [waiting('wait', seen), quick],
      maxConcurrentTools: 2,
    });
    const client = await sdkClient(url);
    const controllers = [new AbortController(), new AbortController()];
    const running = controllers.map((controller, index) =>
      client
        .callTool({ name: 'wait', arguments: { tag: String(index) } }, undefined, {
          signal: controller.signal,
        })
        .catch(() => 'cancelled'),
    );
    await expect.poll(() => server.runningToolCount).toBe(2);
    const refused = await client.callTool({ name: 'quick', arguments: {} }).catch((error) => error);
    expect(refused).toMatchObject({
      code: -32010,
      message: expect.stringContaining(
        'Server busy: 2 tool calls are running (maxConcurrentTools)',
      ),
    });
    controllers[0]?.abort();
    await running[0];
    await expect.poll(() => server.runningToolCount).toBe(1);
    expect(answerOf(await client.callTool({ name: 'quick', arguments: {} }))).toBe('quick answer');
    controllers[1]?.abort();
    await Promise.all(running);
  });

  it('refuses sessions over maxSessions (503 with a JSON-RPC error) and expires idle ones', async () => {
    const { url, server } = await start({ tools: [quick], maxSessions: 3, sessionIdleMs: 300 });
    for (let index = 0; index < 3; index++)
      expect((await rawPost(url, {}, initialize)).status).toBe(200);
    const refused = await rawPost(url, {}, initialize);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: expect.stringMatching(/^Too many sessions: 3 are open \(maxSessions\)/),
      },
    });
    expect(server.sessionCount).toBe(3);
    await expect.poll(() => server.sessionCount, { timeout: 5_000 }).toBe(0);
    expect((await rawPost(url, {}, initialize)).status).toBe(200);
  });
});

describe('error texts sent to clients', () => {
  const failing = tool({
    name: 'report',
    description: 'Fails with a connection string',
    inputSchema: { type: 'object', properties: {} },
    execute: () => {
      throw new Error(
        'connect ECONNREFUSED postgres://reporting:Tr0ub4dor-and-3@db.internal:5432/sales (Authorization: Bearer eyJhbGciOi.secretpart.sig)',
      );
    },
  });

  it('strip credentials by default: a PostgreSQL URL reaches the client without its password', async () => {
    const { url } = await start({ tools: [failing] });
    const result = await (await sdkClient(url)).callTool({ name: 'report', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'connect ECONNREFUSED postgres://reporting:***@db.internal:5432/sales (Authorization: Bearer ***)',
    );
  });

  it('go through the redactErrorText hook when one is given', async () => {
    const { url } = await start({
      tools: [failing],
      redactErrorText: (text, toolName) =>
        `${toolName} failed (${text.length} characters withheld)`,
    });
    const result = await (await sdkClient(url)).callTool({ name: 'report', arguments: {} });
    expect(textOf(result)).toMatch(/^report failed \(\d+ characters withheld\)$/);
  });
});

describe('tools named like Object.prototype members', () => {
  it('constructor, hasOwnProperty, __proto__ and toString are listed and callable with toolScopes set', async () => {
    const names = ['constructor', 'hasOwnProperty', '__proto__', 'toString'];
    const tools = names.map((name) =>
      tool({
        name,
        description: `The ${name} tool`,
        inputSchema: { type: 'object', properties: {} },
        execute: () => `ran ${name}`,
      }),
    );
    const principals: Record<string, McpPrincipal> = {
      'token-reader-0123': { id: 'reader', scopes: [] },
      'token-admin-01234': { id: 'admin', scopes: ['admin'] },
    };
    // A plain literal: `constructor` and `hasOwnProperty` are found on its prototype.
    const toolScopes: Record<string, string[]> = { toString: ['admin'] };
    const { url } = await start({
      tools,
      auth: { verifyToken: (token) => principals[token], toolScopes },
    });
    const reader = await sdkClient(url, 'token-reader-0123');
    expect((await reader.listTools()).tools.map((listed) => listed.name)).toEqual([
      'constructor',
      'hasOwnProperty',
      '__proto__',
    ]);
    for (const name of ['constructor', 'hasOwnProperty', '__proto__']) {
      expect(answerOf(await reader.callTool({ name, arguments: {} }))).toBe(`ran ${name}`);
    }
    await expect(reader.callTool({ name: 'toString', arguments: {} })).rejects.toThrow(
      "Tool 'toString' needs the scope(s): admin",
    );
    const admin = await sdkClient(url, 'token-admin-01234');
    expect((await admin.listTools()).tools).toHaveLength(4);
    expect(answerOf(await admin.callTool({ name: 'toString', arguments: {} }))).toBe(
      'ran toString',
    );
  });
});

describe('serving other machines', () => {
  const destroyed: string[] = [];
  const deleteAll = tool({
    name: 'deleteAll',
    description: 'Deletes everything',
    destructive: true,
    inputSchema: { type: 'object', properties: {} },
    execute: () => {
      destroyed.push('everything');
      return 'deleted';
    },
  });

  /**
   * The server behind a node:http listener whose connections present `remoteAddress` as a
   * machine elsewhere. Tests may only talk to loopback, so the other machine's address is the
   * one thing this test stands in for: bytes, HTTP and MCP all flow for real.
   */
  async function reachedFrom(address: string, options: Partial<McpToolServerOptions> = {}) {
    const server = new McpToolServer({ tools: [deleteAll], ...options });
    servers.push(server);
    const http: Server = createServer(server.handleRequest);
    http.on('connection', (socket: Socket) => {
      Object.defineProperty(socket, 'remoteAddress', { value: address });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => http.close(resolve)));
    closers.push(async () => http.closeAllConnections());
    const { port } = http.address() as AddressInfo;
    return new URL(`http://127.0.0.1:${port}/mcp`);
  }

  it('refuses a client on another machine that sends Host: 127.0.0.1 without auth (403): the destructive tool never runs', async () => {
    destroyed.length = 0;
    const url = await reachedFrom('203.0.113.9');
    const attempt = await rawPost(url, { host: '127.0.0.1' }, initialize);
    expect(attempt.status).toBe(403);
    expect(attempt.body).toContain('accepts requests from other machines only with authentication');
    await expect(sdkClient(url)).rejects.toThrow();
    expect(destroyed).toEqual([]);
  });

  it('serves another machine with auth (valid token only) or with allowUnauthenticated', async () => {
    destroyed.length = 0;
    const authed = await reachedFrom('203.0.113.9', {
      auth: {
        verifyToken: (token) =>
          token === 'token-0123456789ab' ? { id: 'ops', scopes: [] } : undefined,
      },
    });
    expect((await rawPost(authed, { host: '127.0.0.1' }, initialize)).status).toBe(401);
    const client = await sdkClient(authed, 'token-0123456789ab');
    expect(answerOf(await client.callTool({ name: 'deleteAll', arguments: {} }))).toBe('deleted');
    const open = await reachedFrom('::ffff:203.0.113.9', { allowUnauthenticated: true });
    expect((await rawPost(open, {}, initialize)).status).toBe(200);
    const local = await reachedFrom('::ffff:127.0.0.1');
    expect((await rawPost(local, {}, initialize)).status).toBe(200);
    expect(destroyed).toEqual(['everything']);
  });

  it('listen() refuses a non-loopback host without auth, and warns when it listens there', async () => {
    const unauthenticated = new McpToolServer({ tools: [deleteAll] });
    servers.push(unauthenticated);
    await expect(unauthenticated.listen({ host: '0.0.0.0' })).rejects.toThrow(InvalidArgumentError);
    await expect(unauthenticated.listen({ host: '0.0.0.0' })).rejects.toThrow(
      /will not listen on 0\.0\.0\.0 \(reachable from other machines\) without auth/,
    );
    const warnings: string[] = [];
    const onWarning = (warning: Error) => {
      if (warning.name === 'McpServerWarning') warnings.push(warning.message);
    };
    process.on('warning', onWarning);
    try {
      const open = new McpToolServer({ tools: [deleteAll], allowUnauthenticated: true });
      servers.push(open);
      await open.listen({ host: '0.0.0.0' });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([
        'McpToolServer listens on 0.0.0.0, reachable from other machines, WITHOUT authentication',
      ]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an Origin or Host that only starts like a loopback name is refused', async () => {
    const { url } = await start({ tools: [quick] });
    const origins = [
      'http://[::1].evil.com',
      `http://[::1].evil.com:${url.port}`,
      'http://127.0.0.1.evil.com',
    ];
    for (const origin of origins) {
      expect((await rawPost(url, { origin }, initialize)).status, origin).toBe(403);
    }
    for (const host of ['[::1].evil.com', 'evil.com@127.0.0.1', `127.0.0.1:${url.port}/x`]) {
      expect((await rawPost(url, { host }, initialize)).status, host).toBe(403);
    }
    expect((await rawPost(url, { origin: `http://[::1]:${url.port}` }, initialize)).status).toBe(
      200,
    );
  });
});
