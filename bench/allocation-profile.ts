import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import {
  check,
  count,
  fmt,
  fmtBytes,
  progress,
  runSequentially,
  table,
  warmUp,
} from './lib/harness.js';
import { toolloopCall, toolloopSetup, toolloopStream } from './lib/toolloop.js';
import { FINAL_TEXT } from './lib/workload.js';

/**
 * Where toolloop allocates: V8's sampling heap profiler (`HeapProfiler.startSampling` through
 * `node:inspector`, keeping the samples of objects the garbage collector already freed) over the
 * loop-overhead conversation and the streaming conversation, reduced to the allocating functions
 * (self) and toolloop's functions with everything they call (inclusive), per conversation.
 */

const CALL_CONVERSATIONS = count(4000, 10);
const STREAM_CONVERSATIONS = count(1000, 4);
/** Mean bytes between two samples: small, so a conversation of ~10 KB gets many samples. */
const SAMPLING_INTERVAL = count(128, 1024);
const TOP = 15;

interface SamplingNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

interface SamplingProfile {
  head: SamplingNode;
  samples: { size: number; nodeId: number; ordinal: number }[];
}

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

function label(node: SamplingNode): string {
  const name = node.callFrame.functionName || '(anonymous)';
  const url = node.callFrame.url;
  if (url === '') return name;
  let path = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (path.startsWith(projectRoot)) path = path.slice(projectRoot.length);
  path = path.replace(/^.*node_modules\//, '');
  return `${name} (${path}:${node.callFrame.lineNumber + 1})`;
}

const toolloopDist = new URL('../../dist/', import.meta.url).href;

function isToolloopFrame(node: SamplingNode): boolean {
  return node.callFrame.url.startsWith(toolloopDist);
}

interface Summary {
  total: number;
  self: [string, number][];
  inclusive: [string, number][];
}

/**
 * Bytes per allocating function (self) and per toolloop function with its callees (inclusive).
 * A sample of size S stands for S bytes allocated (the profiler scales samples to the interval).
 */
function summarize(profile: SamplingProfile): Summary {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  const walk = (node: SamplingNode, stack: string[]) => {
    const name = label(node);
    const own = node.selfSize;
    if (own > 0) {
      total += own;
      self.set(name, (self.get(name) ?? 0) + own);
      const seen = new Set<string>();
      for (const frame of isToolloopFrame(node) ? [...stack, name] : stack) {
        if (seen.has(frame)) continue;
        seen.add(frame);
        inclusive.set(frame, (inclusive.get(frame) ?? 0) + own);
      }
    }
    const next = isToolloopFrame(node) ? [...stack, name] : stack;
    for (const child of node.children) walk(child, next);
  };
  walk(profile.head, []);
  const top = (entries: Map<string, number>) =>
    [...entries].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  return { total, self: top(self), inclusive: top(inclusive) };
}

async function profileOf(
  conversation: () => Promise<unknown>,
  conversations: number,
): Promise<Summary> {
  await warmUp(conversation, { budgetMs: count(1000, 20), maxRuns: 20_000 });
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: SAMPLING_INTERVAL,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await runSequentially(conversations, conversation);
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
      profile: SamplingProfile;
    };
    await session.post('HeapProfiler.disable');
    return summarize(profile);
  } finally {
    session.disconnect();
  }
}

const setup = toolloopSetup(3, 0);
check((await toolloopCall(setup)) === FINAL_TEXT, 'toolloop answered the scripted text');
const call = await profileOf(() => toolloopCall(setup), CALL_CONVERSATIONS);
progress(`allocation profile: call ${fmtBytes(call.total / CALL_CONVERSATIONS)} / conversation`);
const stream = await profileOf(async () => {
  for await (const _chunk of toolloopStream(setup)) {
    // Read every chunk, as a caller would.
  }
}, STREAM_CONVERSATIONS);
progress(
  `allocation profile: stream ${fmtBytes(stream.total / STREAM_CONVERSATIONS)} / conversation`,
);
check(call.total > 0 && stream.total > 0, 'the sampling heap profiler recorded allocations');

const out: string[] = ['## Allocation profile', ''];
out.push(
  `Where toolloop allocates: V8's sampling heap profiler (\`HeapProfiler.startSampling\` through \`node:inspector\`, one sample every ${SAMPLING_INTERVAL} bytes on average, objects the GC already freed included) over ${fmt(CALL_CONVERSATIONS)} loop-overhead conversations through \`.call()\` and ${fmt(STREAM_CONVERSATIONS)} streaming conversations through \`.stream()\`, each after a 1 s warm-up, in this process. "Self" is bytes allocated by the function's own code (V8 charges an inlined callee to its caller and a builtin to the JavaScript that called it); "inclusive" counts toolloop's functions (dist/) with everything they call. Sampled, so the totals agree with the Loop overhead table's allocation column within a few percent, not exactly.`,
  '',
);
for (const [title, summary, conversations] of [
  ['`.call()`', call, CALL_CONVERSATIONS],
  ['`.stream()`', stream, STREAM_CONVERSATIONS],
] as const) {
  const perConversation = (bytes: number) => fmtBytes(bytes / conversations);
  out.push(
    `${title}: ${perConversation(summary.total)} per conversation sampled. Self, per conversation:`,
    '',
  );
  out.push(
    table(
      ['function', 'allocated / conversation', 'share'],
      summary.self.map(([name, bytes]) => [
        name,
        perConversation(bytes),
        `${fmt((bytes / summary.total) * 100, 2)}%`,
      ]),
    ),
    '',
  );
  out.push(`${title}, inclusive in toolloop's functions, per conversation:`, '');
  out.push(
    table(
      ['function', 'allocated / conversation', 'share'],
      summary.inclusive.map(([name, bytes]) => [
        name,
        perConversation(bytes),
        `${fmt((bytes / summary.total) * 100, 2)}%`,
      ]),
    ),
    '',
  );
}
process.stdout.write(`${out.join('\n').trimEnd()}\n`);
