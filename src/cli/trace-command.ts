import { readFile, writeFile } from 'node:fs/promises';
import { InvalidArgumentError } from '../errors/index.js';
import { renderTracePageFromRecording } from '../trace/index.js';
import type { CliOutput } from './cli-output.js';
import { EXIT_CODES } from './exit-codes.js';
import { parseCommandArgs } from './parse-command-args.js';
import { UsageError } from './usage-error.js';

/** `toolloop trace --help`. */
export const TRACE_HELP = `Usage: toolloop trace <recording> [--output <file>] [--title <text>] [--redact]

Draws the trace page of recorded turns: one self-contained HTML page with a time axis per
turn, its model rounds, tool calls, tokens and errors. The recording is what
TurnEventRecorder.toJSON() gives (from toolloop/trace), a JSON array of turn events, or one
event per line (JSON Lines: what "toolloop chat --record <file>" and the config key
toolloop.observability.recording-file write).

Options:
  -o, --output <file>   Write the page to this file instead of standard output.
  --title <text>        The page title. Default "toolloop trace".
  --redact              Leave tool arguments and results, answers and error messages out of the
                        page. Default: the page shows what the recording carries, which is
                        content only when it was recorded with it ("toolloop chat --record <file>
                        --include-content", or TurnEventRecorder({ recordContent: true })).
  --include-content     Accepted for older scripts: showing recorded content is the default.
  -h, --help            Show this help.

Exit codes: 0 written, 1 the recording is unreadable or invalid, 2 usage error.
`;

/** Runs `toolloop trace`. */
export async function traceCommand(args: readonly string[], io: CliOutput): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    {
      output: { type: 'string', short: 'o' },
      title: { type: 'string' },
      'include-content': { type: 'boolean' },
      redact: { type: 'boolean' },
    },
    TRACE_HELP,
  );
  if (parsed.help) {
    io.out.write(TRACE_HELP);
    return EXIT_CODES.ok;
  }
  const [file, ...rest] = parsed.positionals;
  if (file === undefined) throw new UsageError('give the recording file', TRACE_HELP);
  if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`, TRACE_HELP);
  const values = parsed.values as Record<string, string | boolean | undefined>;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let page: string;
  try {
    page = renderTracePageFromRecording(text, {
      ...(typeof values.title === 'string' ? { title: values.title } : {}),
      ...(values.redact === true ? { includeContent: false } : {}),
    });
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new Error(`${file}: ${error.message}`);
    throw error;
  }
  if (typeof values.output === 'string') {
    await writeFile(values.output, page);
    io.err.write(`trace page written to ${values.output}\n`);
  } else {
    io.out.write(page);
  }
  return EXIT_CODES.ok;
}
