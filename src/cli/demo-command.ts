import type { CliOutput } from './cli-output.js';
import { EXIT_CODES } from './exit-codes.js';
import { parseCommandArgs } from './parse-command-args.js';
import { UsageError } from './usage-error.js';

/** `toolloop demo --help`. */
export const DEMO_HELP = `Usage: toolloop demo

Runs the tool-calling scenarios of Spring AI's tool-calling guide, and prints what the model
was sent and answered: a plain tool round trip, returnDirect, ToolContext, a 230-tool library
behind the tool search advisor, chat memory in SQLite across a restart, tool argument
augmentation, an approval gate before a destructive tool, a durable turn whose worker process
is killed mid-turn and finished by a second worker (DBOS on PostgreSQL), MCP (a server in a child process,
tools exposed over Streamable HTTP, local and MCP tools together) and the trace page of the
demo turns (written to a new toolloop-demo-* folder in the system's temporary directory; the
path is printed). It shows what
"npm start" shows in a clone of the repository. Without configuration a scripted model plays
the model's part; a real model does when the environment names one: TOOLLOOP_MODEL (a model
id such as openai-responses:gpt-5-mini or google:gemini-2.5-flash), else OPENAI_API_KEY or
OPENAI_BASE_URL (and OPENAI_MODEL) for an OpenAI-compatible model, else GEMINI_API_KEY or
GOOGLE_API_KEY for Gemini.

Needs the optional packages zod and better-sqlite3; the MCP scenarios also need
@modelcontextprotocol/sdk, the durable turn @dbos-inc/dbos-sdk and a PostgreSQL named by
DATABASE_URL (without them they are skipped, with a line saying so).

Options:
  -h, --help   Show this help.

Exit codes: 0 ran, 1 runtime error, 2 usage error.
`;

/** Runs `toolloop demo`. */
export async function demoCommand(args: readonly string[], io: CliOutput): Promise<number> {
  const parsed = parseCommandArgs(args, {}, DEMO_HELP);
  if (parsed.help) {
    io.out.write(DEMO_HELP);
    return EXIT_CODES.ok;
  }
  if (parsed.positionals.length > 0) {
    throw new UsageError(`unexpected argument: ${parsed.positionals[0]}`, DEMO_HELP);
  }
  let demo: typeof import('../demo/run-demo.js');
  try {
    demo = await import('../demo/run-demo.js');
  } catch (error) {
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec(
      String((error as Error).message),
    );
    if (missing)
      throw new Error(
        `toolloop demo needs the package ${missing[1]}: npm install zod better-sqlite3`,
      );
    throw error;
  }
  const log = (line: string) => io.out.write(`${line}\n`);
  const real = await demo.realModelFromEnvironment(process.env, log);
  await demo.runDemo(real, log);
  return EXIT_CODES.ok;
}
