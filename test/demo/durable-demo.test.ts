import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../package/packed-package.js';

// The scenario starts worker processes from the built demo (as the installed `toolloop demo`
// does): npm test builds dist first.
const built = join(projectRoot, 'dist', 'demo', 'durable-demo.js');
const databaseUrl = process.env.DATABASE_URL;

describe('the durable-turn scenario of the demo', () => {
  it.runIf((existsSync(built) && databaseUrl) || process.env.CI)(
    'kills the worker after the refund, before its checkpoint; a second worker finishes the turn with one refund',
    async () => {
      const { runDurableDemo } = (await import(
        built
      )) as typeof import('../../src/demo/durable-demo.js');
      const lines: string[] = [];
      const result = await runDurableDemo((line) => lines.push(line), databaseUrl);
      expect(result?.answer).toBe('Order 42 is refunded (30 EUR) and the customer has been told.');
      expect(result?.refunds).toBe(1);
      expect(result?.recovered).toHaveLength(1);
      expect(result?.firstWorker).toEqual([
        'model call: look the order up',
        'lookup_order(42)',
        'model call: refund it',
        expect.stringMatching(/^issue_refund: R-1 written to the payment ledger with key /),
      ]);
      // Rounds 1 and 2 come from their checkpoints: the second worker starts at the refund.
      expect(result?.secondWorker[0]).toMatch(
        /^issue_refund: the payment API already has key .*: it returns R-1, no second refund$/,
      );
      expect(result?.secondWorker.slice(1)).toEqual([
        'model call: tell the customer',
        'email_customer(42)',
        'model call: answer',
      ]);
      expect(lines).toContain(
        '-- worker 1 killed (SIGKILL) after the refund, before its checkpoint --',
      );
    },
    120_000,
  );

  it('says in one line what it needs when no PostgreSQL is configured', async () => {
    const { runDurableDemo, DURABLE_DEMO_NEEDS_POSTGRES } = await import(
      '../../src/demo/durable-demo.js'
    );
    const lines: string[] = [];
    expect(await runDurableDemo((line) => lines.push(line), '')).toBeUndefined();
    expect(lines).toEqual([DURABLE_DEMO_NEEDS_POSTGRES]);
  });
});
