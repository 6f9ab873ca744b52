import { type Contestant, handWritten, peers, toolloop } from './lib/contestants.js';
import {
  check,
  count,
  fmt,
  fmtBytes,
  fmtRatio,
  type Measurement,
  measure,
  progress,
  runConcurrently,
  runSequentially,
  SMOKE,
  table,
  verdict,
} from './lib/harness.js';
import { FINAL_TEXT, PARALLEL_CALLS, toolRuns } from './lib/workload.js';

/**
 * Loop overhead: 2,000 conversations per repetition, each one round of three parallel,
 * schema-validated tool calls (no-op async tools) and one text answer, run one at a time and with
 * 100 in flight, for toolloop, the hand-written minimal loop and every peer.
 */

const CONVERSATIONS = count(2000, 12);
const IN_FLIGHT = count(100, 4);
const WARMUP_CONVERSATIONS = count(300, 4);

interface Row {
  contestant: Contestant;
  sequential: Measurement;
  concurrent: Measurement;
}

async function bench(contestant: Contestant): Promise<Row> {
  const conversation = contestant.setup();
  const first = await conversation();
  check(first === FINAL_TEXT, `${contestant.id} answered ${JSON.stringify(first)}`);
  // A slow framework gets three timed repetitions instead of five, to keep the run short.
  const started = performance.now();
  await runSequentially(WARMUP_CONVERSATIONS, conversation);
  const estimateMs = ((performance.now() - started) / WARMUP_CONVERSATIONS) * CONVERSATIONS;
  const repetitions = SMOKE ? 2 : estimateMs > 1500 ? 3 : 5;
  const runsBefore = toolRuns.count;
  const warmup = () => runSequentially(WARMUP_CONVERSATIONS, conversation);
  const sequential = await measure(() => runSequentially(CONVERSATIONS, conversation), {
    operations: CONVERSATIONS,
    repetitions,
    warmupRepetition: warmup,
  });
  const concurrent = await measure(() => runConcurrently(CONVERSATIONS, IN_FLIGHT, conversation), {
    operations: CONVERSATIONS,
    repetitions,
    warmupRepetition: warmup,
  });
  const expectedRuns =
    PARALLEL_CALLS * (2 * WARMUP_CONVERSATIONS + 2 * repetitions * CONVERSATIONS);
  check(
    toolRuns.count - runsBefore === expectedRuns,
    `${contestant.id} ran ${toolRuns.count - runsBefore} tools, expected ${expectedRuns}`,
  );
  progress(
    `loop overhead: ${contestant.id} ${fmt(sequential.usPerOp)} µs sequential, ${fmt(concurrent.usPerOp)} µs at ${IN_FLIGHT} in flight`,
  );
  return { contestant, sequential, concurrent };
}

const rows: Row[] = [];
for (const contestant of [handWritten, toolloop, ...peers]) rows.push(await bench(contestant));

const byId = new Map(rows.map((row) => [row.contestant.id, row]));
const base = byId.get('hand-written')!;
const ours = byId.get('toolloop')!;
const aiSdk = byId.get('ai-sdk')!;

const out: string[] = [];
out.push('## Loop overhead', '');
out.push(
  `Workload: ${fmt(CONVERSATIONS)} conversations per repetition; each: the model answers with ${PARALLEL_CALLS} parallel tool calls (small JSON arguments, validated against the same Zod schema: toolloop validates with its own JSON Schema validator, the peers with Zod), the no-op async tools run, then the model answers with text. Zero-latency scripted models written against each framework's own model interface. One at a time ("sequential") and ${IN_FLIGHT} in flight. Median of ${ours.sequential.samples.length} repetitions (3 for frameworks slower than ~0.75 ms per conversation) after a warm-up; allocations are bytes allocated on the V8 heap during the median repetition, per conversation; GC columns are the collections during the median repetition.`,
  '',
);
out.push(
  table(
    [
      'framework',
      'µs / conversation (sequential)',
      'min–max',
      `µs / conversation (${IN_FLIGHT} in flight)`,
      'allocated / conversation',
      'GCs (time)',
      '× hand-written',
      'toolloop is … faster',
    ],
    rows.map(({ contestant, sequential, concurrent }) => [
      contestant.label,
      fmt(sequential.usPerOp),
      `${fmt(sequential.minUsPerOp)}–${fmt(sequential.maxUsPerOp)}`,
      fmt(concurrent.usPerOp),
      fmtBytes(sequential.median.allocatedBytes / CONVERSATIONS),
      `${sequential.median.gcCount} (${fmt(sequential.median.gcMs)} ms)`,
      fmtRatio(sequential.usPerOp / base.sequential.usPerOp),
      contestant.id === 'toolloop' ? '—' : fmtRatio(sequential.usPerOp / ours.sequential.usPerOp),
    ]),
  ),
  '',
);
const vsBase = ours.sequential.usPerOp / base.sequential.usPerOp;
const vsBaseConcurrent = ours.concurrent.usPerOp / base.concurrent.usPerOp;
const vsAiSdk = aiSdk.sequential.usPerOp / ours.sequential.usPerOp;
const vsAiSdkConcurrent = aiSdk.concurrent.usPerOp / ours.concurrent.usPerOp;
out.push('Targets:', '');
out.push(
  `- Within 3× of the hand-written minimal loop: ${fmtRatio(vsBase)} sequential, ${fmtRatio(vsBaseConcurrent)} at ${IN_FLIGHT} in flight — ${verdict(vsBase <= 3)}${vsBase <= 3 ? '' : ` (by ${fmtRatio(vsBase / 3)})`}.`,
);
out.push(
  `- At least 20× faster than the Vercel AI SDK: ${fmtRatio(vsAiSdk)} sequential, ${fmtRatio(vsAiSdkConcurrent)} at ${IN_FLIGHT} in flight — ${verdict(vsAiSdk >= 20)}${vsAiSdk >= 20 ? '' : ` (short by ${fmtRatio(20 / vsAiSdk)})`}.`,
);
process.stdout.write(`${out.join('\n')}\n`);
