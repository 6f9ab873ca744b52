import type {
  ToolEmbeddingCache,
  ToolEmbeddingCacheEntry,
} from '../../embeddings/tool-embedding-cache.js';
import { quoteIdentifier } from '../sql-identifier.js';
import {
  assertCacheEntries,
  assertCacheKeys,
  chunks,
  vectorFromBytes,
  vectorToBytes,
} from '../tool-embedding-vector.js';
import type { PostgresQueryable } from './postgres-client.js';

/** Options of {@link PostgresToolEmbeddingCache}. */
export interface PostgresToolEmbeddingCacheOptions {
  /** Your `pg` `Pool` (or one `Client`); the chat memory's may be it. */
  pool: PostgresQueryable;
  /** Schema of the table. Default `public`. */
  schema?: string;
  /** Table name. Default `toolloop_tool_embeddings`. */
  tableName?: string;
  /** Create the table on first use (default true); false when you run {@link postgresToolEmbeddingCacheMigration} yourself. */
  autoMigrate?: boolean;
}

/** Keys per statement. */
const KEYS_PER_QUERY = 1000;

/** PostgreSQL's codes for a table (or its row type) created by a concurrent `CREATE TABLE`. */
const ALREADY_CREATED = new Set(['23505', '42P07']);

/**
 * The migration SQL of the PostgreSQL tool-embedding cache (idempotent), for your migration tool:
 * one row per key, the vector's 32-bit floats (little-endian) as `bytea`.
 */
export function postgresToolEmbeddingCacheMigration(
  options: Pick<PostgresToolEmbeddingCacheOptions, 'schema' | 'tableName'> = {},
): string {
  const schema = quoteIdentifier(options.schema ?? 'public', 'schema');
  const table = `${schema}.${quoteIdentifier(options.tableName ?? 'toolloop_tool_embeddings', 'tableName')}`;
  return `CREATE SCHEMA IF NOT EXISTS ${schema};
CREATE TABLE IF NOT EXISTS ${table} (
  key text PRIMARY KEY,
  vector bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
`;
}

/**
 * Tool embeddings in PostgreSQL through `pg`, shared by every process that reaches the database:
 * one row per key. A read is one `= ANY($1)` query per 1,000 keys, a write one `INSERT … SELECT
 * unnest(…) ON CONFLICT DO UPDATE`: a key written again takes the new vector, so an entry
 * that was not a vector (written by another program) is repaired. Keys and vectors are always
 * bound parameters. The table is created on first use unless `autoMigrate` is false.
 */
export class PostgresToolEmbeddingCache implements ToolEmbeddingCache {
  readonly #pool: PostgresQueryable;
  readonly #table: string;
  readonly #migration: string;
  readonly #autoMigrate: boolean;
  #ready: Promise<void> | undefined;

  /** @throws InvalidArgumentError for a schema or table name that is not a plain identifier. */
  constructor(options: PostgresToolEmbeddingCacheOptions) {
    const schema = quoteIdentifier(options.schema ?? 'public', 'schema');
    this.#table = `${schema}.${quoteIdentifier(options.tableName ?? 'toolloop_tool_embeddings', 'tableName')}`;
    this.#migration = postgresToolEmbeddingCacheMigration(options);
    this.#pool = options.pool;
    this.#autoMigrate = options.autoMigrate ?? true;
  }

  /** {@inheritDoc ToolEmbeddingCache.get} */
  async get(keys: readonly string[]): Promise<(Float32Array | undefined)[]> {
    assertCacheKeys(keys);
    await this.#migrated();
    const found = new Map<string, Float32Array>();
    for (const piece of chunks([...new Set(keys)], KEYS_PER_QUERY)) {
      const result = await this.#pool.query(
        `SELECT key, vector FROM ${this.#table} WHERE key = ANY($1::text[])`,
        [piece],
      );
      for (const row of result.rows) {
        const vector = vectorFromBytes(row.vector as Uint8Array);
        if (vector !== undefined) found.set(String(row.key), vector);
      }
    }
    return keys.map((key) => found.get(key));
  }

  /** {@inheritDoc ToolEmbeddingCache.set} */
  async set(entries: readonly ToolEmbeddingCacheEntry[]): Promise<void> {
    assertCacheEntries(entries);
    await this.#migrated();
    // One row per key: a statement that updates a row twice fails. The last entry of a key wins.
    const latest = [...new Map(entries.map((entry) => [entry.key, entry])).values()];
    for (const piece of chunks(latest, KEYS_PER_QUERY)) {
      await this.#pool.query(
        `INSERT INTO ${this.#table} (key, vector)
         SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (key) DO UPDATE SET vector = excluded.vector`,
        [piece.map((entry) => entry.key), piece.map((entry) => vectorToBytes(entry.vector))],
      );
    }
  }

  /** Creates the table once, on first use; a failed attempt is tried again on the next call. */
  #migrated(): Promise<void> {
    if (!this.#autoMigrate) return Promise.resolve();
    this.#ready ??= this.#pool.query(this.#migration).then(
      () => undefined,
      (error: unknown) => {
        if (ALREADY_CREATED.has((error as { code?: string })?.code ?? '')) return;
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }
}
