import { createHash } from 'node:crypto';
import { MemoryError } from '../../errors/index.js';
import { LongTimeout } from '../../internal/long-timeout.js';
import { checkUsedToken, USED_TOKEN_GRACE_MS } from '../../internal/used-token-set.js';
import type { Message } from '../../messages/index.js';
import type { AppendOptions, ChatMemoryRepository } from '../chat-memory-repository.js';
import { assertConversationId, assertMessages } from '../conversation-id.js';
import {
  decodeParsedSafeJson,
  decodeSafeText,
  encodeSafeText,
  stringifySafeJson,
} from '../safe-text.js';
import { runStoreOperation, type StoreOperationScope } from '../store-operation.js';
import { assertStorableMedia, mediaLimitOption } from '../stored-media-limit.js';
import { parseStoredMessage, serializeMessages } from '../stored-message.js';
import type { PostgresPool, PostgresPoolClient, PostgresQueryable } from './postgres-client.js';
import {
  migratePostgresChatMemory,
  type PostgresChatMemorySchemaOptions,
  type PostgresChatMemoryTables,
  postgresChatMemoryTables,
} from './postgres-schema.js';

/** Options of {@link PostgresChatMemoryRepository}: a `pool` (recommended) or one `client`. */
export type PostgresChatMemoryRepositoryOptions = PostgresChatMemorySchemaOptions & {
  /** Create the tables on first use (default true); set false when you run the migration yourself. */
  autoMigrate?: boolean;
  /**
   * A store operation that takes longer fails with a `MemoryError`. Default 10 000 ms; any length
   * is kept exactly; `0` or `Infinity` waits.
   */
  timeoutMs?: number;
  /**
   * Most inline media (tool result images, audio, files, as base64) one message may hold; a
   * message over it fails the write with a `MemoryError` and nothing is written. Default 16 MiB.
   */
  maxMediaBytes?: number;
} & (
    | { /** Your `pg` `Pool`. */ pool: PostgresPool; client?: never }
    | {
        /**
         * One `pg` `Client`; toolloop runs its transactions one at a time on it, and refuses to
         * write (a `MemoryError`) while the client is in a transaction toolloop did not begin.
         */
        client: PostgresQueryable;
        pool?: never;
      }
  );

/** A connection held by one operation. */
interface Lease {
  /** The connection, refusing every statement once the operation timed out. */
  connection: PostgresQueryable;
  /** The connection itself, for COMMIT (sent through the scope) and ROLLBACK. */
  raw: PostgresQueryable;
  /** Rolls back an open transaction; never throws. */
  rollback(): Promise<void>;
  /** Gives the connection back (`broken`: a pooled one is destroyed). Runs once. */
  done(broken: boolean): void;
  /** The operation timed out while holding the connection. */
  abandon(): void;
}

const BACKEND = 'postgres';

/** Connections already switched to synchronous commit. */
const configured = new WeakSet<object>();

/**
 * Chat memory in PostgreSQL through `pg`. One JSONB row per message under
 * `(conversation_key, seq)`, the sequence handed out by the conversation's row: an append locks
 * that row (`INSERT … ON CONFLICT DO UPDATE`), so concurrent appends to one conversation queue up
 * and each lands whole, in one transaction (a plain append is one statement, one round trip).
 * Every connection it uses runs with `synchronous_commit = on`, so an acknowledged append survives
 * a crash whatever the server's default. Ids and
 * messages are always bound parameters. Strings PostgreSQL cannot hold (NUL, lone surrogates) are
 * escaped reversibly. Tables are created on first use, or by {@link migratePostgresChatMemory}.
 */
export class PostgresChatMemoryRepository implements ChatMemoryRepository {
  readonly timeoutMs: number;
  readonly #tables: PostgresChatMemoryTables;
  readonly #schemaOptions: PostgresChatMemorySchemaOptions;
  readonly #pool: PostgresPool | undefined;
  readonly #client: PostgresQueryable | undefined;
  readonly #autoMigrate: boolean;
  #ready: Promise<void> | undefined;
  #clientQueue: Promise<void> = Promise.resolve();

  readonly #maxMediaBytes: number;

  constructor(options: PostgresChatMemoryRepositoryOptions) {
    this.#schemaOptions = { schema: options.schema, tablePrefix: options.tablePrefix };
    this.#maxMediaBytes = mediaLimitOption(options.maxMediaBytes);
    this.#tables = postgresChatMemoryTables(this.#schemaOptions);
    this.#pool = options.pool;
    this.#client = options.client;
    if (!this.#pool && !this.#client) {
      throw new MemoryError({
        backend: BACKEND,
        message: 'postgres chat memory needs a pool or a client',
      });
    }
    this.#autoMigrate = options.autoMigrate ?? true;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Creates the tables when missing (what the first operation does when `autoMigrate` is on). */
  async migrate(): Promise<void> {
    await runStoreOperation({ backend: BACKEND, operation: 'migrate' }, async (scope) => {
      const lease = await this.#acquire(scope);
      refuseOwnerTransaction(lease, 'migrate', undefined);
      try {
        await migratePostgresChatMemory(lease.connection, this.#schemaOptions);
        lease.done(false);
      } catch (error) {
        await lease.rollback();
        lease.done(true);
        throw error;
      }
    });
  }

  /**
   * Marks the single-use token of a pending approval state used, so this repository can serve as
   * `approval.tokenStore`: true the first time, false after, for every process on the database
   * (one `INSERT … ON CONFLICT` statement). Tokens live in `<tablePrefix>_approval_tokens` (part of
   * the migration: run it again when `autoMigrate` is off) until an hour after their state's
   * expiry.
   */
  async consumeApprovalToken(token: string, expiresAt: Date): Promise<boolean> {
    checkUsedToken(token, expiresAt);
    const forgetAt = new Date(expiresAt.getTime() + USED_TOKEN_GRACE_MS);
    // In a transaction of its own: inside the connection owner's (a single `Client`), their
    // rollback would undo the taking and let the single-use token be used again; such a
    // connection is refused.
    return this.#withConnection(
      'consumeApprovalToken',
      undefined,
      async (connection) => {
        const tokens = this.#tables.approvalTokens;
        // A token whose time is over may be taken again: its state is refused as expired anyway.
        const taken = await connection.query(
          `INSERT INTO ${tokens} AS used (token, forget_at) VALUES ($1, $2)
         ON CONFLICT (token) DO UPDATE SET forget_at = EXCLUDED.forget_at
         WHERE used.forget_at <= now() RETURNING token`,
          [token, forgetAt],
        );
        await connection.query(`DELETE FROM ${tokens} WHERE forget_at <= now()`);
        return taken.rows.length === 1;
      },
      true,
    );
  }

  async findConversationIds(): Promise<string[]> {
    return this.#query('findConversationIds', undefined, async (connection) => {
      const { conversations, messages } = this.#tables;
      const result = await connection.query(
        `SELECT c.conversation_id FROM ${conversations} c
         WHERE EXISTS (SELECT 1 FROM ${messages} m WHERE m.conversation_key = c.conversation_key)`,
      );
      return result.rows.map((row) => decodeSafeText(String(row.conversation_id)));
    });
  }

  async findByConversationId(conversationId: string): Promise<Message[]> {
    assertConversationId(conversationId);
    return this.#query('read', conversationId, async (connection) => {
      const result = await connection.query(
        `SELECT seq, message::text AS message FROM ${this.#tables.messages} WHERE conversation_key = $1 ORDER BY seq`,
        [conversationKey(conversationId)],
      );
      return decodeRows(conversationId, result.rows);
    });
  }

  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    assertStorableMedia(messages, BACKEND, conversationId, this.#maxMediaBytes);
    const rows = serializeMessages(messages, BACKEND, conversationId, stringifySafeJson);
    await this.#transaction('saveAll', conversationId, async (connection) => {
      const key = conversationKey(conversationId);
      if (rows.length === 0) {
        await connection.query(
          `DELETE FROM ${this.#tables.conversations} WHERE conversation_key = $1`,
          [key],
        );
        return;
      }
      await this.#claim(connection, conversationId, 0);
      await connection.query(`DELETE FROM ${this.#tables.messages} WHERE conversation_key = $1`, [
        key,
      ]);
      await this.#insert(connection, key, 1, rows);
      await connection.query(
        `UPDATE ${this.#tables.conversations} SET last_seq = $2 WHERE conversation_key = $1`,
        [key, rows.length],
      );
    });
  }

  async deleteByConversationId(conversationId: string): Promise<void> {
    assertConversationId(conversationId);
    await this.#transaction('delete', conversationId, async (connection) => {
      await connection.query(
        `DELETE FROM ${this.#tables.conversations} WHERE conversation_key = $1`,
        [conversationKey(conversationId)],
      );
    });
  }

  async append(
    conversationId: string,
    messages: readonly Message[],
    options: AppendOptions = {},
  ): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    assertStorableMedia(messages, BACKEND, conversationId, this.#maxMediaBytes);
    const rows = serializeMessages(messages, BACKEND, conversationId, stringifySafeJson);
    const retain = options.retain;
    if (rows.length === 0 && !retain) return;
    if (!retain) {
      // One statement: the sequence claim (which row-locks the conversation) and the insert.
      const { conversations, messages: table } = this.#tables;
      await this.#transaction('append', conversationId, async (connection) => {
        await connection.query(
          `WITH claimed AS (
             INSERT INTO ${conversations} AS c (conversation_key, conversation_id, last_seq)
             VALUES ($1, $2, $3)
             ON CONFLICT (conversation_key)
             DO UPDATE SET last_seq = c.last_seq + EXCLUDED.last_seq, updated_at = now()
             RETURNING last_seq
           )
           INSERT INTO ${table} (conversation_key, seq, message)
           SELECT $1, claimed.last_seq - $3 + s.ordinal, s.message::jsonb
           FROM claimed, unnest($4::text[]) WITH ORDINALITY AS s(message, ordinal)`,
          [conversationKey(conversationId), encodeSafeText(conversationId), rows.length, rows],
        );
      });
      return;
    }
    await this.#transaction('append', conversationId, async (connection) => {
      const key = conversationKey(conversationId);
      const last = await this.#claim(connection, conversationId, rows.length);
      const start = last - rows.length + 1;
      await this.#insert(connection, key, start, rows);
      const stored = await connection.query(
        `SELECT seq, message::text AS message FROM ${this.#tables.messages} WHERE conversation_key = $1 ORDER BY seq`,
        [key],
      );
      const seqs = stored.rows.map((row) => Number(row.seq));
      const appendedFrom = seqs.findIndex((seq) => seq >= start);
      const keep = new Set(
        retain(
          decodeRows(conversationId, stored.rows),
          appendedFrom === -1 ? seqs.length : appendedFrom,
        ),
      );
      const evicted = seqs.filter((_, index) => !keep.has(index));
      if (evicted.length > 0) {
        await connection.query(
          `DELETE FROM ${this.#tables.messages} WHERE conversation_key = $1 AND seq = ANY($2::bigint[])`,
          [key, evicted],
        );
      }
    });
  }

  /** Upserts the conversation row (locking it until commit) and returns the new last sequence. */
  async #claim(
    connection: PostgresQueryable,
    conversationId: string,
    count: number,
  ): Promise<number> {
    const result = await connection.query(
      `INSERT INTO ${this.#tables.conversations} AS c (conversation_key, conversation_id, last_seq)
       VALUES ($1, $2, $3)
       ON CONFLICT (conversation_key)
       DO UPDATE SET last_seq = c.last_seq + EXCLUDED.last_seq, updated_at = now()
       RETURNING last_seq`,
      [conversationKey(conversationId), encodeSafeText(conversationId), count],
    );
    return Number(result.rows[0]?.last_seq);
  }

  async #insert(
    connection: PostgresQueryable,
    key: string,
    start: number,
    rows: string[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await connection.query(
      `INSERT INTO ${this.#tables.messages} (conversation_key, seq, message)
       SELECT $1, s.seq, s.message::jsonb FROM unnest($2::bigint[], $3::text[]) AS s(seq, message)`,
      [key, rows.map((_, index) => start + index), rows],
    );
  }

  #query<T>(
    operation: string,
    conversationId: string | undefined,
    work: (connection: PostgresQueryable) => Promise<T>,
  ): Promise<T> {
    return this.#withConnection(operation, conversationId, work, false);
  }

  #transaction<T>(
    operation: string,
    conversationId: string,
    work: (connection: PostgresQueryable) => Promise<T>,
  ): Promise<T> {
    return this.#withConnection(operation, conversationId, work, true);
  }

  /**
   * Runs `work` on one connection, inside a transaction when asked (every write is one). The
   * transaction's statements run with a server-side `statement_timeout` a little past the
   * caller's deadline, and COMMIT is sent only before that deadline. When the operation times
   * out, pooled connections it holds are destroyed at once (the server rolls back what was not
   * committed) and the single client rolls back as soon as its statement in flight returns; a
   * connection the pool hands over after the timeout goes back unused. So after a timeout no
   * statement is sent and nothing commits, unless COMMIT itself was in flight (`outcome`
   * `'unknown'`).
   */
  #withConnection<T>(
    operation: string,
    conversationId: string | undefined,
    work: (connection: PostgresQueryable) => Promise<T>,
    transactional: boolean,
  ): Promise<T> {
    return runStoreOperation(
      { backend: BACKEND, operation, conversationId, timeoutMs: this.timeoutMs },
      async (scope) => {
        const held: Lease[] = [];
        scope.onExpire(() => {
          for (const lease of held) lease.abandon();
        });
        const acquire = () =>
          this.#acquire(scope, (lease) => {
            held.push(lease);
          });
        await this.#ensureSchema(acquire, operation, conversationId);
        const lease = await acquire();
        let inTransaction = false;
        try {
          if (transactional) {
            refuseOwnerTransaction(lease, operation, conversationId);
            await lease.connection.query(beginStatement(scope.remaining()));
            inTransaction = true;
          }
          const result = await work(lease.connection);
          if (transactional) {
            await scope.write(() => lease.raw.query('COMMIT'));
            inTransaction = false;
          }
          lease.done(false);
          return result;
        } catch (error) {
          if (inTransaction) await lease.rollback();
          lease.done(true);
          throw error;
        }
      },
    );
  }

  async #ensureSchema(
    acquire: () => Promise<Lease>,
    operation: string,
    conversationId: string | undefined,
  ): Promise<void> {
    if (!this.#autoMigrate) return;
    let ready = this.#ready;
    if (!ready) {
      ready = (async () => {
        const lease = await acquire();
        refuseOwnerTransaction(lease, operation, conversationId);
        try {
          await migratePostgresChatMemory(lease.connection, this.#schemaOptions);
          lease.done(false);
        } catch (error) {
          await lease.rollback();
          lease.done(true);
          throw error;
        }
      })();
      this.#ready = ready;
      // A migration that never finishes (its connection stuck) is retried by the next operation
      // instead of blocking it.
      const current = ready;
      const timer =
        this.timeoutMs > 0
          ? new LongTimeout(() => {
              if (this.#ready === current) this.#ready = undefined;
            }, this.timeoutMs)
          : undefined;
      current.then(
        () => timer?.clear(),
        () => timer?.clear(),
      );
    }
    try {
      await ready;
    } catch (error) {
      if (this.#ready === ready) this.#ready = undefined;
      throw error;
    }
  }

  /**
   * A connection for the operation of `scope`, configured; `hold` sees it before anything is sent
   * on it. One that arrives after the operation timed out is given back untouched, and the
   * timeout error thrown.
   */
  async #acquire(
    scope: StoreOperationScope,
    hold: (lease: Lease) => void = () => {},
  ): Promise<Lease> {
    const lease = this.#pool
      ? pooledLease(await this.#pool.connect(), scope)
      : await this.#clientLease(scope);
    if (scope.expired) {
      lease.done(false);
      scope.checkpoint();
    }
    hold(lease);
    try {
      await this.#configure(lease);
    } catch (error) {
      lease.done(true);
      throw error;
    }
    return lease;
  }

  /** The single client, once the operations before this one are done with it. */
  async #clientLease(scope: StoreOperationScope): Promise<Lease> {
    const client = this.#client as PostgresQueryable;
    const previous = this.#clientQueue;
    let release!: () => void;
    this.#clientQueue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    let done = false;
    return {
      raw: client,
      connection: guarded(client, scope),
      rollback: () => rollback(client),
      done: () => {
        if (done) return;
        done = true;
        release();
      },
      // The client is shared and cannot be destroyed: the operation rolls back and releases it
      // when its statement in flight returns, so the next operation never joins its transaction.
      abandon: () => {},
    };
  }

  /** Turns synchronous commit on once per connection (pooled connections are reused). */
  async #configure(lease: Lease): Promise<void> {
    if (configured.has(lease.raw)) return;
    await lease.connection.query('SET synchronous_commit = on');
    // Set inside its owner's transaction, the setting goes if that transaction rolls back.
    if (!inTransaction(lease.raw)) configured.add(lease.raw);
  }
}

/**
 * A pooled connection: destroyed on a timeout, so the server rolls back its transaction, and when
 * it died while held.
 */
function pooledLease(client: PostgresPoolClient, scope: StoreOperationScope): Lease {
  let done = false;
  let died = false;
  // pg emits 'error' on a checked-out connection that dies (a terminated backend, a reset socket),
  // often after the statement in flight has failed, and the pool listens only while it holds the
  // connection idle: unheard, the error would be uncaught and end the process. The operation
  // fails through its statement; the connection is destroyed when given back.
  const onError = () => {
    died = true;
  };
  client.on?.('error', onError);
  const give = (broken: boolean) => {
    if (done) return;
    done = true;
    // The pool listens again from release on (its idle listener).
    client.removeListener?.('error', onError);
    client.release(broken || died);
  };
  return {
    raw: client,
    connection: guarded(client, scope),
    // A destroyed connection has nothing to roll back: the server did it.
    rollback: async () => {
      if (!done) await rollback(client);
    },
    done: give,
    abandon: () => give(true),
  };
}

/** `connection`, refusing to send anything once `scope` timed out. */
function guarded(connection: PostgresQueryable, scope: StoreOperationScope): PostgresQueryable {
  return {
    query: (text, values) => {
      scope.checkpoint();
      return connection.query(text, values);
    },
  };
}

/**
 * Throws (giving the connection back untouched) when the connection is already in a transaction:
 * on a single `Client` its owner may have begun one. PostgreSQL takes a second BEGIN as a warning
 * only, so the repository's statements would join that transaction and its COMMIT or ROLLBACK
 * would end the owner's work.
 */
function refuseOwnerTransaction(
  lease: Lease,
  operation: string,
  conversationId: string | undefined,
): void {
  if (!inTransaction(lease.raw)) return;
  lease.done(true);
  throw new MemoryError({
    backend: BACKEND,
    conversationId,
    outcome: 'unchanged',
    message: `postgres chat memory ${operation} failed: the connection is in a transaction it did not begin, and its writes are transactions of their own; nothing was written and that transaction was left open (give the repository a pool, or a client of its own)`,
  });
}

/** Whether the connection says it is in a transaction (`pg`'s status `'T'` or `'E'`). */
function inTransaction(connection: PostgresQueryable): boolean {
  const status = connection.getTransactionStatus?.();
  return status === 'T' || status === 'E';
}

async function rollback(connection: PostgresQueryable): Promise<void> {
  await connection.query('ROLLBACK').catch(() => {});
}

/**
 * BEGIN, with a server-side statement timeout a little past the time left: the server ends a
 * statement still waiting after the caller's deadline (a lock, a slow disk) instead of keeping a
 * backend busy for an operation nobody waits for any more.
 */
function beginStatement(remainingMs: number | undefined): string {
  const statementTimeoutMs = remainingMs === undefined ? 0 : Math.ceil(remainingMs) + 100;
  // The server refuses a statement_timeout past its int range (about 24.8 days): a longer time
  // left is no server-side limit (the caller's deadline still holds).
  if (statementTimeoutMs === 0 || statementTimeoutMs > MAX_STATEMENT_TIMEOUT_MS) return 'BEGIN';
  return `BEGIN; SET LOCAL statement_timeout = ${statementTimeoutMs}`;
}

/** The largest `statement_timeout` PostgreSQL accepts (milliseconds, a 32-bit int). */
const MAX_STATEMENT_TIMEOUT_MS = 2 ** 31 - 1;

function conversationKey(conversationId: string): string {
  return createHash('sha256').update(Buffer.from(conversationId, 'utf16le')).digest('hex');
}

/**
 * Rows read as `message::text`: parsed here rather than by the driver's jsonb parser, so the value
 * is known to be what `JSON.parse` makes and only its shape (and, for a long text, its depth) is
 * left to check, and its escapes are looked for in the text instead of by walking the value.
 */
function decodeRows(conversationId: string, rows: readonly Record<string, unknown>[]): Message[] {
  return rows.map((row, index) =>
    parseStoredMessage(
      row.message,
      { backend: BACKEND, conversationId, row: index + 1, seq: row.seq },
      decodeParsedSafeJson,
    ),
  );
}
