import type {
  ToolEmbeddingCache,
  ToolEmbeddingCacheEntry,
} from '../../embeddings/tool-embedding-cache.js';
import { IllegalStateError } from '../../errors/index.js';
import { quoteIdentifier } from '../sql-identifier.js';
import {
  assertCacheEntries,
  assertCacheKeys,
  chunks,
  vectorFromBytes,
  vectorToBytes,
} from '../tool-embedding-vector.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';

/** Options of {@link SqliteToolEmbeddingCache}. */
export interface SqliteToolEmbeddingCacheOptions {
  /** Your `better-sqlite3` database (`new Database('toolloop.db')`); the chat memory's may be it. */
  database: SqliteDatabase;
  /** Table name. Default `toolloop_tool_embeddings`. */
  tableName?: string;
}

interface Statements {
  /** Reads of n keys, by n. */
  read: Map<number, SqliteStatement>;
  insert: SqliteStatement;
}

/** Keys per statement (SQLite allows 32,766 bound values; a smaller piece keeps each quick). */
const KEYS_PER_READ = 500;

/**
 * Tool embeddings in SQLite through `better-sqlite3`, for the processes of one machine: one row
 * per key holding the vector's 32-bit floats as a BLOB. Writes are one transaction each; a key
 * written again takes the new vector, so an entry that was not a vector is repaired. The table is
 * created on first use.
 */
export class SqliteToolEmbeddingCache implements ToolEmbeddingCache {
  readonly database: SqliteDatabase;
  readonly tableName: string;
  readonly #table: string;
  #statements: Statements | undefined;

  /** @throws InvalidArgumentError for a table name that is not a plain identifier. */
  constructor(options: SqliteToolEmbeddingCacheOptions) {
    this.database = options.database;
    this.tableName = options.tableName ?? 'toolloop_tool_embeddings';
    this.#table = quoteIdentifier(this.tableName, 'tableName');
  }

  /** {@inheritDoc ToolEmbeddingCache.get} */
  async get(keys: readonly string[]): Promise<(Float32Array | undefined)[]> {
    assertCacheKeys(keys);
    const found = new Map<string, Float32Array>();
    for (const piece of chunks([...new Set(keys)], KEYS_PER_READ)) {
      const rows = this.#read(piece.length).all(...piece) as { key: string; vector: Uint8Array }[];
      for (const row of rows) {
        const vector = vectorFromBytes(row.vector);
        if (vector !== undefined) found.set(row.key, vector);
      }
    }
    return keys.map((key) => found.get(key));
  }

  /** {@inheritDoc ToolEmbeddingCache.set} */
  async set(entries: readonly ToolEmbeddingCacheEntry[]): Promise<void> {
    assertCacheEntries(entries);
    if (entries.length === 0) return;
    const { insert } = this.#prepared();
    // Only a transaction begun here is rolled back: one its owner began holds their work.
    if (this.database.inTransaction) {
      throw new IllegalStateError(
        'sqlite tool-embedding cache: the database connection is in a transaction it did not begin; nothing was written and that transaction was left open',
      );
    }
    this.database.exec('BEGIN IMMEDIATE');
    try {
      for (const entry of entries) insert.run(entry.key, vectorToBytes(entry.vector));
      this.database.exec('COMMIT');
    } catch (error) {
      if (this.database.inTransaction) this.database.exec('ROLLBACK');
      throw error;
    }
  }

  #read(count: number): SqliteStatement {
    const statements = this.#prepared();
    let read = statements.read.get(count);
    if (read === undefined) {
      read = this.database.prepare(
        `SELECT key, vector FROM ${this.#table} WHERE key IN (${new Array(count).fill('?').join(', ')})`,
      );
      // Only the full piece and a few tail sizes recur; keep a bounded set of statements.
      if (statements.read.size < 16) statements.read.set(count, read);
    }
    return read;
  }

  #prepared(): Statements {
    if (this.#statements !== undefined) return this.#statements;
    this.database.exec(
      `CREATE TABLE IF NOT EXISTS ${this.#table} (
        key TEXT PRIMARY KEY,
        vector BLOB NOT NULL
      ) WITHOUT ROWID`,
    );
    this.#statements = {
      read: new Map(),
      insert: this.database.prepare(
        `INSERT INTO ${this.#table} (key, vector) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET vector = excluded.vector`,
      ),
    };
    return this.#statements;
  }
}
