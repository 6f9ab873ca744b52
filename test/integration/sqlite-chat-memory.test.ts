import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteChatMemoryRepository } from '../../src/memory/sqlite/index.js';
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
