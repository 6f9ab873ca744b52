import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { DbosTurnClient, DurableTurnError } from '../durable/index.js';

/** What the durable-turn scenario showed. */
export interface DurableDemoResult {
  /** What each worker process said it did, in order. */
  firstWorker: string[];
  secondWorker: string[];
  /** The turns the second worker took over from the first. */
  recovered: string[];
  answer: string | null;
  /** Refunds in the payment ledger at the end (the tool honours its idempotency key). */
  refunds: number;
}

/** The line shown instead of the scenario when no PostgreSQL is configured. */
export const DURABLE_DEMO_NEEDS_POSTGRES =
  'Durable turns scenario skipped: it needs PostgreSQL. Set DATABASE_URL (npm start in a clone starts the test PostgreSQL with scripts/services.sh).';

/** The line shown instead of the scenario when DBOS is not installed. */
export const DURABLE_DEMO_NEEDS_DBOS =
  'Durable turns scenario skipped: it needs the optional package @dbos-inc/dbos-sdk (npm install @dbos-inc/dbos-sdk).';

/** Whether the optional DBOS package can be imported from where toolloop is installed. */
async function dbosInstalled(): Promise<boolean> {
  try {
    await import('@dbos-inc/dbos-sdk');
    return true;
  } catch {
    return false;
  }
}

/** A worker process of the scenario and the lines it printed. */
class DemoWorker {
  readonly lines: string[] = [];
  readonly #child: ChildProcess;
  readonly #waiters = new Set<(line: string) => void>();
  readonly exited: Promise<unknown>;

  constructor(env: Record<string, string>) {
    const script = fileURLToPath(new URL('./durable-demo-worker.js', import.meta.url));
    this.#child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    this.exited = new Promise((resolve) => this.#child.once('exit', resolve));
    createInterface({ input: this.#child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (line.startsWith('LOG ')) this.lines.push(line.slice(4));
      for (const waiter of this.#waiters) waiter(line);
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** The first line `matches` accepts; rejects when the process exits first. */
  line(matches: (line: string) => boolean): Promise<string> {
    return new Promise((resolve, reject) => {
      const waiter = (line: string) => {
        if (!matches(line)) return;
        this.#waiters.delete(waiter);
        resolve(line);
      };
      this.#waiters.add(waiter);
      void this.exited.then(() => reject(new Error('the demo worker exited')));
    });
  }

  send(line: string): void {
    this.#child.stdin?.write(`${line}\n`);
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill(signal);
    await this.exited;
  }
}

/**
 * Durable turns: a refund turn runs as a DBOS workflow in a worker process, which is killed
 * (SIGKILL) right after the refund reached the payment ledger and before that step's checkpoint;
 * a second worker process takes over the dead worker's turns and finishes it. Completed steps come
 * from their checkpoints (the model is not asked again, the order not looked up again); the refund
 * tool runs again with the same idempotency key, so the ledger keeps one refund. Needs PostgreSQL
 * (`databaseUrl`, else `DATABASE_URL`) and the optional package `@dbos-inc/dbos-sdk`; without them
 * it says so in one line and returns `undefined`.
 */
export async function runDurableDemo(
  log: (line: string) => void = console.log,
  databaseUrl: string | undefined = process.env.DATABASE_URL,
): Promise<DurableDemoResult | undefined> {
  if (databaseUrl === undefined || databaseUrl === '') {
    log(DURABLE_DEMO_NEEDS_POSTGRES);
    return undefined;
  }
  if (!(await dbosInstalled())) {
    log(DURABLE_DEMO_NEEDS_DBOS);
    return undefined;
  }
  // Loaded only here: the rest of the demo runs without the optional peer.
  const durable = await import('../durable/index.js');
  const systemDatabase = new URL(databaseUrl);
  systemDatabase.pathname = '/toolloop_durable_demo';
  const url = systemDatabase.toString();
  try {
    await durable.DbosTurnWorker.prepareDatabase(url);
  } catch (error) {
    // A DurableTurnError ('database-unreachable') names the server, never its credentials.
    log(`Durable turns scenario skipped: ${(error as DurableTurnError).message}`);
    return undefined;
  }
  const directory = mkdtempSync(join(tmpdir(), 'toolloop-durable-demo-'));
  const env = { DEMO_DATABASE_URL: url, DEMO_LEDGER: join(directory, 'ledger.jsonl') };
  const first = new DemoWorker({ ...env, DEMO_WORKER_ID: 'demo-worker-1' });
  let second: DemoWorker | undefined;
  const client: DbosTurnClient = await durable.DbosTurnClient.create({ systemDatabaseUrl: url });
  try {
    await first.line((line) => line === 'READY');
    log(`worker 1 (pid ${first.pid}) runs turns from the queue`);
    const turn = await client.start('refunds', { user: 'Refund order 42 and tell the customer.' });
    log(`turn ${turn.turnId} started: "Refund order 42 and tell the customer."`);
    await first.line((line) => line === 'MARK refund-recorded');
    await first.kill('SIGKILL');
    for (const line of first.lines) log(`  [worker 1] ${line}`);
    log('-- worker 1 killed (SIGKILL) after the refund, before its checkpoint --');

    second = new DemoWorker({ ...env, DEMO_WORKER_ID: 'demo-worker-2' });
    await second.line((line) => line === 'READY');
    second.send('RECOVER demo-worker-1');
    const recoveredLine = await second.line((line) => line.startsWith('RECOVERED'));
    const recovered = recoveredLine.slice('RECOVERED '.length).split(',').filter(Boolean);
    log(`worker 2 (pid ${second.pid}) takes over worker 1's turns: ${recovered.join(', ')}`);
    const answer = await turn.text({ timeoutMs: 60_000 });
    for (const line of second.lines) log(`  [worker 2] ${line}`);
    const refunds = readFileSync(env.DEMO_LEDGER, 'utf8').split('\n').filter(Boolean).length;
    log(
      'worker 2 asked the model only from round 3 on and did not look the order up again: rounds 1 and 2 came from their checkpoints',
    );
    log(`answer: ${answer}`);
    log(`payment ledger: ${refunds} refund${refunds === 1 ? '' : 's'}`);
    return {
      firstWorker: first.lines,
      secondWorker: second.lines,
      recovered,
      answer,
      refunds,
    };
  } finally {
    await client.close();
    await first.kill('SIGKILL');
    await second?.kill('SIGTERM');
    rmSync(directory, { recursive: true, force: true });
  }
}
