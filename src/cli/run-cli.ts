import { ConfigError } from '../config/index.js';
import { CHAT_HELP, chatCommand } from './chat-command.js';
import type { CliOutput } from './cli-output.js';
import { DEMO_HELP, demoCommand } from './demo-command.js';
import { EXIT_CODES } from './exit-codes.js';
import { MCP_SERVE_HELP, mcpServeCommand } from './mcp-serve-command.js';
import { MCP_TOOLS_HELP, mcpToolsCommand } from './mcp-tools-command.js';
import { TRACE_HELP, traceCommand } from './trace-command.js';
import { UsageError } from './usage-error.js';

/** `toolloop --help`. */
export const MAIN_HELP = `Usage: toolloop <command> [options]

Commands:
  demo                 Run the tool-calling scenarios (scripted model, or a real one from the environment)
  chat                 Chat in the terminal with your tools, MCP servers and memory
  mcp serve <module>   Serve a module's tools as an MCP server (stdio, or --http <port>)
  mcp tools <config>   List the tools the configured MCP servers offer
  trace <recording>    Draw the trace page (HTML) of recorded turns

Run "toolloop <command> --help" for a command's options.

Configuration comes from --config files (.properties, .yaml, .json; Spring AI keys and
toolloop.*), then the environment (SPRING_AI_*, TOOLLOOP_*), then the command line.

Exit codes: 0 ok, 1 runtime error, 2 usage error or invalid configuration.
`;

const MCP_HELP = `Usage: toolloop mcp <serve|tools> ...

  mcp serve <module>   Serve a module's tools as an MCP server (stdio, or --http <port>)
  mcp tools <config>   List the tools the configured MCP servers offer

Run "toolloop mcp serve --help" or "toolloop mcp tools --help" for their options.

Exit codes: 0 ok, 1 runtime error, 2 usage error or invalid configuration.
`;

type Command = (args: readonly string[], io: CliOutput) => Promise<number>;

const COMMANDS: Record<string, { run: Command; help: string }> = {
  demo: { run: demoCommand, help: DEMO_HELP },
  chat: { run: chatCommand, help: CHAT_HELP },
  'mcp serve': { run: mcpServeCommand, help: MCP_SERVE_HELP },
  'mcp tools': { run: mcpToolsCommand, help: MCP_TOOLS_HELP },
  trace: { run: traceCommand, help: TRACE_HELP },
};

/**
 * Runs the `toolloop` command line and returns its exit code: 0 ok, 1 runtime error, 2 usage
 * error (unknown command or option, missing argument, invalid configuration).
 */
export async function runCli(argv: readonly string[], io: CliOutput): Promise<number> {
  const [first, second, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? [second, ...rest].filter(Boolean).join(' ') : '';
    const command = COMMANDS[topic];
    if (topic !== '' && command === undefined && topic !== 'mcp') {
      io.err.write(`toolloop: unknown command "${topic}"\n\n${MAIN_HELP}`);
      return EXIT_CODES.usageError;
    }
    if (first === undefined) {
      io.err.write(MAIN_HELP);
      return EXIT_CODES.usageError;
    }
    io.out.write(command?.help ?? (topic === 'mcp' ? MCP_HELP : MAIN_HELP));
    return EXIT_CODES.ok;
  }
  let name = first;
  let args = [second, ...rest].filter((arg): arg is string => arg !== undefined);
  if (first === 'mcp') {
    if (second === undefined || second === '--help' || second === '-h') {
      (second === undefined ? io.err : io.out).write(MCP_HELP);
      return second === undefined ? EXIT_CODES.usageError : EXIT_CODES.ok;
    }
    name = `mcp ${second}`;
    args = rest;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.err.write(
      `toolloop: unknown command "${name}"\n\n${first === 'mcp' ? MCP_HELP : MAIN_HELP}`,
    );
    return EXIT_CODES.usageError;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err.write(
        `toolloop ${name}: ${error.message}\n\nRun "toolloop ${name} --help" for usage.\n`,
      );
      return EXIT_CODES.usageError;
    }
    if (error instanceof ConfigError) {
      io.err.write(`toolloop ${name}: ${error.message}\n`);
      return EXIT_CODES.usageError;
    }
    io.err.write(`toolloop ${name}: ${(error as Error)?.message ?? String(error)}\n`);
    return EXIT_CODES.runtimeError;
  }
}
