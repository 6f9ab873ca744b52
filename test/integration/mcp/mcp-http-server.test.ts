import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonSchema, tool } from '../../../src/index.js';
import { McpClient } from '../../../src/mcp/index.js';
import { type McpPrincipal, McpToolServer, mcpExchange } from '../../../src/mcp/server/index.js';

// toolloop's MCP server over Streamable HTTP, driven by the SDK's own client, by toolloop's
// client, by the MCP Inspector CLI, and by raw HTTP for the security defaults.
const servers: McpToolServer[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const whoami = tool({
  name: 'whoami',
  description: 'Says who called, from the server-side tool context',
  readOnly: true,
  idempotent: true,
  inputSchema: jsonSchema<{ tag: string }>({
    type: 'object',
    properties: { tag: { type: 'string' } },
    required: ['tag'],
  }),
  execute: async ({ tag }, context) => {
    await mcpExchange(context)?.progress(1, 2, tag);
    return { caller: context.context.userId ?? null, tag };
  },
});
const deleteAll = tool({
  name: 'deleteAll',
  description: 'Deletes everything (needs the admin scope)',
  destructive: true,
  execute: () => 'deleted',
});

const tokens: Record<string, McpPrincipal> = Object.fromEntries(
  Array.from({ length: 50 }, (_, index) => [
    `token-${index}`,
    { id: `user-${index}`, scopes: index === 0 ? ['admin'] : [] },
  ]),
);

async function startServer(options: Partial<ConstructorParameters<typeof McpToolServer>[0]> = {}) {
  const server = new McpToolServer({ tools: [whoami, deleteAll], ...options });
  servers.push(server);
  return { server, ...(await server.listen()) };
}

async function sdkClient(url: URL, token?: string) {
  const client = new Client({ name: 'sdk-test-client', version: '1.0.0' });
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

function rawPost(url: URL, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
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
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
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

describe('McpToolServer over Streamable HTTP', () => {
  it('serves the tools with their schemas and annotations to the SDK client', async () => {
    const { url } = await startServer();
    expect(url.hostname).toBe('127.0.0.1');
    const client = await sdkClient(url);
    const { tools } = await client.listTools();
    expect(tools.map((listed) => listed.name)).toEqual(['whoami', 'deleteAll']);
    expect(tools[0]).toMatchObject({
      inputSchema: whoami.definition.inputSchema,
      annotations: { readOnlyHint: true, idempotentHint: true },
    });
    expect(tools[1]?.annotations).toEqual({ destructiveHint: true });
    const result = await client.callTool({ name: 'whoami', arguments: { tag: 'a' } });
    expect(result.content).toEqual([{ type: 'text', text: '{"caller":null,"tag":"a"}' }]);
    const invalid = await client.callTool({ name: 'whoami', arguments: { tag: 5 } });
    expect(invalid.isError).toBe(true);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });

  it("is consumed by toolloop's own client, with annotations back as metadata", async () => {
    const { url } = await startServer();
    const client = new McpClient('local', { url });
    closers.push(() => client.close());
    const listed = await client.listTools();
    expect(listed.map((entry) => entry.name)).toEqual(['whoami', 'deleteAll']);
    const result = await client.callTool('whoami', { tag: 'b' });
    expect(result.content).toEqual([{ type: 'text', text: '{"caller":null,"tag":"b"}' }]);
  });

  it('tells connected clients when its tools changed, and their cached lists refresh', async () => {
    // A provider whose tools change while the server runs (a plugin loaded, a feature flag).
    const served = [whoami];
    const { server, url } = await startServer({
      tools: [{ getToolCallbacks: () => [...served] }],
    });
    const client = new McpClient('watcher', { url });
    closers.push(() => client.close());
    expect((await client.listTools()).map((entry) => entry.name)).toEqual(['whoami']);
    const sdk = await sdkClient(url);
    expect(sdk.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const told = new Promise<void>((resolve) =>
      sdk.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await sdk.listTools();

    served.push(deleteAll);
    // Cached until told.
    expect((await client.listTools()).map((entry) => entry.name)).toEqual(['whoami']);
    await server.notifyToolsListChanged();
    await told;
    await expect
      .poll(async () => (await client.listTools()).map((entry) => entry.name))
      .toEqual(['whoami', 'deleteAll']);
  });

  it('close() ends the HTTP session on the server (DELETE), so clients that come and go never exhaust maxSessions', async () => {
    const { server, url } = await startServer({ maxSessions: 2 });
    for (let round = 0; round < 4; round++) {
      const client = new McpClient(`visitor-${round}`, { url });
      await client.callTool('whoami', { tag: String(round) });
      expect(server.sessionCount).toBe(1);
      await client.close();
      expect(server.sessionCount).toBe(0);
    }
  });

  it("a refused bearer token fails the connection with the HTTP status and the server's reason, readable", async () => {
    const { url } = await startServer({
      auth: { verifyToken: (token) => tokens[token] },
    });
    const client = new McpClient('guarded', { url, authToken: () => 'token-unknown' });
    closers.push(() => client.close());
    const failure = await client.listTools().catch((error: unknown) => error);
    expect(failure).toMatchObject({ failure: 'connect-failed' });
    const message = (failure as Error).message;
    expect(message).toContain('HTTP 401');
    expect(message).toContain('valid access credential in the Authorization header');
    expect(message).not.toContain('***');
  });

  it('re-initialises once when the server lost the session (HTTP 404) and sends the request again', async () => {
    // The server expires idle sessions after a second; the client's next request gets 404.
    const { server, url } = await startServer({ sessionIdleMs: 1_000 });
    const client = new McpClient('expiring', { url });
    closers.push(() => client.close());
    await client.callTool('whoami', { tag: 'before' });
    expect(server.sessionCount).toBe(1);
    await expect.poll(() => server.sessionCount, { timeout: 5_000 }).toBe(0);
    const result = await client.callTool('whoami', { tag: 'after' });
    expect(result.content).toEqual([{ type: 'text', text: '{"caller":null,"tag":"after"}' }]);
    expect(server.sessionCount).toBe(1);
  });

  it('is driven by the MCP Inspector CLI', async () => {
    const { url } = await startServer();
    const inspector = fileURLToPath(
      new URL(
        '../../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js',
        import.meta.url,
      ),
    );
    const run = (args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [inspector, url.href, '--transport', 'http', ...args],
          // The CLI finds its package.json relative to the working directory.
          { cwd: dirname(inspector) },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
        ),
      );
    const listed = JSON.parse(await run(['--method', 'tools/list'])) as {
      tools: { name: string }[];
    };
    expect(listed.tools.map((entry) => entry.name)).toEqual(['whoami', 'deleteAll']);
    const called = JSON.parse(
      await run(['--method', 'tools/call', '--tool-name', 'whoami', '--tool-arg', 'tag=inspector']),
    ) as { content: { text: string }[] };
    expect(called.content[0]?.text).toBe('{"caller":null,"tag":"inspector"}');
  }, 60_000);
});

describe('security defaults', () => {
  it('refuses a foreign Host or Origin with 403, accepts loopback names, and an empty allow-list fails closed', async () => {
    const { url } = await startServer();
    const attempt = (headers: Record<string, string>) => rawPost(url, headers, initialize);
    expect((await attempt({ host: 'evil.example' })).status).toBe(403);
    expect((await attempt({ host: `evil.example:${url.port}` })).status).toBe(403);
    expect((await attempt({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await attempt({ origin: `http://localhost.evil.example:${url.port}` })).status).toBe(
      403,
    );
    const ok = await attempt({
      host: `localhost:${url.port}`,
      origin: `http://localhost:${url.port}`,
    });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBeUndefined();
    expect((await attempt({ host: `[::1]:${url.port}` })).status).toBe(200);

    const closed = await startServer({ allowedHosts: [] });
    expect((await rawPost(closed.url, {}, initialize)).status).toBe(403);
  });

  it('refuses bodies over the cap with 413', async () => {
    const { url } = await startServer({ maxBodyBytes: 1000 });
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(2000) },
    });
    expect((await rawPost(url, {}, big)).status).toBe(413);
  });

  it('with auth: 401 without a valid token, per-tool scopes, sessions bound to their principal, ToolContext from the principal only', async () => {
    const { url } = await startServer({
      auth: { verifyToken: (token) => tokens[token], toolScopes: { deleteAll: ['admin'] } },
      toolContext: (principal) => ({ userId: principal?.id }),
    });
    expect((await rawPost(url, {}, initialize)).status).toBe(401);
    expect((await rawPost(url, { authorization: 'Bearer forged' }, initialize)).status).toBe(401);

    const admin = await sdkClient(url, 'token-0');
    const user = await sdkClient(url, 'token-1');
    expect((await admin.listTools()).tools.map((listed) => listed.name)).toEqual([
      'whoami',
      'deleteAll',
    ]);
    expect((await user.listTools()).tools.map((listed) => listed.name)).toEqual(['whoami']);
    await expect(user.callTool({ name: 'deleteAll', arguments: {} })).rejects.toThrow(/scope/);
    // The context comes from the token, whatever _meta the client sends.
    const result = await user.callTool({
      name: 'whoami',
      arguments: { tag: 't' },
      _meta: { userId: 'user-0', principal: { id: 'user-0' } },
    });
    expect(result.content).toEqual([{ type: 'text', text: '{"caller":"user-1","tag":"t"}' }]);

    // Client A's session id with client B's token: not found.
    const sessionId = (admin.transport as StreamableHTTPClientTransport).sessionId as string;
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    const hijack = await rawPost(
      url,
      {
        authorization: 'Bearer token-1',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    );
    expect(hijack.status).toBe(404);
  });
});

describe('load and fuzz', () => {
  it('50 concurrent clients each get their own answers and progress (0 misrouted)', async () => {
    const { url } = await startServer({
      auth: { verifyToken: (token) => tokens[token] },
      toolContext: (principal) => ({ userId: principal?.id }),
    });
    const misrouted: string[] = [];
    await Promise.all(
      Object.entries(tokens).map(async ([token, principal]) => {
        const client = await sdkClient(url, token);
        for (let call = 0; call < 3; call++) {
          const tag = `${principal.id}-${call}`;
          const progress: string[] = [];
          const result = await client.callTool({ name: 'whoami', arguments: { tag } }, undefined, {
            onprogress: (update) => progress.push(update.message ?? ''),
          });
          const answer = JSON.parse((result.content as { text: string }[])[0]?.text ?? '{}');
          if (answer.caller !== principal.id || answer.tag !== tag || progress.join() !== tag) {
            misrouted.push(tag);
          }
        }
      }),
    );
    expect(misrouted).toEqual([]);
  }, 60_000);

  it('5,000 fuzzed JSON-RPC frames: no crash, and the server still answers', async () => {
    const server = new McpToolServer({ tools: [whoami] });
    servers.push(server);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const answers: unknown[] = [];
    clientSide.onmessage = (message) => answers.push(message);
    await clientSide.start();
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    process.on('unhandledRejection', onError);
    const method = fc.constantFrom(
      'initialize',
      'tools/list',
      'tools/call',
      'ping',
      'notifications/cancelled',
      'notifications/initialized',
      'resources/list',
      '__proto__',
      '',
    );
    const frame = fc.oneof(
      fc.record(
        {
          jsonrpc: fc.constantFrom('2.0', '1.0', 2),
          id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
          method,
          params: fc.oneof(
            fc.jsonValue(),
            fc.record({ name: fc.constantFrom('whoami', 'nope', ''), arguments: fc.jsonValue() }),
          ),
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue(),
    );
    const frames = fc.sample(frame, { numRuns: 5_000, seed: 12_345 });
    for (const sent of frames) await clientSide.send(sent as never).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.off('uncaughtException', onError);
    process.off('unhandledRejection', onError);
    expect(frames).toHaveLength(5_000);
    expect(errors).toEqual([]);
    // Still serving: a fresh HTTP client lists the tools.
    const { url } = await server.listen();
    const client = await sdkClient(url);
    expect((await client.listTools()).tools.map((listed) => listed.name)).toEqual(['whoami']);
    await clientSide.close();
  }, 60_000);

  it('random HTTP bodies into a session are answered with errors, never a crash', async () => {
    const { url } = await startServer();
    const init = await rawPost(url, {}, initialize);
    const sessionId = init.headers['mcp-session-id'] as string;
    const bodies = fc.sample(
      fc.oneof(
        fc.string(),
        fc.jsonValue().map((value) => JSON.stringify(value)),
      ),
      {
        numRuns: 300,
        seed: 7,
      },
    );
    for (const body of bodies) {
      const answer = await rawPost(
        url,
        { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
        body,
      );
      expect(answer.status).toBeLessThan(500);
    }
    const client = await sdkClient(url);
    expect((await client.listTools()).tools).toHaveLength(2);
  }, 60_000);
});
