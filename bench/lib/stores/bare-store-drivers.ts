import { createHash, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Message } from 'toolloop';

/**
 * The baselines of the stores benchmark: each backend's driver used directly, sending the same
 * statements as toolloop's repository for an append (one message) and a read (the whole
 * conversation), read off the repositories' source: the same SQL and transactions, the same
 * Redis script and keys, the same JSON. What they leave out is toolloop's own work around the
 * statements: argument checks, the operation's timeout and its fencing, typed errors, and the
 * checks of every stored message on the way back.
 */

/** The two operations the benchmark times. */
export interface BareStore {
  append(conversationId: string, messages: readonly Message[]): Promise<void>;
  findByConversationId(conversationId: string): Promise<Message[]>;
}

/**
 * SQLite through better-sqlite3: `BEGIN IMMEDIATE`, `MAX(seq)`, one `INSERT` per message, `COMMIT`.
 * With `busySwitch`, every operation also does what the repository does so that a locked database
 * is waited for on a timer instead of in SQLite's busy handler (which would block the event loop):
 * read the connection's busy timeout (one plucked prepared statement), set it to 0 in the same
 * `exec` as `BEGIN IMMEDIATE` (a read: an `exec` of its own), and put it back in the same `exec`
 * as `COMMIT` (a read: after it). That variant isolates what the switch costs.
 */
export function bareSqlite(
  database: Database.Database,
  table: string,
  busySwitch = false,
): BareStore {
  return busySwitch ? switchedSqlite(database, table) : plainSqlite(database, table);
}

function createTable(database: Database.Database, table: string) {
  database.pragma('journal_mode = WAL');
  database.exec(
    `CREATE TABLE IF NOT EXISTS "${table}" (
      conversation_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      message TEXT NOT NULL,
      PRIMARY KEY (conversation_id, seq)
    ) WITHOUT ROWID`,
  );
  return {
    read: database.prepare(
      `SELECT seq, message FROM "${table}" WHERE conversation_id = ? ORDER BY seq`,
    ),
    maxSeq: database.prepare(`SELECT MAX(seq) AS seq FROM "${table}" WHERE conversation_id = ?`),
    insert: database.prepare(
      `INSERT INTO "${table}" (conversation_id, seq, message) VALUES (?, ?, ?)`,
    ),
  };
}

function plainSqlite(database: Database.Database, table: string): BareStore {
  const { read, maxSeq, insert } = createTable(database, table);
  return {
    async append(conversationId, messages) {
      database.exec('BEGIN IMMEDIATE');
      try {
        const [max] = maxSeq.all(conversationId) as { seq: number | null }[];
        const start = (max?.seq ?? 0) + 1;
        messages.forEach((message, index) => {
          insert.run(conversationId, start + index, JSON.stringify(message));
        });
        database.exec('COMMIT');
      } catch (error) {
        if (database.inTransaction) database.exec('ROLLBACK');
        throw error;
      }
    },
    async findByConversationId(conversationId) {
      return (read.all(conversationId) as { message: string }[]).map(
        (row) => JSON.parse(row.message) as Message,
      );
    },
  };
}

function switchedSqlite(database: Database.Database, table: string): BareStore {
  const { read, maxSeq, insert } = createTable(database, table);
  const timeout = database.prepare('PRAGMA busy_timeout').pluck(true);
  return {
    async append(conversationId, messages) {
      const own = Number(timeout.get());
      database.exec('PRAGMA busy_timeout = 0; BEGIN IMMEDIATE');
      try {
        const [max] = maxSeq.all(conversationId) as { seq: number | null }[];
        const start = (max?.seq ?? 0) + 1;
        messages.forEach((message, index) => {
          insert.run(conversationId, start + index, JSON.stringify(message));
        });
        database.exec(`COMMIT; PRAGMA busy_timeout = ${own}`);
      } catch (error) {
        if (database.inTransaction) database.exec('ROLLBACK');
        database.exec(`PRAGMA busy_timeout = ${own}`);
        throw error;
      }
    },
    async findByConversationId(conversationId) {
      const own = Number(timeout.get());
      database.exec('PRAGMA busy_timeout = 0');
      try {
        return (read.all(conversationId) as { message: string }[]).map(
          (row) => JSON.parse(row.message) as Message,
        );
      } finally {
        database.exec(`PRAGMA busy_timeout = ${own}`);
      }
    },
  };
}

// The append script of RedisChatMemoryRepository, statement for statement: the replay check of
// the write token, the fence on the server clock (no deadline here), RPUSH of the messages, the
// version bump, the conversation set, and remembering the token.
const REDIS_APPEND = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
for _, seen in ipairs(redis.call('LRANGE', KEYS[4], 0, -1)) do
  if seen == ARGV[2] then return {1, now} end
end
if ARGV[1] ~= '' and now >= tonumber(ARGV[1]) then return {-1, now} end
local last = #ARGV
local i = 4
while i <= last do
  local j = math.min(i + 499, last)
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, j))
  i = j + 1
end
redis.call('INCR', KEYS[2])
redis.call('SADD', KEYS[3], ARGV[3])
redis.call('LPUSH', KEYS[4], ARGV[2])
redis.call('LTRIM', KEYS[4], 0, 63)
redis.call('PEXPIRE', KEYS[4], 86400000)
return {1, now}
`;

const REDIS_APPEND_SHA1 = createHash('sha1').update(REDIS_APPEND).digest('hex');

/**
 * Redis through ioredis: the repository's script for an append, run by its SHA-1 as the
 * repository runs it (`EVALSHA`, `EVAL` once when the server does not have it), `LRANGE` for a
 * read.
 */
export function bareRedis(client: Redis, prefix: string): BareStore {
  const encode = (id: string) => Buffer.from(id, 'utf16le').toString('base64url');
  return {
    async append(conversationId, messages) {
      const id = encode(conversationId);
      const args = [
        `${prefix}messages:${id}`,
        `${prefix}version:${id}`,
        `${prefix}conversations`,
        `${prefix}writes:${id}`,
        '',
        randomUUID(),
        id,
        ...messages.map((message) => JSON.stringify(message)),
      ];
      try {
        await client.evalsha(REDIS_APPEND_SHA1, 4, ...args);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
        await client.eval(REDIS_APPEND, 4, ...args);
      }
    },
    async findByConversationId(conversationId) {
      const rows = await client.lrange(`${prefix}messages:${encode(conversationId)}`, 0, -1);
      return rows.map((row) => JSON.parse(row) as Message);
    },
  };
}

/**
 * PostgreSQL through a `pg` pool: a pooled connection, `BEGIN; SET LOCAL statement_timeout`, the
 * repository's one-statement claim-and-insert, `COMMIT`; a read is one `SELECT` (jsonb comes
 * back parsed). The tables are the repository's, created by its migration.
 */
export function barePostgres(pool: pg.Pool, conversations: string, messages: string): BareStore {
  const key = (id: string) => createHash('sha256').update(Buffer.from(id, 'utf16le')).digest('hex');
  const appendSql = `WITH claimed AS (
       INSERT INTO ${conversations} AS c (conversation_key, conversation_id, last_seq)
       VALUES ($1, $2, $3)
       ON CONFLICT (conversation_key)
       DO UPDATE SET last_seq = c.last_seq + EXCLUDED.last_seq, updated_at = now()
       RETURNING last_seq
     )
     INSERT INTO ${messages} (conversation_key, seq, message)
     SELECT $1, claimed.last_seq - $3 + s.ordinal, s.message::jsonb
     FROM claimed, unnest($4::text[]) WITH ORDINALITY AS s(message, ordinal)`;
  const readSql = `SELECT seq, message FROM ${messages} WHERE conversation_key = $1 ORDER BY seq`;
  return {
    async append(conversationId, batch) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN; SET LOCAL statement_timeout = 10100');
        await client.query(appendSql, [
          key(conversationId),
          conversationId,
          batch.length,
          batch.map((message) => JSON.stringify(message)),
        ]);
        await client.query('COMMIT');
        client.release();
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        client.release(true);
        throw error;
      }
    },
    async findByConversationId(conversationId) {
      const result = await pool.query(readSql, [key(conversationId)]);
      return result.rows.map((row) => row.message as Message);
    },
  };
}
