import { loadavg } from 'node:os';
import { check, count, fmt, progress, table } from './lib/harness.js';

/**
 * Durable turns under SIGKILL (the full count; `npm test` runs 24 of these runs): worker processes
 * running a four-round checkout turn (look up, charge after approval, receipt and warehouse notice
 * at once, answer; memory outside the loop on PostgreSQL, half the runs streamed to a reader that
 * loses its connection at the kill) are killed at a random point of the turn, then started again
 * with their id. The harness and the worker are test/integration/fixtures/durable-crash/.
 */

const RUNS = count(240, 2);
const LANES = count(4, 1);

interface CrashTotals {
  runs: number;
  kills: number;
  killsByPoint: Record<string, number>;
  streamRuns: number;
  lost: number;
  differentAnswers: number;
  duplicateCharges: number;
  duplicateReceipts: number;
  duplicateNotices: number;
  chargeReruns: number;
  receiptReruns: number;
  unknownOutcomesAsked: number;
  memoryWrong: number;
  streamReadersIncomplete: number;
  roundsStreamedAgain: number;
  failures: string[];
  durationMs: number;
}

const databaseUrl = process.env.DATABASE_URL;
check(databaseUrl !== undefined, 'DATABASE_URL is not set (eval "$(bash scripts/services.sh)")');
const harness = new URL(
  '../../test/integration/fixtures/durable-crash/harness.mjs',
  import.meta.url,
);
const { runCrashSuite } = (await import(harness.href)) as {
  runCrashSuite(options: {
    baseUrl: string;
    runs: number;
    lanes: number;
    seed: number;
    log: (line: string) => void;
  }): Promise<CrashTotals>;
};
const load = loadavg()
  .map((value) => value.toFixed(1))
  .join(' / ');
progress(`${RUNS} crash runs over ${LANES} lanes`);
const totals = await runCrashSuite({
  baseUrl: databaseUrl,
  runs: RUNS,
  lanes: LANES,
  seed: 20_261_201,
  log: (line) => progress(line),
});
check(totals.failures.length === 0, `crash runs failed:\n${totals.failures.join('\n')}`);

const row = (label: string, value: number, goal: string) => [label, fmt(value), goal];
console.log(`## Durable turns: crash tests

Workload: ${totals.runs} runs of a four-round checkout turn on DBOS (\`toolloop/durable\`), ${LANES} lanes at once, each lane its own system database and worker process. Round 1 looks the order up (\`readOnly\`); round 2 charges the card (\`needsApproval\`, \`idempotent\`, and it passes \`ToolContext.idempotencyKey\` to the "payment API", a table with the key as its primary key); round 3 sends the receipt (marked \`idempotent\` but ignoring the key) and notifies the warehouse (not idempotent, policy \`'ask-caller'\`: the harness answers as an operator would, by looking the notice up) at once; round 4 answers with every tool result. Memory sits outside the loop (PostgreSQL store). Model calls take 120 ms, tools wait 120 ms between their effect and their return. Each run's worker is SIGKILLed at one point, in turn: during a model call (a random round, a random moment of it), between a tool's effect and its checkpoint (a random tool), while the turn waits for approval (half of those decisions are sent while no worker runs), or at a random moment; then a worker starts again with the same id and recovers the turn. Odd runs stream: a reader follows the turn's events, loses its connection at the kill and reads on from its last offset. Load average at the start: ${load} (1 / 5 / 15 min, 2 cores shared with other work). ${fmt(totals.durationMs / 1000)} s in all.

${table(
  ['measure', 'count', 'goal'],
  [
    row('runs', totals.runs, ''),
    row('worker processes SIGKILLed', totals.kills, '≥ 200'),
    row('… during a model call', totals.killsByPoint.model ?? 0, ''),
    row("… between a tool's effect and its checkpoint", totals.killsByPoint.effect ?? 0, ''),
    row('… during the approval wait', totals.killsByPoint.approval ?? 0, ''),
    row('… at a random moment', totals.killsByPoint.anytime ?? 0, ''),
    row('turns lost (not finished within 60 s of the restart)', totals.lost, '0'),
    row('final answers that differ from the uninterrupted run', totals.differentAnswers, '0'),
    row('duplicate charges (the tool honours the idempotency key)', totals.duplicateCharges, '0'),
    row(
      'charge calls run again after a kill (deduplicated by the key)',
      totals.chargeReruns,
      'reported',
    ),
    row(
      'duplicate receipts (marked idempotent, ignores the key)',
      totals.duplicateReceipts,
      'reported',
    ),
    row(
      'duplicate warehouse notices (not idempotent, outcome asked about)',
      totals.duplicateNotices,
      '0',
    ),
    row('unknown outcomes asked about', totals.unknownOutcomesAsked, 'reported'),
    row('conversations whose memory is not exactly the turn', totals.memoryWrong, '0'),
    row(
      'stream readers that missed the end after reconnecting',
      totals.streamReadersIncomplete,
      '0',
    ),
    row(
      'rounds streamed again after a kill (a second `round` event)',
      totals.roundsStreamedAgain,
      'reported',
    ),
  ],
)}

A tool that honours the key had no second effect; a tool that ignores it and is marked \`idempotent\` anyway repeated its effect ${totals.duplicateReceipts} times in ${totals.killsByPoint.effect ?? 0} kills between an effect and its checkpoint (and ${totals.killsByPoint.anytime ?? 0} at a random moment): that is what the docs promise for such tools, at most one repeat per crash in that window.`);
