import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A system database of the test's own for durable turns, on the shared test PostgreSQL: named
 * `toolloop_durable_<label>_<random>`, so parallel test files and helpers never share one. DBOS
 * creates it on first use; {@link dropDurableDatabase} removes it.
 */
export function durableDatabaseUrl(baseUrl: string, label: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/toolloop_durable_${label}_${randomBytes(4).toString('hex')}`;
  return url.toString();
}

/** Drops the database of `url` (its connections closed first), when it exists. */
export async function dropDurableDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
