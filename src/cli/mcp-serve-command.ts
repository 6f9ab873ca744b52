import { createHash, timingSafeEqual } from 'node:crypto';
import { isLoopbackHost, LOOPBACK_HOSTS } from '../mcp/server/http-request-guard.js';
import type { CliOutput } from './cli-output.js';
import { EXIT_CODES } from './exit-codes.js';
import { loadToolsModule } from './load-tools-module.js';
import { parseCommandArgs, stringList } from './parse-command-args.js';
import { UsageError } from './usage-error.js';

/** `toolloop mcp serve --help`. */
export const MCP_SERVE_HELP = `Usage: toolloop mcp serve <module> [--http <port>] [--host <host>] [--name <name>]

Serves the tools a JavaScript module exports (tool() callbacks, objects with @tool or @mcpTool
methods, or a default array of them) as an MCP server: over this process's stdin and stdout
(the default; point an MCP client's stdio connection at this command), or over Streamable
HTTP at http://<host>:<port>/mcp. Runs until stdin closes (stdio) or until SIGINT / SIGTERM.
Over stdio, whatever the tools print to stdout (console.log, ...) goes to stderr instead.

Options:
  --http <port>             Serve over Streamable HTTP on this port (decimal, 1-65535; 0 picks
                            a free one); the URL is printed on standard error.
  --host <host>             The interface to bind with --http. Default 127.0.0.1 (loopback
                            only). Any other host needs --bearer-token-env or
                            --allow-unauthenticated, and prints a warning.
  --bearer-token-env <VAR>  Require "Authorization: Bearer <token>" on every HTTP request,
                            the token being the value of the environment variable VAR (at
                            least 16 characters; not given on the command line, where other
                            users could read it).
  --allow-unauthenticated   Serve other machines without a token (anyone who reaches the
                            port can run every tool).
  --allowed-host <name>     A Host name clients use to reach the server (repeatable), besides
                            the loopback names.
  --name <name>             The server name clients see. Default toolloop-mcp-server.
  -h, --help                Show this help.

Exit codes: 0 stopped normally, 1 runtime error, 2 usage error.
`;

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** Runs `toolloop mcp serve`. */
export async function mcpServeCommand(args: readonly string[], io: CliOutput): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    {
      http: { type: 'string' },
      host: { type: 'string' },
      name: { type: 'string' },
      'bearer-token-env': { type: 'string' },
      'allow-unauthenticated': { type: 'boolean' },
      'allowed-host': { type: 'string', multiple: true },
    },
    MCP_SERVE_HELP,
  );
  if (parsed.help) {
    io.out.write(MCP_SERVE_HELP);
    return EXIT_CODES.ok;
  }
  const [module, ...rest] = parsed.positionals;
  if (module === undefined) throw new UsageError('give the tools module to serve', MCP_SERVE_HELP);
  if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`, MCP_SERVE_HELP);
  const values = parsed.values as Record<string, string | undefined>;
  const allowUnauthenticated = parsed.values['allow-unauthenticated'] === true;
  const allowedHosts = stringList(parsed.values['allowed-host']);
  const tokenVariable = values['bearer-token-env'];
  let port: number | undefined;
  if (values.http !== undefined) {
    port = parsePort(values.http);
  } else if (
    values.host !== undefined ||
    tokenVariable !== undefined ||
    allowUnauthenticated ||
    allowedHosts.length > 0
  ) {
    throw new UsageError(
      '--host, --bearer-token-env, --allow-unauthenticated and --allowed-host go with --http',
      MCP_SERVE_HELP,
    );
  }
  const host = values.host ?? '127.0.0.1';
  const auth = tokenVariable === undefined ? undefined : bearerTokenAuth(tokenVariable);
  if (port !== undefined && !isLoopbackHost(host)) {
    if (auth === undefined && !allowUnauthenticated) {
      throw new UsageError(
        `--host ${host} is reachable from other machines: give --bearer-token-env <VAR> (or --allow-unauthenticated to serve without authentication)`,
        MCP_SERVE_HELP,
      );
    }
    io.err.write(
      auth === undefined
        ? `toolloop mcp serve: WARNING: serving on ${host} WITHOUT authentication: anyone who reaches this port can run every tool\n`
        : `toolloop mcp serve: warning: serving on ${host}, reachable from other machines (bearer token required)\n`,
    );
  }
  const tools = await loadToolsModule(module);
  const { McpToolServer } = await import('../mcp/server/entry.js');
  const server = new McpToolServer({
    tools,
    ...(values.name ? { name: values.name } : {}),
    ...(auth === undefined ? {} : { auth }),
    ...(allowUnauthenticated ? { allowUnauthenticated } : {}),
    ...(allowedHosts.length === 0 ? {} : { allowedHosts: [...LOOPBACK_HOSTS, ...allowedHosts] }),
  });
  if (port === undefined) {
    const closed = new Promise<void>((resolve) =>
      process.stdin.once('close', resolve).once('end', resolve),
    );
    await server.connectStdio();
    await Promise.race([closed, waitForSignal()]);
  } else {
    const { url } = await server.listen({ port, host });
    io.err.write(`toolloop MCP server listening on ${url.href}\n`);
    await waitForSignal();
  }
  await server.close();
  return EXIT_CODES.ok;
}

/** A port in decimal, 1 to 65535 (0 asks for a free one); `0x50` or `8e1` are not ports. */
function parsePort(text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new UsageError(
      `--http needs a decimal port from 1 to 65535 (or 0 for a free one), not ${JSON.stringify(text)}`,
      MCP_SERVE_HELP,
    );
  }
  return port;
}

/** Checks each request's bearer token against the variable's value, in constant time. */
function bearerTokenAuth(variable: string) {
  const expected = process.env[variable];
  if (expected === undefined || expected.trim().length < 16) {
    throw new UsageError(
      `--bearer-token-env ${variable}: the environment variable must hold a token of at least 16 characters`,
      MCP_SERVE_HELP,
    );
  }
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const wanted = digest(expected.trim());
  return {
    verifyToken: (token: string) =>
      timingSafeEqual(digest(token), wanted) ? { id: 'bearer-token', scopes: [] } : undefined,
  };
}
