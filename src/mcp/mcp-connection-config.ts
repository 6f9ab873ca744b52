import { InvalidArgumentError } from '../index.js';
import { redactCredentials } from '../internal/redact-credentials.js';

/** What every kind of connection config may say about the server. */
export interface McpServerTrust {
  /**
   * The user vouches for this server's tool definitions: its tools' annotations (`readOnlyHint`,
   * `destructiveHint`, `idempotentHint`, `openWorldHint`) become their metadata, which approval
   * policies and replays after a crash rely on. Default `false`: the MCP specification calls
   * annotations hints that clients must not rely on from servers they do not trust, so an
   * untrusted server's tools count as not read-only, destructive, not idempotent and open-world,
   * whatever they say. Config files: `toolloop.mcp.trusted-servers=<name>,…`.
   */
  readonly trusted?: boolean;
}

/**
 * A server started as a child process that speaks MCP over its stdin and stdout. The child gets
 * `PATH`, `HOME`, `USER`, `LOGNAME`, `SHELL` and `TERM` from this process, plus `env`; nothing else
 * of this process's environment (API keys included) reaches it.
 *
 * Spring AI properties: `spring.ai.mcp.client.stdio.connections.<name>.command`, `.args`, `.env`.
 */
export interface McpStdioConnectionConfig extends McpServerTrust {
  /** Optional: a config with `command` is a stdio connection. */
  readonly transport?: 'stdio';
  /** The executable, found on `PATH` (for example `npx` or `node`); never run through a shell. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Variables added to the child's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory of the child; default this process's. */
  readonly cwd?: string;
}

/**
 * A server reached over MCP's Streamable HTTP transport.
 *
 * Spring AI properties: `spring.ai.mcp.client.streamable-http.connections.<name>.url` and
 * `.endpoint`.
 */
export interface McpStreamableHttpConnectionConfig extends McpServerTrust {
  /** Optional: a config with `url` and no `transport` is a Streamable HTTP connection. */
  readonly transport?: 'streamable-http';
  /** The server's MCP endpoint, or its base URL when `endpoint` is given. */
  readonly url: string | URL;
  /** A path resolved against `url` (Spring AI's `endpoint`, for example `/mcp`). */
  readonly endpoint?: string;
  /** Headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called before every request; its value is sent as `Authorization: Bearer <token>`. */
  readonly authToken?: () => string | Promise<string>;
}

/**
 * A server reached over the legacy HTTP+SSE transport (MCP 2024-11-05), for servers that do not
 * speak Streamable HTTP yet.
 *
 * Spring AI properties: `spring.ai.mcp.client.sse.connections.<name>.url` and `.sse-endpoint`.
 */
export interface McpSseConnectionConfig extends McpServerTrust {
  readonly transport: 'sse';
  /** The server's SSE endpoint, or its base URL when `sseEndpoint` is given. */
  readonly url: string | URL;
  /** A path resolved against `url` (Spring AI's `sse-endpoint`, for example `/sse`). */
  readonly sseEndpoint?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly authToken?: () => string | Promise<string>;
}

/** How to reach one MCP server: plain data (functions only for tokens), so config files map onto it. */
export type McpConnectionConfig =
  | McpStdioConnectionConfig
  | McpStreamableHttpConnectionConfig
  | McpSseConnectionConfig;

/** A connection config after the checks, with its transport spelt out. */
export type ResolvedMcpConnectionConfig =
  | (McpStdioConnectionConfig & { readonly transport: 'stdio'; readonly args: readonly string[] })
  | (Omit<McpStreamableHttpConnectionConfig, 'url'> & {
      readonly transport: 'streamable-http';
      readonly url: URL;
    })
  | (Omit<McpSseConnectionConfig, 'url'> & { readonly transport: 'sse'; readonly url: URL });

/**
 * Checks a connection config and spells out its transport: `command` → stdio, `url` → Streamable
 * HTTP unless `transport: 'sse'`. Throws {@link InvalidArgumentError} naming the connection and
 * the problem.
 */
export function resolveMcpConnectionConfig(
  name: string,
  config: McpConnectionConfig,
): ResolvedMcpConnectionConfig {
  const fail = (problem: string): never => {
    throw new InvalidArgumentError(`MCP connection '${name}': ${problem}`);
  };
  if (typeof config !== 'object' || config === null) fail('the config must be an object');
  const raw = config as unknown as Partial<Record<string, unknown>>;
  if (raw.trusted !== undefined && typeof raw.trusted !== 'boolean') {
    fail('trusted must be true or false');
  }
  const transport =
    raw.transport ??
    (raw.command !== undefined ? 'stdio' : raw.url !== undefined ? 'streamable-http' : undefined);
  if (transport === 'stdio') {
    if (typeof raw.command !== 'string' || raw.command.trim() === '') {
      fail('a stdio connection needs a command');
    }
    const args = raw.args ?? [];
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
      fail('args must be an array of strings');
    }
    checkStringRecord(raw.env, 'env', fail);
    if (raw.cwd !== undefined && typeof raw.cwd !== 'string') fail('cwd must be a string');
    return Object.freeze({
      ...(config as McpStdioConnectionConfig),
      transport,
      args: [...(args as string[])],
    });
  }
  if (transport === 'streamable-http' || transport === 'sse') {
    const path = transport === 'sse' ? raw.sseEndpoint : raw.endpoint;
    if (path !== undefined && typeof path !== 'string') fail('the endpoint must be a string');
    const url = parseUrl(raw.url, path as string | undefined, fail);
    checkStringRecord(raw.headers, 'headers', fail);
    if (raw.authToken !== undefined && typeof raw.authToken !== 'function') {
      fail('authToken must be a function that returns the token');
    }
    return Object.freeze({
      ...(config as McpStreamableHttpConnectionConfig),
      transport,
      url,
    }) as ResolvedMcpConnectionConfig;
  }
  return fail(
    raw.transport === undefined
      ? 'give a command (stdio) or a url (Streamable HTTP, or legacy SSE with transport: "sse")'
      : `unknown transport ${JSON.stringify(raw.transport)} (stdio, streamable-http or sse)`,
  );
}

function parseUrl(value: unknown, path: string | undefined, fail: (problem: string) => never): URL {
  if (!(value instanceof URL) && typeof value !== 'string')
    return fail('url must be a string or a URL');
  let url: URL;
  try {
    url = new URL(String(value));
    if (path !== undefined) url = new URL(path, url);
  } catch {
    return fail(`${redactCredentials(JSON.stringify(String(value)))} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return fail(`url must be http or https, not ${url.protocol}`);
  }
  return url;
}

function checkStringRecord(value: unknown, what: string, fail: (problem: string) => never): void {
  if (value === undefined) return;
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    !Object.values(value).every((entry) => typeof entry === 'string')
  ) {
    fail(`${what} must map names to strings`);
  }
}
