import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryError } from '../../src/errors/index.js';
import {
  SqliteChatMemoryRepository,
  SqliteToolEmbeddingCache,
} from '../../src/memory/sqlite/index.js';
import type { Message } from '../../src/messages/index.js';
import { chatMemoryRepositoryContract } from './chat-memory-contract.js';
import type { FaultInjector } from './fault-injection.js';

const directory = mkdtempSync(join(tmpdir(), 'toolloop-sqlite-memory-'));
const databases: Database.Database[] = [];
let files = 0;

function open(file: string): Database.Database {
  const database = new Database(file);
  databases.push(database);
  return database;
}

afterAll(() => {
  for (const database of databases) database.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('SqliteChatMemoryRepository meets the chat memory contract', () => {
  chatMemoryRepositoryContract({
    backend: 'sqlite',
    storesRawRows: true,
    create: async (settings = {}) => {
      // synchronous=NORMAL keeps 10,000 appends fast; the durability test runs with FULL.
      const file = join(directory, `memory-${++files}.db`);
      const raw = open(file);
      return {
        repository: new SqliteChatMemoryRepository({
          database: open(file),
          synchronous: 'NORMAL',
          ...settings,
        }),
        sibling: new SqliteChatMemoryRepository({ database: open(file), synchronous: 'NORMAL' }),
        storeRawRow: async (conversationId: string, text: string) => {
          raw
            .prepare(
              `INSERT INTO toolloop_chat_memory (conversation_id, seq, message)
               SELECT ?, COALESCE(MAX(seq), 0) + 1, ? FROM toolloop_chat_memory WHERE conversation_id = ?`,
            )
            .run(conversationId, text, conversationId);
          return true;
        },
      };
    },
    createFaulty: async (injector: FaultInjector) => {
      const file = join(directory, `memory-${++files}.db`);
      return {
        repository: new SqliteChatMemoryRepository({ database: injector.wrap(open(file)) }),
        sibling: new SqliteChatMemoryRepository({ database: open(file) }),
      };
    },
    faultMethods: ['run', 'all', 'exec'],
    faultModes: ['error'],
  });
});

describe('SqliteChatMemoryRepository on disk', () => {
  it('uses WAL with synchronous=FULL by default and keeps the table name given', async () => {
    const database = open(join(directory, 'pragmas.db'));
    const repository = new SqliteChatMemoryRepository({ database, tableName: 'my_memory' });
    await repository.append('c', [{ role: 'user', text: 'hi' }]);
    expect(database.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(database.pragma('synchronous', { simple: true })).toBe(2);
    expect(database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([
      { name: 'my_memory' },
    ]);
    expect(
      () => new SqliteChatMemoryRepository({ database, tableName: 'x; DROP TABLE y' }),
    ).toThrow('tableName must be letters');
  });
});

describe('SqliteChatMemoryRepository on a connection inside a transaction of its owner', () => {
  // The repository's BEGIN IMMEDIATE failed inside the owner's transaction, and its error path
  // rolled back whatever transaction the connection was in: the owner's writes were lost.
  it('refuses to write with a MemoryError and leaves the open transaction and its writes alone', async () => {
    const database = open(join(directory, `owner-transaction-${++files}.db`));
    database.exec('CREATE TABLE orders (id INTEGER)');
    const repository = new SqliteChatMemoryRepository({ database });
    await repository.append('c', [{ role: 'user', text: 'before' }]);
    database.exec('BEGIN');
    database.exec('INSERT INTO orders VALUES (1)');
    for (const write of [
      () => repository.append('c', [{ role: 'user', text: 'during' }]),
      () => repository.saveAll('c', [{ role: 'user', text: 'during' }]),
      () => repository.deleteByConversationId('c'),
    ]) {
      const error = await write().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MemoryError);
      expect(error).toMatchObject({ backend: 'sqlite', conversationId: 'c', outcome: 'unchanged' });
      expect((error as Error).message).toContain('in a transaction it did not begin');
      expect(database.inTransaction).toBe(true);
    }
    // Reads need no transaction of their own.
    expect(await repository.findByConversationId('c')).toEqual([{ role: 'user', text: 'before' }]);
    database.exec('COMMIT');
    expect(database.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 1 });
  });

  it('refuses to take a single-use approval token there: the owner’s rollback would let it be used again', async () => {
    const database = open(join(directory, `owner-transaction-${++files}.db`));
    const repository = new SqliteChatMemoryRepository({ database });
    const expiresAt = new Date(Date.now() + 60_000);
    database.exec('BEGIN');
    const error = await repository
      .consumeApprovalToken('single-use-token-0001', expiresAt)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MemoryError);
    expect((error as Error).message).toContain('in a transaction it did not begin');
    database.exec('ROLLBACK');
    expect(await repository.consumeApprovalToken('single-use-token-0001', expiresAt)).toBe(true);
    expect(await repository.consumeApprovalToken('single-use-token-0001', expiresAt)).toBe(false);
  });

  it('the tool-embedding cache leaves it alone too', async () => {
    const database = open(join(directory, `owner-transaction-${++files}.db`));
    database.exec('CREATE TABLE orders (id INTEGER)');
    const cache = new SqliteToolEmbeddingCache({ database });
    await cache.get(['k']);
    database.exec('BEGIN');
    database.exec('INSERT INTO orders VALUES (1)');
    await expect(cache.set([{ key: 'k', vector: Float32Array.from([1, 2]) }])).rejects.toThrow(
      'in a transaction it did not begin',
    );
    expect(database.inTransaction).toBe(true);
    database.exec('COMMIT');
    expect(database.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 1 });
  });
});

describe('SqliteChatMemoryRepository with a message too large for a JavaScript string as JSON', () => {
  // 90 million NULs are 540 million characters as JSON text, past what a JavaScript string can
  // hold: JSON.stringify's bare 'RangeError: Invalid string length' left the repository.
  it('fails the write with a MemoryError naming the message; nothing is written', async () => {
    const repository = new SqliteChatMemoryRepository({
      database: open(join(directory, `huge-${++files}.db`)),
    });
    await repository.append('c', [{ role: 'user', text: 'before' }]);
    const huge: Message = { role: 'assistant', text: '\u0000'.repeat(90_000_000), toolCalls: [] };
    const error = await repository
      .append('c', [{ role: 'user', text: 'next' }, huge])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MemoryError);
    expect(error).toMatchObject({ backend: 'sqlite', conversationId: 'c', outcome: 'unchanged' });
    expect((error as Error).message).toBe(
      'sqlite chat memory: messages[1] is too large to store: its JSON text is longer than a JavaScript string can be; nothing was written',
    );
    expect(await repository.findByConversationId('c')).toEqual([{ role: 'user', text: 'before' }]);
  });
});
