import { InvalidArgumentError, MemoryError } from '../../errors/index.js';
import { delay } from '../../internal/long-timeout.js';
import { checkUsedToken, USED_TOKEN_GRACE_MS } from '../../internal/used-token-set.js';
import type { Message } from '../../messages/index.js';
import type { AppendOptions, ChatMemoryRepository } from '../chat-memory-repository.js';
import { assertConversationId, assertMessages } from '../conversation-id.js';
import { decodeSafeText, encodeSafeText } from '../safe-text.js';
import { quoteIdentifier } from '../sql-identifier.js';
import { runStoreOperation } from '../store-operation.js';
import { assertStorableMedia, mediaLimitOption } from '../stored-media-limit.js';
import { parseStoredMessage, serializeMessages } from '../stored-message.js';
import type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';

/** Options of {@link SqliteChatMemoryRepository}. */
export interface SqliteChatMemoryRepositoryOptions {
  /** Your `better-sqlite3` database (`new Database('chat.db')`). */
  database: SqliteDatabase;
  /** Table name. Default `toolloop_chat_memory`. */
  tableName?: string;
  /**
   * `PRAGMA synchronous`. `'FULL'` (default) makes every acknowledged append survive a power loss;
   * `'NORMAL'` in WAL mode survives a process crash but may lose the last commits on power loss.
   * `null` leaves the database's setting alone.
   */
  synchronous?: 'FULL' | 'NORMAL' | 'EXTRA' | null;
  /** Switch the database to WAL journaling (default true; ignored for in-memory databases). */
  wal?: boolean;
  /**
   * How long an operation waits, in milliseconds, while another connection or process holds the
   * database's write lock, before it fails with a `MemoryError` (outcome `'unchanged'`). The wait
   * is asynchronous: SQLite is asked once per attempt without sleeping, and attempts are retried
   * on a timer, so the event loop is never blocked by the lock. Default
   * {@link SqliteChatMemoryRepository.DEFAULT_BUSY_TIMEOUT_MS} (2,000 ms; better-sqlite3's own
   * busy timeout, which this replaces during each operation, blocks the event loop for up to
   * 5,000 ms).
   */
  busyTimeoutMs?: number;
  /**
   * Most inline media (tool result images, audio, files, as base64) one message may hold; a
   * message over it fails the write with a `MemoryError` and nothing is written. Default 16 MiB.
   */
  maxMediaBytes?: number;
}

interface Statements {
  ids: SqliteStatement;
  readWithSeq: SqliteStatement;
  maxSeq: SqliteStatement;
  insert: SqliteStatement;
  deleteAll: SqliteStatement;
  deleteOne: SqliteStatement;
}

const BACKEND = 'sqlite';

interface StoredRow {
  seq: number;
  message: unknown;
}

function parseRows(conversationId: string, rows: readonly StoredRow[]): Message[] {
  return rows.map((row, index) =>
    parseStoredMessage(row.message, {
      backend: BACKEND,
      conversationId,
      row: index + 1,
      seq: row.seq,
    }),
  );
}

/**
 * Chat memory in SQLite through `better-sqlite3`: the embedded default for conversations that must
 * survive a restart. One row per message with an explicit per-conversation sequence, JSON text
 * holding the message exactly. Every write is one `BEGIN IMMEDIATE` transaction, so appends from
 * several connections or processes on the same file never interleave or get lost. The table is
 * created on first use.
 *
 * Event loop: `better-sqlite3` is synchronous, so each operation runs on the event loop (a few
 * milliseconds for a turn). When another connection or process holds the write lock, the
 * operation does not sleep in SQLite's busy handler (which would stop every other request of the
 * process): it fails at once inside SQLite, and the repository retries on a timer until
 * `busyTimeoutMs` (default 2,000 ms) has passed, then throws a `MemoryError` with the conversation
 * unchanged. Serve many concurrent writers across processes, or large conversations, from Redis or
 * PostgreSQL, whose drivers never block the event loop.
 */
export class SqliteChatMemoryRepository implements ChatMemoryRepository {
  /** Default {@link SqliteChatMemoryRepositoryOptions.busyTimeoutMs}: 2,000 ms. */
  static readonly DEFAULT_BUSY_TIMEOUT_MS = 2_000;
  readonly database: SqliteDatabase;
  readonly tableName: string;
  /** How long an operation waits for another connection's write lock (see the options). */
  readonly busyTimeoutMs: number;
  readonly #table: string;
  readonly #synchronous: SqliteChatMemoryRepositoryOptions['synchronous'];
  readonly #wal: boolean;
  #statements: Statements | undefined;
  #tokenStatements: { take: SqliteStatement; prune: SqliteStatement } | undefined;
  /** Reads the connection's own busy timeout, put back after each operation. */
  #busyTimeout: (() => unknown) | undefined;

  readonly #maxMediaBytes: number;

  constructor(options: SqliteChatMemoryRepositoryOptions) {
    this.database = options.database;
    this.#maxMediaBytes = mediaLimitOption(options.maxMediaBytes);
    this.tableName = options.tableName ?? 'toolloop_chat_memory';
    this.#table = quoteIdentifier(this.tableName, 'tableName');
    this.#synchronous = options.synchronous === undefined ? 'FULL' : options.synchronous;
    this.#wal = options.wal ?? true;
    const busyTimeoutMs =
      options.busyTimeoutMs ?? SqliteChatMemoryRepository.DEFAULT_BUSY_TIMEOUT_MS;
    if (typeof busyTimeoutMs !== 'number' || !(busyTimeoutMs >= 0)) {
      throw new InvalidArgumentError(
        'busyTimeoutMs must be a number of milliseconds of at least 0',
      );
    }
    this.busyTimeoutMs = busyTimeoutMs;
  }

  /** Creates the table when missing and applies the pragmas; runs by itself on first use. */
  initialize(): void {
    this.#prepared();
  }

  async findConversationIds(): Promise<string[]> {
    return this.#run({ operation: 'findConversationIds' }, (statements) =>
      (statements.ids.all() as { conversation_id: string }[]).map((row) =>
        decodeSafeText(row.conversation_id),
      ),
    );
  }

  async findByConversationId(conversationId: string): Promise<Message[]> {
    assertConversationId(conversationId);
    return this.#run({ operation: 'read', conversationId }, (statements) =>
      parseRows(
        conversationId,
        statements.readWithSeq.all(encodeSafeText(conversationId)) as StoredRow[],
      ),
    );
  }

  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    assertStorableMedia(messages, BACKEND, conversationId, this.#maxMediaBytes);
    const rows = serializeMessages(messages, BACKEND, conversationId);
    await this.#run(
      { operation: 'saveAll', conversationId },
      (statements) => {
        const key = encodeSafeText(conversationId);
        statements.deleteAll.run(key);
        rows.forEach((row, index) => {
          statements.insert.run(key, index + 1, row);
        });
      },
      true,
    );
  }

  async deleteByConversationId(conversationId: string): Promise<void> {
    assertConversationId(conversationId);
    await this.#run(
      { operation: 'delete', conversationId },
      (statements) => {
        statements.deleteAll.run(encodeSafeText(conversationId));
      },
      true,
    );
  }

  async append(
    conversationId: string,
    messages: readonly Message[],
    options: AppendOptions = {},
  ): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    assertStorableMedia(messages, BACKEND, conversationId, this.#maxMediaBytes);
    const rows = serializeMessages(messages, BACKEND, conversationId);
    if (rows.length === 0 && !options.retain) return;
    await this.#run(
      { operation: 'append', conversationId },
      (statements) => {
        const key = encodeSafeText(conversationId);
        const [max] = statements.maxSeq.all(key) as { seq: number | null }[];
        const start = (max?.seq ?? 0) + 1;
        rows.forEach((row, index) => {
          statements.insert.run(key, start + index, row);
        });
        const retain = options.retain;
        if (!retain) return;
        const stored = statements.readWithSeq.all(key) as StoredRow[];
        const appendedFrom = stored.findIndex((row) => row.seq >= start);
        const keep = new Set(
          retain(
            parseRows(conversationId, stored),
            appendedFrom === -1 ? stored.length : appendedFrom,
          ),
        );
        stored.forEach((row, index) => {
          if (!keep.has(index)) statements.deleteOne.run(key, row.seq);
        });
      },
      true,
    );
  }

  /**
   * Runs one operation as a store operation, waiting for another connection's lock without
   * blocking: each attempt runs with SQLite's busy timeout at 0 (the connection's own value is put
   * back after it), and an attempt that finds the database locked (nothing was done: a failed
   * transaction is rolled back) is tried again on a timer, for at most `busyTimeoutMs`. With
   * `transaction`, each attempt is one `BEGIN IMMEDIATE` transaction.
   */
  #run<T>(
    operation: { operation: string; conversationId?: string },
    work: (statements: Statements) => T,
    transaction = false,
  ): Promise<T> {
    return runStoreOperation(
      {
        backend: BACKEND,
        operation: operation.operation,
        conversationId: operation.conversationId,
      },
      () => {
        // The first attempt runs at once; only a locked database goes on to wait on a timer.
        const started = performance.now();
        try {
          return this.#attempt(operation, work, transaction);
        } catch (error) {
          if (!isBusy(error)) throw error;
          return this.#retry(operation, work, transaction, started + this.busyTimeoutMs, error);
        }
      },
    );
  }

  async #retry<T>(
    operation: { operation: string; conversationId?: string },
    work: (statements: Statements) => T,
    transaction: boolean,
    deadline: number,
    busy: unknown,
  ): Promise<T> {
    let error = busy;
    for (let attempt = 0; ; attempt++) {
      const left = deadline - performance.now();
      if (left <= 0) throw this.#lockedError(operation, error);
      await delay(Math.min(left, 2 ** Math.min(attempt, 5)));
      try {
        return this.#attempt(operation, work, transaction);
      } catch (failure) {
        if (!isBusy(failure)) throw failure;
        error = failure;
      }
    }
  }

  /**
   * One attempt, with the connection's busy timeout at 0 while it runs. The connection's own
   * timeout is read every time (the database is the caller's, who may change it between
   * operations), and switching it costs more than the rest of a small append. So in a transaction
   * the switch rides in the `exec` calls it makes anyway (`PRAGMA busy_timeout = 0; BEGIN
   * IMMEDIATE`, then `COMMIT; PRAGMA busy_timeout = <own>`) rather than in statements of its own,
   * and it is skipped when the timeout already is 0. The first attempt creates the table, with the
   * timeout at 0 as well. Whatever fails, the timeout is put back before the error leaves, and
   * only a transaction this attempt began is rolled back: a connection already in one (its
   * owner's) is refused before anything is sent.
   */
  #attempt<T>(
    operation: { operation: string; conversationId?: string },
    work: (statements: Statements) => T,
    transaction: boolean,
  ): T {
    const database = this.database;
    if (transaction && database.inTransaction) throw inOwnerTransaction(operation);
    this.#busyTimeout ??= busyTimeoutReader(database);
    const own = Math.max(0, Math.trunc(Number(this.#busyTimeout()) || 0));
    let off = own === 0;
    let restored = off;
    let began = false;
    try {
      if (!off && (!transaction || this.#statements === undefined)) {
        database.exec('PRAGMA busy_timeout = 0');
        off = true;
      }
      const statements = this.#prepared();
      if (!transaction) return work(statements);
      database.exec(off ? 'BEGIN IMMEDIATE' : 'PRAGMA busy_timeout = 0; BEGIN IMMEDIATE');
      began = database.inTransaction;
      const result = work(statements);
      database.exec(restored ? 'COMMIT' : `COMMIT; PRAGMA busy_timeout = ${own}`);
      restored = true;
      return result;
    } catch (error) {
      if (began && database.inTransaction) database.exec('ROLLBACK');
      throw error;
    } finally {
      if (!restored) database.exec(`PRAGMA busy_timeout = ${own}`);
    }
  }

  #lockedError(
    operation: { operation: string; conversationId?: string },
    cause: unknown,
  ): MemoryError {
    return new MemoryError({
      backend: BACKEND,
      conversationId: operation.conversationId,
      outcome: 'unchanged',
      message: `sqlite chat memory ${operation.operation} failed: the database stayed locked by another connection for ${this.busyTimeoutMs} ms (busyTimeoutMs); the conversation is unchanged`,
      cause,
    });
  }

  /**
   * Marks the single-use token of a pending approval state used, so this repository can serve as
   * `approval.tokenStore`: true the first time, false after, for every connection and process on
   * the file (one upsert statement, atomic). Tokens live in `<tableName>_approval_tokens`, created
   * on first use, and are forgotten an hour after their state's expiry.
   */
  async consumeApprovalToken(token: string, expiresAt: Date): Promise<boolean> {
    checkUsedToken(token, expiresAt);
    const forgetAt = expiresAt.getTime() + USED_TOKEN_GRACE_MS;
    // In a transaction of its own: inside the connection owner's, their rollback would undo the
    // taking and let the single-use token be used again; such a connection is refused.
    return this.#run(
      { operation: 'consumeApprovalToken' },
      () => {
        const statements = this.#preparedTokens();
        const now = Date.now();
        const taken = statements.take.all(token, forgetAt, now).length === 1;
        statements.prune.run(now);
        return taken;
      },
      true,
    );
  }

  #preparedTokens(): { take: SqliteStatement; prune: SqliteStatement } {
    if (this.#tokenStatements) return this.#tokenStatements;
    const database = this.database;
    this.#prepared();
    const tokens = quoteIdentifier(`${this.tableName}_approval_tokens`, 'tableName');
    database.exec(
      `CREATE TABLE IF NOT EXISTS ${tokens} (token TEXT PRIMARY KEY, forget_at INTEGER NOT NULL) WITHOUT ROWID`,
    );
    this.#tokenStatements = {
      // A token whose time is over may be taken again: its state is refused as expired anyway.
      take: database.prepare(
        `INSERT INTO ${tokens} (token, forget_at) VALUES (?, ?)
         ON CONFLICT (token) DO UPDATE SET forget_at = excluded.forget_at
         WHERE ${tokens}.forget_at <= ? RETURNING token`,
      ),
      prune: database.prepare(`DELETE FROM ${tokens} WHERE forget_at <= ?`),
    };
    return this.#tokenStatements;
  }

  #prepared(): Statements {
    if (this.#statements) return this.#statements;
    const database = this.database;
    if (this.#wal) database.pragma('journal_mode = WAL');
    if (this.#synchronous) database.pragma(`synchronous = ${this.#synchronous}`);
    const table = this.#table;
    database.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (
        conversation_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (conversation_id, seq)
      ) WITHOUT ROWID`,
    );
    this.#statements = {
      ids: database.prepare(`SELECT DISTINCT conversation_id FROM ${table}`),
      readWithSeq: database.prepare(
        `SELECT seq, message FROM ${table} WHERE conversation_id = ? ORDER BY seq`,
      ),
      maxSeq: database.prepare(`SELECT MAX(seq) AS seq FROM ${table} WHERE conversation_id = ?`),
      insert: database.prepare(
        `INSERT INTO ${table} (conversation_id, seq, message) VALUES (?, ?, ?)`,
      ),
      deleteAll: database.prepare(`DELETE FROM ${table} WHERE conversation_id = ?`),
      deleteOne: database.prepare(`DELETE FROM ${table} WHERE conversation_id = ? AND seq = ?`),
    };
    return this.#statements;
  }
}

/**
 * Reads `PRAGMA busy_timeout` through one prepared statement, as a plucked single value where the
 * driver can (better-sqlite3: half the cost of a row object in an array, on every operation).
 */
function busyTimeoutReader(database: SqliteDatabase): () => unknown {
  const statement = database.prepare('PRAGMA busy_timeout');
  if (typeof statement.pluck === 'function' && typeof statement.get === 'function') {
    const plucked = statement.pluck(true);
    if (typeof plucked?.get === 'function') return () => plucked.get?.();
  }
  return () => (statement.all() as { timeout?: unknown }[])[0]?.timeout;
}

/**
 * The error of a write asked for while the connection is in a transaction its owner began: the
 * repository's writes are transactions of their own (SQLite does not nest them), and rolling back
 * would throw away the owner's work.
 */
function inOwnerTransaction(operation: { operation: string; conversationId?: string }) {
  return new MemoryError({
    backend: BACKEND,
    conversationId: operation.conversationId,
    outcome: 'unchanged',
    message: `sqlite chat memory ${operation.operation} failed: the database connection is in a transaction it did not begin, and its writes are transactions of their own; nothing was written and that transaction was left open (give the repository a connection of its own, or write outside the transaction)`,
  });
}

/** Whether SQLite refused because another connection holds a lock (`SQLITE_BUSY` and its variants). */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
