import { userMessage } from 'toolloop';
import { BenchChatModel } from './lib/bench-chat-model.js';
import { type Contestant, handWritten, peers, toolloop } from './lib/contestants.js';
import {
  canCollectGarbage,
  check,
  collectGarbage,
  count,
  fmt,
  fmtBytes,
  progress,
  table,
  verdict,
  warmUp,
} from './lib/harness.js';
import {
  FINAL_TEXT,
  PARALLEL_CALLS,
  QUESTION,
  TOOL_RESULT,
  type ToolInput,
} from './lib/workload.js';

/**
 * Memory per in-flight conversation: 10,000 conversations started at once; every tool awaits one
 * shared promise, so when all 30,000 tool calls have arrived every conversation is in flight,
 * parked mid-loop with its messages. Heap used then (after a full GC) minus heap used before,
 * divided by 10,000, is the cost of one in-flight conversation; for toolloop the size of the
 * conversation's own messages (measured separately, same data) is subtracted.
 */

const CONVERSATIONS = count(10_000, 50);
/** The peers are measured at fewer conversations, so the run stays short (their cost per conversation is flat). */
const PEER_CONVERSATIONS = count(1_000, 20);
const TARGET_BYTES = 10 * 1024;

check(canCollectGarbage(), 'run node with --expose-gc (bench/run.sh does)');

/** A tool body that parks until `release()`; `arrived` resolves once every call is parked. */
function gate(expectedCalls: number) {
  let arrivedCount = 0;
  let release!: () => void;
  let allArrived!: () => void;
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrived = new Promise<void>((resolve) => {
    allArrived = resolve;
  });
  const execute = async (_input: ToolInput): Promise<string> => {
    arrivedCount++;
    if (arrivedCount === expectedCalls) allArrived();
    await opened;
    return TOOL_RESULT;
  };
  return { execute, arrived, release: () => release(), arrivedCount: () => arrivedCount };
}

/** Heap bytes held by the messages of `CONVERSATIONS` parked conversations (user + tool calls). */
async function messagesBytes(): Promise<number> {
  const model = new BenchChatModel(3);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const held: unknown[] = [];
  for (let i = 0; i < CONVERSATIONS; i++) {
    const user = userMessage(QUESTION);
    const response = await model.call({ messages: [user], options: {} });
    held.push([user, response.results[0]!.output]);
  }
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  check(held.length === CONVERSATIONS, 'messages held');
  return (after - before) / CONVERSATIONS;
}

interface Row {
  contestant: Contestant;
  conversations: number;
  bytesPerConversation: number;
}

async function inFlight(contestant: Contestant, conversations: number): Promise<Row> {
  // Warm-up with the no-op tools, so one-time allocations (compiled code, caches) are not counted.
  await warmUp(contestant.setup(), { budgetMs: count(1000, 50), maxRuns: count(200, 4) });
  const parked = gate(conversations * PARALLEL_CALLS);
  const conversation = contestant.setup(parked.execute);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const runs: Promise<string>[] = new Array(conversations);
  for (let i = 0; i < conversations; i++) runs[i] = conversation();
  await parked.arrived;
  collectGarbage();
  const during = process.memoryUsage().heapUsed;
  parked.release();
  const answers = await Promise.all(runs);
  check(
    answers.every((answer) => answer === FINAL_TEXT),
    `${contestant.id} finished every conversation`,
  );
  const bytesPerConversation = (during - before) / conversations;
  progress(`memory: ${contestant.id} ${fmtBytes(bytesPerConversation)} per in-flight conversation`);
  return { contestant, conversations, bytesPerConversation };
}

const ownMessages = await messagesBytes();
const rows: Row[] = [];
for (const contestant of [handWritten, toolloop])
  rows.push(await inFlight(contestant, CONVERSATIONS));
for (const contestant of peers) rows.push(await inFlight(contestant, PEER_CONVERSATIONS));
const ours = rows.find((row) => row.contestant.id === 'toolloop')!;
const beyond = ours.bytesPerConversation - ownMessages;

const out: string[] = ['## Memory per conversation', ''];
out.push(
  `Workload: ${fmt(CONVERSATIONS)} conversations started at once (the loop-overhead conversation; the peers, much slower to start, are measured at ${fmt(PEER_CONVERSATIONS)}); every tool awaits one shared promise, so once all ${fmt(CONVERSATIONS * PARALLEL_CALLS)} tool calls have arrived, every conversation is in flight with its user message and the model's 3 tool calls. Heap used then, after a forced full GC, minus heap used before, per conversation. The conversation's own messages in toolloop's plain-JSON shape (user message + assistant message with 3 tool calls) take ${fmtBytes(ownMessages)}, measured by holding ${fmt(CONVERSATIONS)} copies of them.`,
  '',
);
out.push(
  table(
    [
      'framework',
      'conversations in flight',
      'heap per in-flight conversation',
      'beyond the messages (toolloop shape)',
    ],
    rows.map(({ contestant, conversations, bytesPerConversation }) => [
      contestant.label,
      fmt(conversations),
      fmtBytes(bytesPerConversation),
      fmtBytes(bytesPerConversation - ownMessages),
    ]),
  ),
  '',
);
out.push('Targets:', '');
out.push(
  `- toolloop under 10 KB per in-flight conversation beyond its messages: ${fmtBytes(beyond)} — ${verdict(beyond < TARGET_BYTES)}${beyond < TARGET_BYTES ? '' : ` (over by ${fmtBytes(beyond - TARGET_BYTES)})`}.`,
);
if (beyond >= TARGET_BYTES) {
  out.push(
    '',
    'Why: a heap snapshot of 2,000 parked toolloop conversations (taken while these benchmarks were written) showed the cost is mostly suspended async functions — generator objects with their register arrays, contexts and promises, and closures — because each of the three parked tool calls holds the batch runner and tool callback frames, on top of the chain, advisor and manager frames, plus the per-batch AbortController and its listeners. Fewer async layers per tool call (promise chains instead of `await` in the batch runner) and no AbortController when no tool reads the signal would cut most of it.',
  );
}
process.stdout.write(`${out.join('\n')}\n`);
