import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { withSessionTimeoutOption } from '../../../src/durable/session-timeout-url.js';
import { serviceUrl } from '../services.js';

const database = serviceUrl('DATABASE_URL');

describe.skipIf(database.skip)('the system database URL handed to DBOS', () => {
  it('gives every connection the idle-in-transaction timeout DBOS would set, with no query queued', async () => {
    const client = new pg.Client({
      connectionString: withSessionTimeoutOption(database.url as string),
    });
    await client.connect();
    try {
      const { rows } = await client.query<{ idle_in_transaction_session_timeout: string }>(
        'SHOW idle_in_transaction_session_timeout',
      );
      expect(rows[0]?.idle_in_transaction_session_timeout).toBe('1min');
    } finally {
      await client.end();
    }
  });
});
