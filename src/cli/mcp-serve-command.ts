import type { CliOutput } from './cli-output.js';
import { EXIT_CODES } from './exit-codes.js';
import { loadToolsModule } from './load-tools-module.js';
import { parseCommandArgs } from './parse-command-args.js';
import { UsageError } from './usage-error.js';

/** `toolloop mcp serve --help`. */
export const MCP_SERVE_HELP = `Usage: toolloop mcp serve <module> [--http <port>] [--host <host>] [--name <name>]

Serves the tools a JavaScript module exports (tool() callbacks, objects with @tool or @mcpTool
methods, or a default array of them) as an MCP server: over this process's stdin and stdout
(the default; point an MCP client's stdio connection at this command), or over Streamable
HTTP at http://<host>:<port>/mcp. Runs until stdin closes (stdio) or until SIGINT / SIGTERM.

Options:
  --http <port>   Serve over Streamable HTTP on this port (0 picks a free one); the URL is
                  printed on standard error.
  --host <host>   The interface to bind with --http. Default 127.0.0.1 (loopback only).
  --name <name>   The server name clients see. Default toolloop-mcp-server.
  -h, --help      Show this help.

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
    { http: { type: 'string' }, host: { type: 'string' }, name: { type: 'string' } },
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
  let port: number | undefined;
  if (values.http !== undefined) {
    port = Number(values.http);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(
        `--http needs a port from 0 to 65535, not ${JSON.stringify(values.http)}`,
        MCP_SERVE_HELP,
      );
    }
  } else if (values.host !== undefined) {
    throw new UsageError('--host goes with --http', MCP_SERVE_HELP);
  }
  const tools = await loadToolsModule(module);
  const { McpToolServer } = await import('../mcp/server/entry.js');
  const server = new McpToolServer({ tools, ...(values.name ? { name: values.name } : {}) });
  if (port === undefined) {
    const closed = new Promise<void>((resolve) =>
      process.stdin.once('close', resolve).once('end', resolve),
    );
    await server.connectStdio();
    await Promise.race([closed, waitForSignal()]);
  } else {
    const host = values.host ?? '127.0.0.1';
    const { url } = await server.listen({ port, host });
    io.err.write(`toolloop MCP server listening on ${url.href}\n`);
    await waitForSignal();
  }
  await server.close();
  return EXIT_CODES.ok;
}
