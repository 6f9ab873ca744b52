import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbosTurnClient } from '../../../src/durable/index.js';
import { approveToolCall } from '../../../src/index.js';
// @ts-expect-error: a plain JavaScript harness shared with bench/durable-crash.ts
import { createCrashDatabase, WorkerProcess } from '../fixtures/durable-crash/harness.mjs';
import { serviceUrl } from '../services.js';

const database = serviceUrl('DATABASE_URL');
const built = existsSync(fileURLToPath(new URL('../../../dist/durable/index.js', import.meta.url)));

interface Worker {
  ready: Promise<void>;
  lines: string[];
  send(line: string): void;
  waitForLine(matches: (line: string) => boolean): Promise<string>;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** The most spans open at one time. */
function maxOverlap(spans: readonly { started_at: Date; ended_at: Date }[]): number {
  const edges = spans.flatMap((span) => [
    { at: span.started_at.getTime(), step: 1 },
    { at: span.ended_at.getTime(), step: -1 },
  ]);
  edges.sort((left, right) => left.at - right.at || left.step - right.step);
  let open = 0;
  let most = 0;
  for (const edge of edges) {
    open += edge.step;
    most = Math.max(most, open);
  }
  return most;
}

describe.runIf(!database.skip && (built || process.env.CI))(
  'durable turns over several worker processes',
  () => {
    let url: string;
    let drop: () => Promise<void>;
    let client: DbosTurnClient;
    let effects: pg.Pool;
    const workers: Worker[] = [];
    /** Stops every worker started so far: each test has the queue to its own workers. */
    const stopAll = async () => {
      for (const worker of workers.splice(0)) await worker.stop();
    };
    const start = (id: string, env: Record<string, string> = {}): Worker => {
      const worker = new WorkerProcess(url, id, env) as Worker;
      workers.push(worker);
      return worker;
    };

    beforeAll(async () => {
      ({ url, drop } = await createCrashDatabase(database.url, 'workers'));
      effects = new pg.Pool({ connectionString: url, max: 2 });
      // The first worker creates the system tables; the client needs them.
      const first = start('queue-a', { WORKER_CONCURRENCY: '2', GLOBAL_CONCURRENCY: '3' });
      await first.ready;
      client = await DbosTurnClient.create({ systemDatabaseUrl: url });
    }, 60_000);

    afterAll(async () => {
      await client?.close();
      for (const worker of workers) await worker.stop();
      await effects?.end();
      await drop?.();
    }, 60_000);

    it('spreads queued turns over two workers, within the per-worker and the global limit', async () => {
      await start('queue-b', { WORKER_CONCURRENCY: '2', GLOBAL_CONCURRENCY: '3' }).ready;
      const turns = await Promise.all(
        Array.from({ length: 9 }, () => client.start('packing', { user: 'Pack order 9' })),
      );
      for (const turn of turns) {
        expect(await turn.text({ timeoutMs: 60_000 })).toBe('Packed: pack_order="packed order 9"');
      }
      const { rows } = await effects.query<{ worker_id: string; started_at: Date; ended_at: Date }>(
        'SELECT worker_id, started_at, ended_at FROM crash_spans',
      );
      expect(rows).toHaveLength(9);
      const byWorker = new Map<string, typeof rows>();
      for (const row of rows)
        byWorker.set(row.worker_id, [...(byWorker.get(row.worker_id) ?? []), row]);
      expect([...byWorker.keys()].sort()).toEqual(['queue-a', 'queue-b']);
      expect(maxOverlap(rows)).toBeLessThanOrEqual(3);
      expect(maxOverlap(rows)).toBeGreaterThan(1);
      for (const spans of byWorker.values()) expect(maxOverlap(spans)).toBeLessThanOrEqual(2);
    }, 120_000);

    it('finishes a parked turn of a dead worker on another worker, with the decision sent meanwhile', async () => {
      await stopAll();
      const a = start('failover-a');
      const b = start('failover-b');
      await Promise.all([a.ready, b.ready]);
      const turn = await client.start('checkout', {
        user: 'Check out order 42',
        conversationId: 'failover',
      });
      const waiting = await turn.waitingApproval({ waitMs: 30_000 });
      expect(waiting).toBeDefined();
      const holder = workers.find((worker) => worker.lines.some((line) => line === 'MARK model 2'));
      const [dead, alive] = holder === b ? [b, a] : [a, b];
      const deadId = dead === a ? 'failover-a' : 'failover-b';
      await dead.kill();
      // The decision is sent while no worker runs the turn: it waits in the database.
      const pending = waiting?.pending as NonNullable<typeof waiting>['pending'];
      await client.decide(
        pending,
        pending.toolCalls.map((call) => approveToolCall(call)),
      );
      alive.send(`RECOVER ${deadId}`);
      expect(await alive.waitForLine((line) => line.startsWith('RECOVERED '))).toBe(
        `RECOVERED ${turn.turnId}`,
      );
      expect(await turn.text({ timeoutMs: 60_000 })).toMatch(/^Checked out\. .*warehouse notified/);
      const { rows } = await effects.query(
        'SELECT count(*)::int AS n FROM crash_charges WHERE turn_id = $1',
        [turn.turnId],
      );
      expect(rows[0].n).toBe(1);
    }, 120_000);

    it('refuses a turn started by another code version, naming both, and leaves it to a worker of that version', async () => {
      await stopAll();
      const v2 = start('versioned', { TURN_VERSION: '2' });
      await v2.ready;
      const turn = await client.start('checkout', {
        user: 'Check out order 42',
        conversationId: 'versions',
      });
      const waiting = await turn.waitingApproval({ waitMs: 30_000 });
      await v2.kill();

      const v1 = start('versioned', { TURN_VERSION: '1' });
      await v1.ready;
      expect(v1.lines).toContain(
        `PROBLEM version-mismatch Turn ${turn.turnId} was started by version 2, and this worker runs version 1: it is not replayed here (its steps could differ). A worker of version 2 finishes it.`,
      );
      const pending = waiting?.pending as NonNullable<typeof waiting>['pending'];
      await client.decide(
        pending,
        pending.toolCalls.map((call) => approveToolCall(call)),
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await turn.status()).toBe('running');
      await v1.stop();

      await start('versioned', { TURN_VERSION: '2' }).ready;
      expect(await turn.text({ timeoutMs: 60_000 })).toMatch(/^Checked out\./);
    }, 120_000);
  },
);
