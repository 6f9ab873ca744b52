import { quoteIdentifier } from '../sql-identifier.js';
import type { PostgresQueryable } from './postgres-client.js';

/** Where the PostgreSQL chat memory lives. */
export interface PostgresChatMemorySchemaOptions {
  /** Schema of the tables. Default `public`. */
  schema?: string;
  /**
   * Prefix of the table names (`<prefix>_conversations`, `<prefix>_messages`,
   * `<prefix>_approval_tokens`). Default `toolloop_chat`.
   */
  tablePrefix?: string;
}

/** Quoted, checked table names. */
export interface PostgresChatMemoryTables {
  conversations: string;
  messages: string;
  /** The single-use tokens of pending approval states. */
  approvalTokens: string;
  /** The key of the migration's advisory lock. */
  lockName: string;
}

/** Resolves and checks the table names of the options. */
export function postgresChatMemoryTables(
  options: PostgresChatMemorySchemaOptions = {},
): PostgresChatMemoryTables {
  const schema = quoteIdentifier(options.schema ?? 'public', 'schema');
  const prefix = options.tablePrefix ?? 'toolloop_chat';
  return {
    conversations: `${schema}.${quoteIdentifier(`${prefix}_conversations`, 'tablePrefix')}`,
    messages: `${schema}.${quoteIdentifier(`${prefix}_messages`, 'tablePrefix')}`,
    approvalTokens: `${schema}.${quoteIdentifier(`${prefix}_approval_tokens`, 'tablePrefix')}`,
    lockName: `toolloop_chat_memory:${options.schema ?? 'public'}.${prefix}`,
  };
}

/**
 * The migration SQL of the PostgreSQL chat memory (idempotent), for your migration tool.
 *
 * A conversation row holds the id and the last sequence number given out; each message row holds
 * its JSONB message under `(conversation_key, seq)`. The key is the SHA-256 of the id, so ids of
 * any length fit the primary-key index. A third table holds the single-use tokens of pending
 * approval states (when the repository serves as `approval.tokenStore`) until they may be
 * forgotten.
 */
export function postgresChatMemoryMigration(options: PostgresChatMemorySchemaOptions = {}): string {
  const tables = postgresChatMemoryTables(options);
  const schema = quoteIdentifier(options.schema ?? 'public', 'schema');
  return `CREATE SCHEMA IF NOT EXISTS ${schema};
CREATE TABLE IF NOT EXISTS ${tables.conversations} (
  conversation_key text PRIMARY KEY,
  conversation_id text NOT NULL,
  last_seq bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS ${tables.messages} (
  conversation_key text NOT NULL REFERENCES ${tables.conversations} (conversation_key) ON DELETE CASCADE,
  seq bigint NOT NULL,
  message jsonb NOT NULL,
  PRIMARY KEY (conversation_key, seq)
);
CREATE TABLE IF NOT EXISTS ${tables.approvalTokens} (
  token text PRIMARY KEY,
  forget_at timestamptz NOT NULL
);
`;
}

/**
 * Runs {@link postgresChatMemoryMigration} in one transaction under an advisory lock, so several
 * processes starting at once do not race. Needs a single connection (a pool client or a client).
 */
export async function migratePostgresChatMemory(
  connection: PostgresQueryable,
  options: PostgresChatMemorySchemaOptions = {},
): Promise<void> {
  const tables = postgresChatMemoryTables(options);
  await connection.query('BEGIN');
  try {
    await connection.query('SELECT pg_advisory_xact_lock(hashtext($1))', [tables.lockName]);
    await connection.query(postgresChatMemoryMigration(options));
    await connection.query('COMMIT');
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
