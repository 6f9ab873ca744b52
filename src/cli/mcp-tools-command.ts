import { loadConfig, mcpToolsFromConfig } from '../config/index.js';
import type { CliOutput } from './cli-output.js';
import { EXIT_CODES } from './exit-codes.js';
import { parseCommandArgs } from './parse-command-args.js';
import { UsageError } from './usage-error.js';

/** `toolloop mcp tools --help`. */
export const MCP_TOOLS_HELP = `Usage: toolloop mcp tools <config>... [--json]

Connects to the MCP servers of the configuration files (spring.ai.mcp.client.* keys, and
toolloop.mcp.tool-naming / include-tools / exclude-tools) and lists the tools a chat client
would offer the model: their names after prefixing and filtering, the server each comes from,
and the first line of its description. The environment applies as for every command.

Options:
  --json       Print a JSON array of { name, server, description } instead.
  -h, --help   Show this help.

Exit codes: 0 listed, 1 a server failed, 2 usage error, invalid configuration or no server.
`;

/** Runs `toolloop mcp tools`. */
export async function mcpToolsCommand(args: readonly string[], io: CliOutput): Promise<number> {
  const parsed = parseCommandArgs(args, { json: { type: 'boolean' } }, MCP_TOOLS_HELP);
  if (parsed.help) {
    io.out.write(MCP_TOOLS_HELP);
    return EXIT_CODES.ok;
  }
  if (parsed.positionals.length === 0) {
    throw new UsageError('give at least one configuration file', MCP_TOOLS_HELP);
  }
  const config = await loadConfig({ files: parsed.positionals });
  const provider = await mcpToolsFromConfig(config);
  if (provider === undefined) {
    throw new UsageError(
      `no MCP server is configured in ${parsed.positionals.join(', ')} (or spring.ai.mcp.client.enabled is false)`,
      MCP_TOOLS_HELP,
    );
  }
  try {
    const callbacks = await provider.getToolCallbacks();
    const rows = callbacks.map((callback) => ({
      name: callback.definition.name,
      server: (callback as { client?: { name?: string } }).client?.name ?? '',
      description: callback.definition.description.split('\n')[0] ?? '',
    }));
    if (parsed.values.json === true) {
      io.out.write(`${JSON.stringify(rows, null, 2)}\n`);
    } else {
      const width = Math.max(4, ...rows.map((row) => row.name.length));
      const serverWidth = Math.max(6, ...rows.map((row) => row.server.length));
      io.out.write(`${'TOOL'.padEnd(width)}  ${'SERVER'.padEnd(serverWidth)}  DESCRIPTION\n`);
      for (const row of rows) {
        io.out.write(
          `${row.name.padEnd(width)}  ${row.server.padEnd(serverWidth)}  ${row.description}\n`,
        );
      }
    }
  } finally {
    await provider.close();
  }
  return EXIT_CODES.ok;
}
