import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/**
 * The MCP server of the MCP benchmark, built with the official SDK: one tool, `lookup`, that
 * answers at once with the text of its arguments. `node bench-mcp-server.js stdio` serves stdio;
 * `node bench-mcp-server.js http` serves Streamable HTTP on a free loopback port (printed on
 * stdout as `port <n>`), one session per client, answers as server-sent events (the SDK default).
 */

function server(): McpServer {
  const mcp = new McpServer({ name: 'toolloop-bench', version: '1.0.0' });
  mcp.registerTool(
    'lookup',
    {
      description: 'Looks up the forecast for a city over a number of days.',
      inputSchema: { city: z.string().min(1), days: z.number().int().min(1).max(14) },
    },
    async ({ city, days }) => ({
      content: [{ type: 'text', text: `forecast for ${city}, ${days} days: mild` }],
    }),
  );
  return mcp;
}

if (process.argv[2] === 'stdio') {
  await server().connect(new StdioServerTransport());
} else {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (request, response) => {
    const id = request.headers['mcp-session-id'];
    let transport: StreamableHTTPServerTransport | undefined =
      typeof id === 'string' ? sessions.get(id) : undefined;
    if (transport === undefined) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId: string): void => {
          sessions.set(sessionId, created);
        },
      });
      created.onclose = () => {
        if (created.sessionId !== undefined) sessions.delete(created.sessionId);
      };
      await server().connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  });
  http.listen(0, '127.0.0.1', () => {
    const address = http.address();
    process.stdout.write(`port ${typeof address === 'object' && address ? address.port : 0}\n`);
  });
}
