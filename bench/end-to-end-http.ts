import type { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  check,
  count,
  fmt,
  fmtBytes,
  fmtRatio,
  progress,
  SMOKE,
  table,
  verdict,
} from './lib/harness.js';
import { ChildProcessClient } from './lib/http/child-rpc.js';
import { HTTP_TEXT_DELTAS } from './lib/http/provider-wire.js';
import { RELAY_CONTESTANTS, type RelayContestant } from './lib/http/relay-contestants.js';
import {
  type ConversationResult,
  converse,
  loadAgent,
  quantile,
} from './lib/http/sse-load-client.js';

/**
 * End to end over loopback HTTP. Three kinds of process: the fake provider (OpenAI Chat
 * Completions and Anthropic Messages SSE, pre-serialised), the measured web server (two worker
 * processes, as a 2-core server runs Node, each hosting the contestants), and this process, the
 * clients. A conversation is one request to the server: the contestant calls the provider (3
 * parallel tool calls streamed as argument deltas), runs the tools, calls it again (100 text
 * deltas) and relays every text delta to the client as a server-sent event. Only the server
 * processes' CPU time (`process.cpuUsage`) and memory are measured.
 */

// A smoke run proves the workings with one server process (every relay process start loads its SDKs).
const SERVER_PROCESSES = count(2, 1);
const BATCH = count(1_000, 6);
const CONCURRENCY = count(100, 3);
const REPETITIONS = count(3, 1);
const WARMUP = count(300, 4);
const MEMORY_LEVELS = SMOKE ? [6] : [1_000, 10_000];
/** `E2E_PHASES=cpu` or `memory` runs one phase only (when profiling or iterating on one). */
const PHASES = process.env.E2E_PHASES ?? 'cpu,memory';
/** `E2E_CONTESTANTS=id,id` runs only these (when profiling one). */
const ONLY = process.env.E2E_CONTESTANTS?.split(',');
const CONTESTANTS = RELAY_CONTESTANTS.filter((c) => ONLY === undefined || ONLY.includes(c.id));
/** The contestants measured with 10,000 conversations at once (the others at 1,000 only). */
const AT_10K = new Set([
  'hand-written-openai',
  'toolloop-openai',
  'hand-written-anthropic',
  'toolloop-anthropic',
]);
const SLOW_READ_MS = 2;
const loadAtStart = loadavg();

const provider = new ChildProcessClient(
  new URL('./lib/http/fake-provider-server.js', import.meta.url),
);
const providerUrl = `http://127.0.0.1:${(await provider.ready).port}`;

interface Relay {
  process: ChildProcessClient;
  port: number;
}

async function startRelays(only?: string): Promise<Relay[]> {
  const relays: Relay[] = [];
  for (let i = 0; i < SERVER_PROCESSES; i++) {
    const child = new ChildProcessClient(new URL('./lib/http/relay-server.js', import.meta.url), {
      PROVIDER_URL: providerUrl,
      ...(only === undefined ? {} : { RELAY_CONTESTANTS: only }),
    });
    relays.push({ process: child, port: Number((await child.ready).port) });
  }
  return relays;
}

async function cpuMicros(relays: Relay[]): Promise<number> {
  let total = 0;
  for (const relay of relays) {
    const usage = await relay.process.call<NodeJS.CpuUsage>('cpu');
    total += usage.user + usage.system;
  }
  return total;
}

async function memory(relays: Relay[]): Promise<{ rss: number; heapUsed: number }> {
  const sum = { rss: 0, heapUsed: 0 };
  for (const relay of relays) {
    const usage = await relay.process.call<{ rss: number; heapUsed: number }>('memory');
    sum.rss += usage.rss;
    sum.heapUsed += usage.heapUsed;
  }
  return sum;
}

async function checkNoFailures(relays: Relay[], what: string): Promise<void> {
  for (const relay of relays) {
    const stats = await relay.process.call<{ failures: string[] }>('stats');
    check(stats.failures.length === 0, `${what}: the server failed: ${stats.failures.join('\n')}`);
  }
  const stats = await provider.call<{ failures: string[] }>('stats');
  check(
    stats.failures.length === 0,
    `${what}: the provider refused requests: ${stats.failures.join('; ')}`,
  );
}

function checkResults(results: ConversationResult[], what: string): void {
  const wrong = results.filter((result) => result.error !== undefined);
  check(
    wrong.length === 0,
    `${what}: ${wrong.length} of ${results.length} conversations wrong: ${wrong[0]?.error}`,
  );
}

/** Runs `total` conversations with `concurrency` in flight, spread over the server processes. */
async function runBatch(
  agent: Agent,
  relays: Relay[],
  contestant: RelayContestant,
  total: number,
  concurrency: number,
  readDelayMs = 0,
): Promise<ConversationResult[]> {
  const results: ConversationResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const index = next++;
      const relay = relays[index % relays.length]!;
      results.push(await converse(agent, relay.port, contestant.id, readDelayMs));
    }
  };
  await Promise.all(Array.from({ length: Math.min(total, concurrency) }, worker));
  return results;
}

// ---- Phase 1: CPU per conversation, chunks per second, first-chunk latency -----------------

interface CpuRow {
  contestant: RelayContestant;
  cpuUs: number[];
  /** Provider connections opened per conversation (2 requests each; keep-alive reuses them). */
  connectionsPerConversation: number[];
  chunksPerSecond: number[];
  firstChunkMs: number[];
}

const agent = loadAgent();
const cpuRows: CpuRow[] = CONTESTANTS.map((contestant) => ({
  contestant,
  cpuUs: [],
  connectionsPerConversation: [],
  chunksPerSecond: [],
  firstChunkMs: [],
}));
if (PHASES.includes('cpu')) {
  const relays = await startRelays();
  for (const row of cpuRows) {
    progress(`end to end: warming up ${row.contestant.id}`);
    checkResults(
      await runBatch(agent, relays, row.contestant, WARMUP, Math.min(20, CONCURRENCY)),
      row.contestant.id,
    );
  }
  // Repetitions take turns across the contestants, so load from elsewhere falls on all alike.
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    for (const row of cpuRows) {
      const before = await cpuMicros(relays);
      const connectionsBefore = (await provider.call<{ connections: number }>('stats')).connections;
      const started = performance.now();
      const results = await runBatch(agent, relays, row.contestant, BATCH, CONCURRENCY);
      const wallMs = performance.now() - started;
      const cpu = (await cpuMicros(relays)) - before;
      checkResults(results, row.contestant.id);
      row.cpuUs.push(cpu / BATCH);
      const connections = (await provider.call<{ connections: number }>('stats')).connections;
      row.connectionsPerConversation.push((connections - connectionsBefore) / BATCH);
      row.chunksPerSecond.push((BATCH * HTTP_TEXT_DELTAS) / (wallMs / 1000));
      row.firstChunkMs.push(...results.map((result) => result.firstChunkMs));
      progress(
        `end to end: ${row.contestant.id} ${fmt(cpu / BATCH)} µs CPU per conversation (repetition ${repetition + 1})`,
      );
    }
  }
  await checkNoFailures(relays, 'CPU phase');
  for (const relay of relays) await relay.process.stop();
}

// ---- Phase 2: memory per open conversation, N streaming at once, slow readers --------------

interface MemoryRow {
  contestant: RelayContestant;
  level: number;
  rssPerConversation: number;
  heapPerConversation: number;
  firstChunkP50: number;
  firstChunkP99: number;
  firstChunkMax: number;
  parkSeconds: number;
}

const memoryRows: MemoryRow[] = [];
for (const level of PHASES.includes('memory') ? MEMORY_LEVELS : []) {
  for (const contestant of CONTESTANTS) {
    if (level > 1_000 && !AT_10K.has(contestant.id)) continue;
    // A smoke run proves the memory phase on the two contestants its target compares.
    if (SMOKE && !contestant.id.endsWith('-openai')) continue;
    if (SMOKE && !contestant.id.startsWith('hand') && !contestant.id.startsWith('toolloop'))
      continue;
    progress(`end to end: ${contestant.id} with ${fmt(level)} conversations streaming at once`);
    const relays = await startRelays(contestant.id);
    const slowAgent = loadAgent();
    try {
      checkResults(
        await runBatch(slowAgent, relays, contestant, WARMUP, 20),
        `${contestant.id} warm-up`,
      );
      const before = await memory(relays);
      await provider.call('gate', true);
      const started = performance.now();
      const running: Promise<ConversationResult>[] = [];
      let failed: ConversationResult | undefined;
      // Clients arrive in waves of 250 every 25 ms (10,000 within a second), so the accept queues
      // never overflow into SYN retries.
      for (let index = 0; index < level; index++) {
        const relay = relays[index % relays.length]!;
        const conversation = converse(slowAgent, relay.port, contestant.id, SLOW_READ_MS);
        conversation.then((result) => {
          if (result.error !== undefined) failed ??= result;
        });
        running.push(conversation);
        if (index % 250 === 249) await sleep(25);
      }
      const deadline = performance.now() + 600_000;
      let reported = performance.now();
      for (;;) {
        const stats = await provider.call<{ parked: number }>('stats');
        if (stats.parked >= level) break;
        check(
          failed === undefined,
          `${contestant.id} at ${level}: a conversation failed: ${failed?.error}`,
        );
        check(
          performance.now() < deadline,
          `${contestant.id}: only ${stats.parked} of ${level} conversations reached the middle of their text`,
        );
        if (performance.now() - reported > 15_000) {
          progress(`end to end: ${stats.parked} of ${level} conversations streaming`);
          reported = performance.now();
        }
        await sleep(50);
      }
      const parkSeconds = (performance.now() - started) / 1000;
      const during = await memory(relays);
      await provider.call('release');
      const results = await Promise.all(running);
      checkResults(results, `${contestant.id} at ${level}`);
      await checkNoFailures(relays, `${contestant.id} at ${level}`);
      const latencies = results.map((result) => result.firstChunkMs);
      memoryRows.push({
        contestant,
        level,
        rssPerConversation: (during.rss - before.rss) / level,
        heapPerConversation: (during.heapUsed - before.heapUsed) / level,
        firstChunkP50: quantile(latencies, 0.5),
        firstChunkP99: quantile(latencies, 0.99),
        firstChunkMax: quantile(latencies, 1),
        parkSeconds,
      });
    } finally {
      await provider.call('release');
      slowAgent.destroy();
      for (const relay of relays) await relay.process.stop();
    }
  }
}
agent.destroy();
await provider.stop();

// ---- Report -------------------------------------------------------------------------------

const median = (values: readonly number[]) => quantile(values, 0.5);
const cpuOf = (id: string) => median(cpuRows.find((row) => row.contestant.id === id)?.cpuUs ?? []);
const memoryOf = (id: string, level: number) =>
  memoryRows.find((row) => row.contestant.id === id && row.level === level);

const out: string[] = ['## End to end over HTTP', ''];
out.push(
  `Workload: a web server relays conversations to HTTP clients as server-sent events. Each conversation is one request to the server; the contestant calls a fake provider over loopback HTTP (round 1: 3 parallel tool calls, their JSON arguments streamed in 3 deltas each; the no-op tools run, arguments checked against the same Zod schema; round 2: ${HTTP_TEXT_DELTAS} text deltas) and relays each text delta as a \`data:\` frame (toolloop with \`pipeServerSentEvents\`, the others with the same frames written by hand, with back-pressure). The provider speaks OpenAI Chat Completions or Anthropic Messages SSE from pre-serialised buffers, one event per event-loop turn, and checks every request (tools sent, every result returned under its call's id).`,
  '',
  `Processes: the provider, the measured server (${SERVER_PROCESSES} worker processes, as a 2-core server runs Node; conversations alternate between them) and the clients each run in their own process, so the figures below are the server's alone: CPU time is \`process.cpuUsage()\` (user + system) of the server processes over a batch, divided by its conversations; memory is their RSS and V8 heap (after a full GC) with every conversation parked mid-stream, minus the same before, divided by the conversations. Load average at the start: ${loadAtStart.map((load) => load.toFixed(1)).join(' / ')} on 2 cores, shared with other work: read the ratios, not the absolute figures.`,
  '',
);
out.push(
  `CPU: ${fmt(BATCH)} conversations per batch, ${fmt(CONCURRENCY)} in flight, clients reading as fast as they can, after ${fmt(WARMUP)} warm-up conversations each; ${REPETITIONS} batches per contestant, taking turns; median batch. Chunks per second is the text frames all clients received per second of wall time (all processes share the 2 cores); first-chunk latency is from sending the request to the first text frame, over every conversation of every batch.`,
  '',
);
out.push(
  table(
    [
      'wire format',
      'contestant',
      'server CPU µs / conversation',
      '× hand-written',
      'text chunks / s',
      'first chunk p50 / p99 (ms)',
      'provider connections / conversation',
    ],
    cpuRows
      .filter((row) => row.cpuUs.length > 0)
      .map((row) => {
        const cpu = median(row.cpuUs);
        const hand = cpuOf(`hand-written-${row.contestant.format}`);
        return [
          row.contestant.format === 'openai' ? 'OpenAI Chat Completions' : 'Anthropic Messages',
          row.contestant.label,
          fmt(cpu),
          fmtRatio(cpu / hand),
          fmt(median(row.chunksPerSecond)),
          `${fmt(quantile(row.firstChunkMs, 0.5))} / ${fmt(quantile(row.firstChunkMs, 0.99))}`,
          fmt(median(row.connectionsPerConversation)),
        ];
      }),
  ),
  '',
);
out.push(
  `Memory: N conversations started at once (in waves of 250), every client reading slowly (its socket paused ${SLOW_READ_MS} ms after every read); the provider holds each text round after half of its text until all N are there, so all N are open and streaming when the memory is read. Each contestant in fresh server processes, warmed up first.`,
  '',
);
out.push(
  table(
    [
      'contestant',
      'wire format',
      'streaming at once',
      'RSS / conversation',
      'heap / conversation',
      'heap × hand-written',
      'first chunk p50 / p99 / max (ms)',
      'all open after (s)',
    ],
    memoryRows.map((row) => {
      const hand = memoryOf(`hand-written-${row.contestant.format}`, row.level);
      return [
        row.contestant.label,
        row.contestant.format,
        fmt(row.level),
        fmtBytes(row.rssPerConversation),
        fmtBytes(row.heapPerConversation),
        hand ? fmtRatio(row.heapPerConversation / hand.heapPerConversation) : '—',
        `${fmt(row.firstChunkP50)} / ${fmt(row.firstChunkP99)} / ${fmt(row.firstChunkMax)}`,
        fmt(row.parkSeconds),
      ];
    }),
  ),
  '',
);

out.push('Targets (toolloop against the others in this run, per wire format):', '');
const topLevel = Math.max(...MEMORY_LEVELS);
for (const format of ['openai', 'anthropic'] as const) {
  const ours = cpuOf(`toolloop-${format}`);
  const hand = cpuOf(`hand-written-${format}`);
  const aiSdk = cpuOf(`ai-sdk-${format}`);
  const cpuRatio = ours / hand;
  const aiRatio = aiSdk / ours;
  if (Number.isFinite(cpuRatio))
    out.push(
      `- ${format}: CPU per conversation at most 1.5× the hand-written loop's: ${fmtRatio(cpuRatio)} — ${verdict(cpuRatio <= 1.5)}; at least 5× less than the AI SDK's: ${fmtRatio(aiRatio)} less — ${verdict(aiRatio >= 5)}.`,
    );
  const oursMemory = memoryOf(`toolloop-${format}`, topLevel);
  const handMemory = memoryOf(`hand-written-${format}`, topLevel);
  if (oursMemory && handMemory) {
    const heapRatio = oursMemory.heapPerConversation / handMemory.heapPerConversation;
    const rssRatio = oursMemory.rssPerConversation / handMemory.rssPerConversation;
    out.push(
      `- ${format}: memory per open streaming conversation at most 2× the hand-written loop's with ${fmt(topLevel)} streaming at once: heap ${fmtRatio(heapRatio)}, RSS ${fmtRatio(rssRatio)} — ${verdict(heapRatio <= 2 && rssRatio <= 2)}; p99 first-chunk latency ${fmt(oursMemory.firstChunkP99)} ms against ${fmt(handMemory.firstChunkP99)} ms, none starved (every conversation completed).`,
    );
  }
}
process.stdout.write(`${out.join('\n')}\n`);
