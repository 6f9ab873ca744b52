import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ResolvedMcpConnectionConfig } from './mcp-connection-config.js';
import type { StderrTail } from './stderr-tail.js';

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * The SDK transport for a connection config. A stdio child's stderr goes to `stderr`, and a line
 * of its stdout may be `maxStdioLineBytes` long (a longer one ends the connection); HTTP requests
 * carry the config's headers and, when `authToken` is set, a fresh bearer token each.
 */
export function createMcpTransport(
  config: ResolvedMcpConnectionConfig,
  stderr: StderrTail,
  maxStdioLineBytes: number,
): Transport {
  switch (config.transport) {
    case 'stdio': {
      const transport = new StdioClientTransport({
        command: config.command,
        args: [...config.args],
        ...(config.env === undefined ? {} : { env: { ...config.env } }),
        ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
        stderr: 'pipe',
        maxBufferSize: maxStdioLineBytes,
      });
      stderr.attach(transport.stderr);
      return transport;
    }
    case 'streamable-http':
      return new StreamableHTTPClientTransport(config.url, {
        fetch: authorizingFetch(config.headers, config.authToken),
      });
    case 'sse': {
      const fetch = authorizingFetch(config.headers, config.authToken);
      return new SSEClientTransport(config.url, {
        fetch,
        eventSourceInit: { fetch },
      });
    }
  }
}

function authorizingFetch(
  headers: Readonly<Record<string, string>> | undefined,
  authToken: (() => string | Promise<string>) | undefined,
): FetchLike {
  return async (url, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (!merged.has(name)) merged.set(name, value);
    }
    if (authToken !== undefined) merged.set('authorization', `Bearer ${await authToken()}`);
    return fetch(url, { ...init, headers: merged });
  };
}
