import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript harness shared with bench/durable-crash.ts
import { runCrashSuite } from '../fixtures/durable-crash/harness.mjs';
import { serviceUrl } from '../services.js';

const database = serviceUrl('DATABASE_URL');
const built = existsSync(fileURLToPath(new URL('../../../dist/durable/index.js', import.meta.url)));
if (!built && !process.env.CI) {
  console.warn('[toolloop] dist/ is missing: skipping the durable crash tests (npm run build)');
}

/**
 * The fast subset of the crash suite (the full one, 200+ kills, is bench/durable-crash.ts): 24
 * runs of a four-round checkout turn, each killing its worker process with SIGKILL at a point of
 * the turn (during a model call, between a tool's effect and its checkpoint, during the approval
 * wait, at any moment), then starting the worker again with its id.
 */
describe.runIf(!database.skip && (built || process.env.CI))('durable turns under SIGKILL', () => {
  it('loses no turn, changes no answer, repeats no effect of a tool that honours its key', async () => {
    const lines: string[] = [];
    const result = await runCrashSuite({
      baseUrl: database.url,
      runs: 24,
      lanes: 3,
      seed: 7,
      log: (line: string) => lines.push(line),
    });
    expect(result.failures, lines.join('\n')).toEqual([]);
    expect(result.runs).toBe(24);
    expect(result.kills).toBeGreaterThanOrEqual(20);
    for (const point of ['model', 'effect', 'approval']) {
      expect(result.killsByPoint[point]).toBeGreaterThan(0);
    }
    expect(result.lost).toBe(0);
    expect(result.differentAnswers).toBe(0);
    expect(result.duplicateCharges).toBe(0);
    expect(result.duplicateNotices).toBe(0);
    expect(result.memoryWrong).toBe(0);
    expect(result.streamReadersIncomplete).toBe(0);
    // A tool that ignores its key but is marked idempotent may run twice: counted, never more
    // than once per kill.
    expect(result.duplicateReceipts).toBeLessThanOrEqual(
      result.killsByPoint.effect + result.killsByPoint.anytime,
    );
  }, 300_000);
});
