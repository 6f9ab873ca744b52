import { aiSdkModel, aiSdkStream, aiSdkTools } from './lib/ai-sdk.js';
import { BenchChatModel } from './lib/bench-chat-model.js';
import { handTools, handWrittenStream } from './lib/hand-written-loop.js';
import {
  check,
  count,
  fmt,
  fmtBytes,
  fmtRatio,
  type Measurement,
  measure,
  progress,
  runSequentially,
  SMOKE,
  table,
  verdict,
} from './lib/harness.js';
import { toolloopSetup, toolloopStream } from './lib/toolloop.js';
import {
  inputSchema,
  noopTool,
  QUESTION,
  STREAM_DELTAS,
  STREAM_TEXT_DELTAS,
  toolName,
} from './lib/workload.js';

/**
 * Streaming: 2,000 conversations, each streamed with the tool loop active (round 1: three tool
 * calls; round 2: 50 text deltas), one after another; text chunks delivered to the consumer per
 * second, against a bare async iterator of the same 50 deltas, a hand-written streaming tool loop
 * and the AI SDK's `streamText`.
 */

const CONVERSATIONS = count(2000, 12);
const WARMUP_CONVERSATIONS = count(300, 4);

interface Entry {
  id: string;
  label: string;
  /** One conversation; resolves with the number of text chunks the consumer received. */
  run: () => Promise<number>;
}

async function* bareIterator(): AsyncGenerator<string> {
  for (const delta of STREAM_TEXT_DELTAS) yield delta;
}

const model = new BenchChatModel(3);
const tools = handTools(
  [0, 1, 2].map((i) => ({ name: toolName(i), schema: inputSchema, execute: noopTool })),
);
const ours = toolloopSetup(3, 0);
const aiModel = aiSdkModel(3);
const aiTools = aiSdkTools(3);

const entries: Entry[] = [
  {
    id: 'bare',
    label: 'bare async iterator (50 deltas, no model, no tools)',
    async run() {
      let chunks = 0;
      for await (const _delta of bareIterator()) chunks++;
      return chunks;
    },
  },
  {
    id: 'hand-written',
    label: 'hand-written streaming tool loop',
    async run() {
      let chunks = 0;
      for await (const _delta of handWrittenStream(model, tools, QUESTION)) chunks++;
      return chunks;
    },
  },
  {
    id: 'toolloop',
    label: 'toolloop ChatClient `.stream().content()`',
    run: () => toolloopStream(ours),
  },
  {
    id: 'ai-sdk',
    label: 'Vercel AI SDK streamText `.textStream`',
    run: () => aiSdkStream(aiModel, aiTools, QUESTION),
  },
];

interface Row {
  entry: Entry;
  measurement: Measurement;
  chunksPerSecond: number;
}

const rows: Row[] = [];
for (const entry of entries) {
  const chunks = await entry.run();
  check(
    chunks === STREAM_DELTAS,
    `${entry.id} delivered ${chunks} chunks, expected ${STREAM_DELTAS}`,
  );
  const started = performance.now();
  const warmup = () => runSequentially(WARMUP_CONVERSATIONS, entry.run);
  await warmup();
  const estimateMs = ((performance.now() - started) / WARMUP_CONVERSATIONS) * CONVERSATIONS;
  const measurement = await measure(() => runSequentially(CONVERSATIONS, entry.run), {
    operations: CONVERSATIONS,
    repetitions: SMOKE ? 2 : estimateMs > 1500 ? 3 : 5,
    warmupRepetition: warmup,
  });
  const chunksPerSecond = (CONVERSATIONS * STREAM_DELTAS) / (measurement.median.ms / 1000);
  progress(`streaming: ${entry.id} ${fmt(chunksPerSecond)} chunks/s`);
  rows.push({ entry, measurement, chunksPerSecond });
}

const byId = new Map(rows.map((row) => [row.entry.id, row]));
const bare = byId.get('bare')!;
const toolloop = byId.get('toolloop')!;
const aiSdk = byId.get('ai-sdk')!;

const out: string[] = ['## Streaming', ''];
out.push(
  `Workload: ${fmt(CONVERSATIONS)} conversations per repetition, one after another; each streams with the tool loop active — round 1: the model streams ${3} complete tool calls, the no-op tools run; round 2: the model streams ${STREAM_DELTAS} text deltas, which the consumer reads one by one. Chunks/s counts the text deltas the consumer received over the whole conversation time (tool round included). The bare async iterator only yields the ${STREAM_DELTAS} deltas. Median of ${toolloop.measurement.samples.length} repetitions after a warm-up.`,
  '',
);
out.push(
  table(
    [
      'pipeline',
      'text chunks / s',
      'µs / conversation',
      'allocated / conversation',
      'toolloop ÷ this',
    ],
    rows.map(({ entry, measurement, chunksPerSecond }) => [
      entry.label,
      fmt(chunksPerSecond),
      fmt(measurement.usPerOp),
      fmtBytes(measurement.median.allocatedBytes / CONVERSATIONS),
      entry.id === 'toolloop' ? '—' : fmtRatio(toolloop.chunksPerSecond / chunksPerSecond),
    ]),
  ),
  '',
);
const ofBare = toolloop.chunksPerSecond / bare.chunksPerSecond;
const vsAiSdk = toolloop.chunksPerSecond / aiSdk.chunksPerSecond;
out.push('Targets:', '');
out.push(
  `- At least 30% of the bare iterator's chunk rate: ${fmt(ofBare * 100)}% — ${verdict(ofBare >= 0.3)}${ofBare >= 0.3 ? '' : ` (short by ${fmtRatio(0.3 / ofBare)})`}.`,
);
out.push(
  `- At least 50× the AI SDK's chunk rate: ${fmtRatio(vsAiSdk)} — ${verdict(vsAiSdk >= 50)}${vsAiSdk >= 50 ? '' : ` (short by ${fmtRatio(50 / vsAiSdk)})`}.`,
);
process.stdout.write(`${out.join('\n')}\n`);
