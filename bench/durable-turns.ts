import { loadavg } from 'node:os';
import { DBOSClient, type WorkflowStatus } from '@dbos-inc/dbos-sdk';
import type { ChatClient } from 'toolloop';
import { DbosTurnClient, DbosTurnWorker } from 'toolloop/durable';
import { check, count, fmt, fmtRatio, progress, table } from './lib/harness.js';

/**
 * Durable turns on DBOS against the plain loop: throughput and p99 turn latency with two and four
 * worker processes on one queue, and the cost of a checkpointed step. The turn: a zero-latency
 * scripted model calls a no-op read-only tool once, then answers (3 checkpointed steps: the model
 * call, the tool call, the second model call; plus the version step and the turn's end event).
 */

const TURNS = count(600, 12);
const WARM_UP = count(40, 4);
const CONCURRENCY = count(16, 4);
const ROUNDS = 10;
const STEP_TURNS = count(30, 3);

const databaseUrl = process.env.DATABASE_URL;
check(databaseUrl !== undefined, 'DATABASE_URL is not set (eval "$(bash scripts/services.sh)")');

const fixtures = new URL('../../test/integration/fixtures/durable-crash/', import.meta.url);
const { createCrashDatabase, WorkerProcess } = (await import(
  new URL('harness.mjs', fixtures).href
)) as {
  createCrashDatabase(
    baseUrl: string,
    label: string,
  ): Promise<{ url: string; drop(): Promise<void> }>;
  WorkerProcess: new (
    url: string,
    workerId: string,
    env: Record<string, string>,
  ) => { ready: Promise<void>; stop(): Promise<void> };
};
const { overheadClient } = (await import(new URL('overhead-agent.mjs', fixtures).href)) as {
  overheadClient(rounds: number): ChatClient;
};

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

interface Result {
  label: string;
  turnsPerSecond: number;
  p50: number;
  p99: number;
  /** Durable turns: from the turn's dequeue by a worker to its end (the queue wait left out). */
  runP50?: number;
  runP99?: number;
}

/** The plain loop in this process, `CONCURRENCY` turns in flight. */
async function plainLoop(): Promise<Result> {
  const client = overheadClient(1);
  const run = async (turns: number) => {
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < turns) {
          next++;
          const begin = performance.now();
          const answer = await client.prompt('go').call().content();
          check(answer === 'done', `the plain turn answered ${answer}`);
          latencies.push(performance.now() - begin);
        }
      }),
    );
    return { latencies, ms: performance.now() - started };
  };
  await run(WARM_UP);
  const { latencies, ms } = await run(TURNS);
  return {
    label: `plain loop, one process, ${CONCURRENCY} turns in flight`,
    turnsPerSecond: TURNS / (ms / 1000),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

/** Waits until every turn ended; returns their engine statuses. */
async function statuses(engine: DBOSClient, ids: readonly string[]): Promise<WorkflowStatus[]> {
  for (;;) {
    const found: WorkflowStatus[] = [];
    for (let start = 0; start < ids.length; start += 200) {
      found.push(
        ...(await engine.listWorkflows({
          workflowIDs: ids.slice(start, start + 200),
          loadInput: false,
          loadOutput: false,
        })),
      );
    }
    const failed = found.filter((status) => status.status === 'ERROR');
    check(failed.length === 0, `${failed.length} durable turns failed`);
    if (found.length === ids.length && found.every((status) => status.status === 'SUCCESS'))
      return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `workers` worker processes on one queue, `CONCURRENCY` turns each at most. */
async function durable(workers: number): Promise<Result> {
  const { url, drop } = await createCrashDatabase(databaseUrl as string, `bench_${workers}`);
  const processes = Array.from(
    { length: workers },
    (_, index) =>
      new WorkerProcess(url, `bench-${index}`, { WORKER_CONCURRENCY: String(CONCURRENCY) }),
  );
  let client: DbosTurnClient | undefined;
  let engine: DBOSClient | undefined;
  try {
    await Promise.all(processes.map((worker) => worker.ready));
    client = await DbosTurnClient.create({ systemDatabaseUrl: url });
    engine = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: 'toolloop' });
    const batch = async (turns: number) => {
      const ids: string[] = [];
      for (let start = 0; start < turns; start += 50) {
        const handles = await Promise.all(
          Array.from({ length: Math.min(50, turns - start) }, () =>
            (client as DbosTurnClient).start('overhead', { user: 'go' }),
          ),
        );
        ids.push(...handles.map((handle) => handle.turnId));
      }
      return statuses(engine as DBOSClient, ids);
    };
    await batch(WARM_UP);
    const ended = await batch(TURNS);
    const endOf = (status: WorkflowStatus) => status.completedAt ?? status.updatedAt ?? 0;
    const latencies = ended.map((status) => endOf(status) - status.createdAt);
    const runs = ended.map((status) => endOf(status) - (status.dequeuedAt ?? status.createdAt));
    const first = Math.min(...ended.map((status) => status.createdAt));
    const last = Math.max(...ended.map((status) => status.completedAt ?? status.updatedAt ?? 0));
    return {
      label: `durable, ${workers} worker processes on one queue, ${CONCURRENCY} turns each`,
      turnsPerSecond: TURNS / ((last - first) / 1000),
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      runP50: percentile(runs, 0.5),
      runP99: percentile(runs, 0.99),
    };
  } finally {
    await client?.close();
    await engine?.destroy();
    for (const worker of processes) await worker.stop();
    await drop();
  }
}

/**
 * The cost of a checkpointed step: the same ten-round turn run one at a time in this process, with
 * and without durability, its time divided by its steps. The durable time is the engine's (from the
 * turn's dequeue to its end), so the queue's polling is not in it.
 */
async function stepCost(): Promise<{ plainMs: number; durableMs: number; steps: number }> {
  const plain = overheadClient(ROUNDS);
  const plainTimes: number[] = [];
  for (let turn = 0; turn < STEP_TURNS + 3; turn++) {
    const begin = performance.now();
    await plain.prompt('go').call().content();
    if (turn >= 3) plainTimes.push(performance.now() - begin);
  }
  const { url, drop } = await createCrashDatabase(databaseUrl as string, 'bench_steps');
  const worker = new DbosTurnWorker({
    systemDatabaseUrl: url,
    workerId: 'bench-steps',
    version: 'bench',
    queue: { pollingIntervalMs: 20 },
    logLevel: 'error',
  });
  worker.agent('rounds', overheadClient(ROUNDS));
  await worker.launch();
  const engine = await DBOSClient.create({ systemDatabaseUrl: url, applicationName: 'toolloop' });
  try {
    const durableTimes: number[] = [];
    let steps = 0;
    for (let turn = 0; turn < STEP_TURNS + 3; turn++) {
      const handle = await worker.client.start('rounds', { user: 'go' });
      const [status] = await statuses(engine, [handle.turnId]);
      if (turn < 3 || status === undefined) continue;
      durableTimes.push((status.completedAt ?? 0) - (status.dequeuedAt ?? status.createdAt));
      steps = (await engine.listWorkflowSteps(handle.turnId))?.length ?? 0;
    }
    return {
      plainMs: percentile(plainTimes, 0.5),
      durableMs: percentile(durableTimes, 0.5),
      steps,
    };
  } finally {
    await engine.destroy();
    await worker.shutdown();
    await drop();
  }
}

const load = loadavg()
  .map((value) => value.toFixed(1))
  .join(' / ');
progress('plain loop');
const results = [await plainLoop()];
for (const workers of [2, 4]) {
  progress(`durable, ${workers} workers`);
  results.push(await durable(workers));
}
progress('step cost');
const steps = await stepCost();
const plainResult = results[0] as Result;
const perStep = (steps.durableMs - steps.plainMs) / steps.steps;

console.log(`## Durable turns: throughput and latency

Workload: ${fmt(TURNS)} turns after ${WARM_UP} warm-up turns; each turn a zero-latency scripted model calls a no-op read-only tool once and then answers. The plain loop runs in this process with ${CONCURRENCY} turns in flight; the durable turns are started on one DBOS queue (\`toolloop/durable\`, a \`DbosTurnClient\` enqueueing 50 at a time) and run by worker processes on the same machine, each taking up to ${CONCURRENCY} turns at once (\`workerConcurrency\`), looking for queued turns every 50 ms; their latency is the engine's, from the turn's enqueue to its end. PostgreSQL 15 on loopback (\`synchronous_commit\` on), shared by the workers, the client and the system database. Load average at the start: ${load} (1 / 5 / 15 min, 2 cores, shared with other work: the processes compete for the same 2 cores).

${table(
  [
    'run',
    'turns / s',
    'p50 latency (ms)',
    'p99 latency (ms)',
    'p50 / p99 run, queue wait left out (ms)',
    'throughput ÷ plain loop',
  ],
  results.map((result) => [
    result.label,
    fmt(result.turnsPerSecond),
    fmt(result.p50),
    fmt(result.p99),
    result.runP50 === undefined
      ? '—'
      : `${fmt(result.runP50)} / ${fmt(result.runP99 ?? Number.NaN)}`,
    fmtRatio(result.turnsPerSecond / plainResult.turnsPerSecond),
  ]),
)}

The ${fmt(TURNS)} turns are enqueued at once, so a durable turn's latency is mostly its wait in the queue behind the others: the throughput is what the workers and the database can do, and the "run" column is a turn's own time once a worker has taken it.

Cost of a step: a ${ROUNDS}-round turn (${steps.steps} recorded steps: the version check, ${ROUNDS + 1} model calls, ${ROUNDS} tool calls, the end event and the stream's close) run one at a time takes ${fmt(steps.plainMs)} ms without durability and ${fmt(steps.durableMs)} ms as a durable turn (median of ${STEP_TURNS}), so **${fmt(perStep)} ms per checkpointed step**: a step reads whether it has a record, runs, and writes its record (one PostgreSQL transaction each). A non-idempotent tool call costs two steps (its start marker and its outcome). Against a real model call (hundreds of milliseconds) or a tool that calls an API, the checkpoints are a small share; against this zero-latency model they are all of the time.`);
