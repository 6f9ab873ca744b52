import type { Message } from '../../messages/index.js';
import type { AppendOptions, ChatMemoryRepository } from '../chat-memory-repository.js';
import { assertConversationId, assertMessages } from '../conversation-id.js';
import { decodeSafeText, encodeSafeText } from '../safe-text.js';
import { quoteIdentifier } from '../sql-identifier.js';
import { runStoreOperation } from '../store-operation.js';
import { parseStoredMessage } from '../stored-message.js';
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
 */
export class SqliteChatMemoryRepository implements ChatMemoryRepository {
  readonly database: SqliteDatabase;
  readonly tableName: string;
  readonly #table: string;
  readonly #synchronous: SqliteChatMemoryRepositoryOptions['synchronous'];
  readonly #wal: boolean;
  #statements: Statements | undefined;

  constructor(options: SqliteChatMemoryRepositoryOptions) {
    this.database = options.database;
    this.tableName = options.tableName ?? 'toolloop_chat_memory';
    this.#table = quoteIdentifier(this.tableName, 'tableName');
    this.#synchronous = options.synchronous === undefined ? 'FULL' : options.synchronous;
    this.#wal = options.wal ?? true;
  }

  /** Creates the table when missing and applies the pragmas; runs by itself on first use. */
  initialize(): void {
    this.#prepared();
  }

  async findConversationIds(): Promise<string[]> {
    return runStoreOperation({ backend: BACKEND, operation: 'findConversationIds' }, () =>
      (this.#prepared().ids.all() as { conversation_id: string }[]).map((row) =>
        decodeSafeText(row.conversation_id),
      ),
    );
  }

  async findByConversationId(conversationId: string): Promise<Message[]> {
    assertConversationId(conversationId);
    return runStoreOperation({ backend: BACKEND, operation: 'read', conversationId }, () =>
      parseRows(
        conversationId,
        this.#prepared().readWithSeq.all(encodeSafeText(conversationId)) as StoredRow[],
      ),
    );
  }

  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    const rows = messages.map((message) => JSON.stringify(message));
    await runStoreOperation({ backend: BACKEND, operation: 'saveAll', conversationId }, () =>
      this.#transaction((statements) => {
        const key = encodeSafeText(conversationId);
        statements.deleteAll.run(key);
        rows.forEach((row, index) => {
          statements.insert.run(key, index + 1, row);
        });
      }),
    );
  }

  async deleteByConversationId(conversationId: string): Promise<void> {
    assertConversationId(conversationId);
    await runStoreOperation({ backend: BACKEND, operation: 'delete', conversationId }, () =>
      this.#transaction((statements) => {
        statements.deleteAll.run(encodeSafeText(conversationId));
      }),
    );
  }

  async append(
    conversationId: string,
    messages: readonly Message[],
    options: AppendOptions = {},
  ): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    const rows = messages.map((message) => JSON.stringify(message));
    if (rows.length === 0 && !options.retain) return;
    await runStoreOperation({ backend: BACKEND, operation: 'append', conversationId }, () =>
      this.#transaction((statements) => {
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
      }),
    );
  }

  #transaction(work: (statements: Statements) => void): void {
    const statements = this.#prepared();
    this.database.exec('BEGIN IMMEDIATE');
    try {
      work(statements);
      this.database.exec('COMMIT');
    } catch (error) {
      if (this.database.inTransaction) this.database.exec('ROLLBACK');
      throw error;
    }
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
