import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BenchChatModel } from './lib/bench-chat-model.js';
import { handTools, handWrittenCall } from './lib/hand-written-loop.js';
import {
  check,
  count,
  fmt,
  fmtRatio,
  measure,
  progress,
  runSequentially,
  SMOKE,
  table,
  verdict,
  warmUp,
} from './lib/harness.js';
import { toolloopCall, toolloopSetup } from './lib/toolloop.js';
import { FINAL_TEXT, inputSchema, noopTool, QUESTION, toolName } from './lib/workload.js';

/**
 * Scaling: the loop-overhead conversation (three tool calls, then text) with 1, 10, 100 and
 * 1,000 tools attached to the request, and with 10, 100 and 1,000 prior messages in the prompt,
 * through toolloop's ChatClient and through the hand-written loop. The cost per conversation
 * must grow at most linearly with the tools and with the history.
 */

const CONVERSATIONS = count(500, 6);
const TOOL_COUNTS = SMOKE ? [1, 10] : [1, 10, 100, 1000];
const HISTORY_LENGTHS = SMOKE ? [10, 100] : [10, 100, 1000];
const IN_FLIGHT = SMOKE ? [1, 10] : [1, 10, 100, 1_000, 10_000];
/** Conversations per in-flight measurement: at least this many, in batches of the level. */
const IN_FLIGHT_CONVERSATIONS = count(10_000, 20);
/** Growth of the cost per conversation per 10× more in flight that still counts as flat. */
const FLAT_TOLERANCE = 1.25;
/** The in-flight curve again, in a child process whose V8 young generation is this large. */
const LARGE_SEMI_SPACE_MB = 64;
/** Set in that child: it measures only the in-flight curve and prints it as JSON. */
const IN_FLIGHT_CHILD = process.env.SCALING_IN_FLIGHT_CHILD === '1';
/** Growth between two sizes ten times apart that still counts as linear (noise allowance). */
const LINEAR_TOLERANCE = 12.5;

interface Point {
  size: number;
  toolloopUs: number;
  handUs: number;
}

async function point(toolCount: number, historyLength: number): Promise<Point> {
  const setup = toolloopSetup(toolCount, historyLength);
  const ours = () => toolloopCall(setup);
  check(
    (await ours()) === FINAL_TEXT,
    `toolloop at ${toolCount} tools / ${historyLength} messages`,
  );
  const model = new BenchChatModel(toolCount);
  const tools = handTools(
    Array.from({ length: toolCount }, (_, i) => ({
      name: toolName(i),
      schema: inputSchema,
      execute: noopTool,
    })),
  );
  const history = setup.history;
  const hand = () => handWrittenCall(model, tools, history, QUESTION);
  const options = { operations: CONVERSATIONS, repetitions: count(3, 1), warmup: 0 };
  await warmUp(ours, { budgetMs: count(400, 20), maxRuns: CONVERSATIONS });
  const toolloop = await measure(() => runSequentially(CONVERSATIONS, ours), options);
  await warmUp(hand, { budgetMs: count(200, 20), maxRuns: CONVERSATIONS });
  const handMeasured = await measure(() => runSequentially(CONVERSATIONS, hand), options);
  return { size: 0, toolloopUs: toolloop.usPerOp, handUs: handMeasured.usPerOp };
}

function growthRows(points: Point[]): string[][] {
  return points.map((p, i) => {
    const previous = points[i - 1];
    return [
      fmt(p.size),
      fmt(p.toolloopUs),
      previous ? fmtRatio(p.toolloopUs / previous.toolloopUs) : '—',
      previous ? fmt((p.toolloopUs - previous.toolloopUs) / (p.size - previous.size), 3) : '—',
      fmt(p.handUs),
      fmtRatio(p.toolloopUs / p.handUs),
    ];
  });
}

function isLinear(points: Point[]): { linear: boolean; worst: number } {
  let worst = 0;
  for (let i = 1; i < points.length; i++) {
    const growth = points[i]!.toolloopUs / points[i - 1]!.toolloopUs;
    const sizeGrowth = points[i]!.size / points[i - 1]!.size;
    worst = Math.max(worst, growth / (sizeGrowth / 10));
  }
  return { linear: worst <= LINEAR_TOLERANCE, worst };
}

// One long warm-up of both loops first, so the first sizes are not measured on colder code.
{
  const setup = toolloopSetup(3, 0);
  await warmUp(() => toolloopCall(setup), { budgetMs: count(1500, 20), maxRuns: 20_000 });
  const model = new BenchChatModel(3);
  const tools = handTools(
    [0, 1, 2].map((i) => ({ name: toolName(i), schema: inputSchema, execute: noopTool })),
  );
  await warmUp(() => handWrittenCall(model, tools, [], QUESTION), {
    budgetMs: count(500, 20),
    maxRuns: 50_000,
  });
}

const toolPoints: Point[] = [];
for (const toolCount of IN_FLIGHT_CHILD ? [] : TOOL_COUNTS) {
  const p = await point(toolCount, 0);
  p.size = toolCount;
  progress(`scaling: ${toolCount} tools → ${fmt(p.toolloopUs)} µs`);
  toolPoints.push(p);
}
const historyPoints: Point[] = [];
for (const historyLength of IN_FLIGHT_CHILD ? [] : HISTORY_LENGTHS) {
  const p = await point(3, historyLength);
  p.size = historyLength;
  progress(`scaling: ${historyLength} messages → ${fmt(p.toolloopUs)} µs`);
  historyPoints.push(p);
}

// CPU per conversation with 1 to 10,000 conversations in flight at once (started together and
// awaited together, batch after batch): CPU time (process.cpuUsage, user + system) per
// conversation, so the cost of many suspended conversations (scheduling, GC of a bigger heap)
// shows, and wall time cannot hide behind the other work of a shared machine.
interface InFlightPoint {
  size: number;
  toolloopUs: number;
  handUs: number;
}
async function cpuPerConversation(
  level: number,
  conversation: () => Promise<string>,
): Promise<number> {
  const batches = Math.max(1, Math.round(IN_FLIGHT_CONVERSATIONS / level));
  const samples: number[] = [];
  for (let repetition = 0; repetition < count(3, 1); repetition++) {
    const before = process.cpuUsage();
    for (let batch = 0; batch < batches; batch++) {
      const answers = await Promise.all(Array.from({ length: level }, conversation));
      check(answers[level - 1] === FINAL_TEXT, `a conversation at ${level} in flight`);
    }
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / (batches * level));
  }
  return samples.sort((a, b) => a - b)[(samples.length - 1) >> 1]!;
}
const inFlightPoints: InFlightPoint[] = [];
{
  const setup = toolloopSetup(3, 0);
  const model = new BenchChatModel(3);
  const tools = handTools(
    [0, 1, 2].map((i) => ({ name: toolName(i), schema: inputSchema, execute: noopTool })),
  );
  for (const level of IN_FLIGHT) {
    const toolloopUs = await cpuPerConversation(level, () => toolloopCall(setup));
    const handUs = await cpuPerConversation(level, () =>
      handWrittenCall(model, tools, [], QUESTION),
    );
    progress(`scaling: ${level} in flight → ${fmt(toolloopUs)} µs CPU`);
    inFlightPoints.push({ size: level, toolloopUs, handUs });
  }
}

if (IN_FLIGHT_CHILD) {
  process.stdout.write(JSON.stringify(inFlightPoints));
  process.exit(0);
}

// The same curve with a larger young generation: if the growth is V8's (scavenges copying and
// promoting thousands of live conversations), it moves to higher levels or goes.
const child = spawnSync(
  process.execPath,
  ['--expose-gc', `--max-semi-space-size=${LARGE_SEMI_SPACE_MB}`, fileURLToPath(import.meta.url)],
  {
    env: { ...process.env, SCALING_IN_FLIGHT_CHILD: '1' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  },
);
check(child.status === 0, `the in-flight run with a ${LARGE_SEMI_SPACE_MB} MB semi-space failed`);
const largeYoung = JSON.parse(child.stdout) as InFlightPoint[];
check(
  largeYoung.length === inFlightPoints.length,
  'the larger young generation run has every level',
);

function verdictPerRow(points: { size: number; toolloopUs: number }[], tolerance: number) {
  return points.map((p, i) => {
    const previous = points[i - 1];
    if (!previous) return '—';
    const perTenfold =
      (p.toolloopUs / previous.toolloopUs) ** (1 / Math.log10(p.size / previous.size));
    return perTenfold <= tolerance
      ? 'linear or better'
      : `worse than linear (${fmtRatio(perTenfold)} per 10×)`;
  });
}

const header = (what: string) => [
  what,
  'toolloop µs / conversation',
  'growth vs previous row',
  `µs per extra ${what.split(' ')[0]!.replace(/s$/, '')}`,
  'hand-written µs',
  'toolloop ÷ hand-written',
];

const tools = isLinear(toolPoints);
const history = isLinear(historyPoints);
const out: string[] = ['## Scaling', ''];
out.push(
  `Workload: the loop-overhead conversation (3 parallel tool calls, then text), ${fmt(CONVERSATIONS)} conversations one after another per repetition, median of ${count(3, 1)}. First with 1 to 1,000 tools attached to each request (\`.tools(...)\` on every request, so toolloop resolves, de-duplicates and sends all of them every time; the calls go to three of them), then with 3 tools and 10 to 1,000 prior messages in the prompt. The hand-written loop builds its tool map once and copies the history once per conversation.`,
  '',
);
const inFlightVerdicts = verdictPerRow(inFlightPoints, FLAT_TOLERANCE);
const largeYoungVerdicts = verdictPerRow(largeYoung, FLAT_TOLERANCE);
out.push(
  `Conversations in flight: the same conversation, ${fmt(IN_FLIGHT_CONVERSATIONS)} per measurement, started ${IN_FLIGHT.map((n) => fmt(n)).join(', ')} at a time (batch after batch); CPU time (\`process.cpuUsage()\`, user + system) per conversation, median of ${count(3, 1)}. The total cost is linear when the cost per conversation stays flat (at most ${FLAT_TOLERANCE}× per 10× more in flight). The last two columns are the same curve measured again in a child process started with \`--max-semi-space-size=${LARGE_SEMI_SPACE_MB}\` (V8's young generation, 16 MB by default on Node 20).`,
  '',
  table(
    [
      'in flight',
      'toolloop CPU µs / conversation',
      'hand-written CPU µs',
      'toolloop ÷ hand-written',
      'total cost',
      `toolloop / hand-written CPU µs, ${LARGE_SEMI_SPACE_MB} MB semi-space`,
      `total cost, ${LARGE_SEMI_SPACE_MB} MB semi-space`,
    ],
    inFlightPoints.map((p, i) => [
      fmt(p.size),
      fmt(p.toolloopUs),
      fmt(p.handUs),
      fmtRatio(p.toolloopUs / p.handUs),
      inFlightVerdicts[i]!,
      `${fmt(largeYoung[i]!.toolloopUs)} / ${fmt(largeYoung[i]!.handUs)}`,
      largeYoungVerdicts[i]!,
    ]),
  ),
  '',
);
const toolVerdicts = verdictPerRow(toolPoints, LINEAR_TOLERANCE);
const historyVerdicts = verdictPerRow(historyPoints, LINEAR_TOLERANCE);
out.push(
  'Attached tools:',
  '',
  table(
    [...header('tools attached'), 'cost in tools'],
    growthRows(toolPoints).map((row, i) => [...row, toolVerdicts[i]!]),
  ),
  '',
);
out.push(
  'History length:',
  '',
  table(
    [...header('messages in history'), 'cost in history'],
    growthRows(historyPoints).map((row, i) => [...row, historyVerdicts[i]!]),
  ),
  '',
);
const inFlight = inFlightVerdicts.every((v) => v === '—' || v === 'linear or better');
out.push('Targets:', '');
out.push(
  `- Linear or better in conversations in flight (CPU per conversation at most ${FLAT_TOLERANCE}× per 10× more in flight): ${verdict(inFlight)}.`,
);
if (!inFlight) {
  const first = inFlightPoints[0]!;
  const last = inFlightPoints[inFlightPoints.length - 1]!;
  const ratios = inFlightPoints.map((p) => p.toolloopUs / p.handUs);
  out.push(
    '',
    `  Why: from ${fmt(first.size)} to ${fmt(last.size)} in flight the hand-written loop's CPU per conversation grows ${fmtRatio(last.handUs / first.handUs)} and toolloop's ${fmtRatio(last.toolloopUs / first.toolloopUs)}, while toolloop ÷ hand-written stays between ${fmtRatio(Math.min(...ratios))} and ${fmtRatio(Math.max(...ratios))}: both loops pay the same growth, so it is the runtime's, not the loop's. Thousands of conversations alive at once outgrow V8's young generation, so each scavenge copies and promotes their live objects. With a ${LARGE_SEMI_SPACE_MB} MB semi-space the same curve goes from ${fmt(largeYoung[0]!.toolloopUs)} to ${fmt(largeYoung[largeYoung.length - 1]!.toolloopUs)} µs for toolloop (${fmtRatio(largeYoung[largeYoung.length - 1]!.toolloopUs / largeYoung[0]!.toolloopUs)}) and from ${fmt(largeYoung[0]!.handUs)} to ${fmt(largeYoung[largeYoung.length - 1]!.handUs)} µs for the hand-written loop: on a server that keeps thousands in flight, \`--max-semi-space-size\` is the knob, and toolloop's share is its heap per conversation (see Memory per conversation).`,
    '',
  );
}
out.push(
  `- Linear or better in attached tools (growth ≤ ${LINEAR_TOLERANCE}× per 10× more tools, allowing for noise): worst ${fmtRatio(tools.worst)} — ${verdict(tools.linear)}.`,
);
out.push(
  `- Linear or better in history length: worst ${fmtRatio(history.worst)} per 10× more messages — ${verdict(history.linear)}.`,
);
process.stdout.write(`${out.join('\n')}\n`);
