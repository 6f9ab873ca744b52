import {
  type ChatResponse,
  createToolCallingManager,
  type Prompt,
  type ToolCallback,
  type ToolCallingChatOptions,
} from 'toolloop';
import { check, count, fmt, progress, SMOKE, table } from './lib/harness.js';

/**
 * How long the pattern check of one argument blocks the event loop when a tool's schema comes
 * from someone else (an MCP server): its patterns run on the linear-time engine within a work
 * budget. Each case is a catastrophic pattern for a backtracking engine (or one that makes a
 * lazy DFA thrash) and a string that fails it, at lengths up to the 1 MiB argument limit. Each
 * run compiles the pattern anew (a cold engine, as on an attacker's first call) and times one
 * tool-call batch of the tool calling manager; the same batch against the schema without its
 * pattern is the baseline (parsing a 1 MiB argument alone takes milliseconds), and the median
 * difference is what the pattern check adds.
 */

const RUNS = count(9, 1);
const LENGTHS = SMOKE ? [31, 10_000] : [31, 1_000, 10_000, 100_000, 1_048_000];

function failingRun(length: number): string {
  return `${'a'.repeat(Math.max(0, length - 1))}!`;
}

function randomAb(length: number): string {
  let text = '';
  let seed = 12345;
  for (let index = 0; index < length; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    text += (seed >> 16) & 1 ? 'a' : 'b';
  }
  return text;
}

const CASES: readonly [pattern: string, text: (length: number) => string][] = [
  ['^(a+)+$', failingRun],
  ['^(a|a)*$', failingRun],
  ['^(a|aa)+$', failingRun],
  ['^(.*a){20}$', failingRun],
  ['^(\\w+\\s?)*$', failingRun],
  ['^([a-z]{1,30}){1,30}!$', failingRun],
  ['(a|b)*a(a|b){20}$', randomAb],
  ['(a|b)*a(a|b){200}$', randomAb],
];

let unique = 0;

/** A tool as an MCP server would describe it: a hand-built callback, so its schema is untrusted. */
function toolWith(pattern: string | undefined): ToolCallback {
  // A distinct pattern text each time: the engine compiles afresh (no warm DFA state).
  const text =
    pattern === undefined
      ? { type: 'string' }
      : { type: 'string', pattern: `${pattern}${'(?:)'.repeat(++unique % 64)}` };
  return {
    definition: {
      name: 'echo',
      description: 'Echoes a text',
      inputSchema: {
        type: 'object',
        properties: { text },
        required: ['text'],
      },
    },
    metadata: {},
    call: async (input) => input,
  };
}

const manager = createToolCallingManager();

/** A model answer calling `echo` with `text`. */
function callWith(text: string): ChatResponse {
  return {
    results: [
      {
        output: {
          role: 'assistant',
          text: null,
          toolCalls: [{ id: 'c1', name: 'echo', arguments: JSON.stringify({ text }) }],
        },
        metadata: { finishReason: 'tool_calls' },
      },
    ],
    metadata: {},
  };
}

async function checkOnce(
  pattern: string | undefined,
  text: string,
): Promise<{ ms: number; error: boolean }> {
  const prompt: Prompt<ToolCallingChatOptions> = {
    messages: [{ role: 'user', text: 'go' }],
    options: { toolCallbacks: [toolWith(pattern)] },
  };
  // Compiled outside the timing: a schema is compiled when its tool is listed, not per call.
  await manager.executeToolCalls(prompt, callWith('a'));
  const started = performance.now();
  const result = await manager.executeToolCalls(prompt, callWith(text));
  const ms = performance.now() - started;
  const last = result.conversationHistory.at(-1);
  check(last?.role === 'tool', 'the batch answered the call');
  return { ms, error: last.responses[0]?.isError === true };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const rows: string[][] = [];
let worst = 0;
for (const [pattern, text] of CASES) {
  progress(`pattern ${pattern}`);
  for (const length of LENGTHS) {
    const input = text(length);
    const checked: number[] = [];
    const baseline: number[] = [];
    let refused = 0;
    for (let run = 0; run < RUNS; run++) {
      const withPattern = await checkOnce(pattern, input);
      checked.push(withPattern.ms);
      if (withPattern.error) refused++;
      baseline.push((await checkOnce(undefined, input)).ms);
    }
    const added = Math.max(0, median(checked) - median(baseline));
    worst = Math.max(worst, added);
    rows.push([
      `\`${pattern}\``,
      fmt(length),
      fmt(median(baseline), 2),
      fmt(median(checked), 2),
      fmt(added, 2),
      `${refused}/${RUNS}`,
    ]);
  }
}

process.stdout.write(
  [
    '## Pattern checks of untrusted schemas',
    '',
    `Each row: the median of ${RUNS} cold runs of one tool-call batch whose argument is checked against the pattern (a failing string; \`refused\` counts error results), against the same batch without the pattern, in milliseconds.`,
    '',
    table(
      [
        'pattern',
        'characters',
        'batch ms without pattern',
        'batch ms with pattern',
        'added by the check',
        'refused',
      ],
      rows,
    ),
    '',
    `Worst time added by one pattern check: ${fmt(worst, 2)} ms (goal: under 10 ms for any input up to the 1 MiB argument limit).`,
    '',
  ].join('\n'),
);
