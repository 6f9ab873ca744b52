import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  migratePostgresChatMemory,
  PostgresChatMemoryRepository,
  postgresChatMemoryMigration,
} from '../../src/memory/postgres/index.js';
import { chatMemoryRepositoryContract } from './chat-memory-contract.js';
import type { FaultInjector } from './fault-injection.js';
import { serviceUrl } from './services.js';

const database = serviceUrl('DATABASE_URL');
const schema = `toolloop_test_${process.pid}_${Date.now().toString(36)}`;
const pools: pg.Pool[] = [];
let tables = 0;

function pool(): pg.Pool {
  const created = new pg.Pool({ connectionString: database.url, max: 10 });
  created.on('error', () => {});
  pools.push(created);
  return created;
}

afterAll(async () => {
  if (database.skip) return;
  const admin = pool();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await Promise.all(pools.map((created) => created.end()));
});

describe.skipIf(database.skip)(
  'PostgresChatMemoryRepository meets the chat memory contract',
  () => {
    chatMemoryRepositoryContract({
      backend: 'postgres',
      propertyRuns: 30,
      storesRawRows: true,
      create: async () => {
        const tablePrefix = `chat_${++tables}`;
        const raw = pool();
        return {
          repository: new PostgresChatMemoryRepository({ pool: pool(), schema, tablePrefix }),
          sibling: new PostgresChatMemoryRepository({ pool: pool(), schema, tablePrefix }),
          storeRawRow: async (conversationId: string, text: string) => {
            // JSONB holds JSON only: text that is not JSON cannot be stored here at all.
            try {
              JSON.parse(text);
            } catch {
              return false;
            }
            const key = createHash('sha256')
              .update(Buffer.from(conversationId, 'utf16le'))
              .digest('hex');
            await raw.query(
              `WITH claimed AS (
                 UPDATE "${schema}".${tablePrefix}_conversations SET last_seq = last_seq + 1
                 WHERE conversation_key = $1 RETURNING last_seq
               )
               INSERT INTO "${schema}".${tablePrefix}_messages (conversation_key, seq, message)
               SELECT $1, last_seq, $2::jsonb FROM claimed`,
              [key, text],
            );
            return true;
          },
        };
      },
      createFaulty: async (injector: FaultInjector) => {
        const tablePrefix = `chat_${++tables}`;
        const sibling = new PostgresChatMemoryRepository({ pool: pool(), schema, tablePrefix });
        await sibling.migrate();
        return {
          repository: new PostgresChatMemoryRepository({
            pool: injector.wrap(pool()),
            schema,
            tablePrefix,
            timeoutMs: 500,
          }),
          sibling,
        };
      },
      faultMethods: ['query'],
      faultModes: ['error', 'hang'],
    });
  },
);

describe.skipIf(database.skip)('PostgresChatMemoryRepository schema', () => {
  it('exports an idempotent migration that creates JSONB messages keyed by (conversation, seq)', async () => {
    const admin = pool();
    const client = await admin.connect();
    try {
      await migratePostgresChatMemory(client, { schema, tablePrefix: 'migrated' });
      await migratePostgresChatMemory(client, { schema, tablePrefix: 'migrated' });
    } finally {
      client.release();
    }
    const columns = await admin.query(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_schema = $1 AND table_name = 'migrated_messages' ORDER BY ordinal_position`,
      [schema],
    );
    expect(columns.rows).toEqual([
      { column_name: 'conversation_key', data_type: 'text' },
      { column_name: 'seq', data_type: 'bigint' },
      { column_name: 'message', data_type: 'jsonb' },
    ]);
    expect(postgresChatMemoryMigration({ schema, tablePrefix: 'migrated' })).toContain(
      'PRIMARY KEY (conversation_key, seq)',
    );
    const repository = new PostgresChatMemoryRepository({
      pool: admin,
      schema,
      tablePrefix: 'migrated',
      autoMigrate: false,
    });
    await repository.append('c', [{ role: 'user', text: 'hi', metadata: { n: 1 } }]);
    const stored = await admin.query(
      `SELECT seq, message FROM "${schema}".migrated_messages ORDER BY seq`,
    );
    expect(stored.rows).toEqual([
      { seq: '1', message: { role: 'user', text: 'hi', metadata: { n: 1 } } },
    ]);
  });

  it('works over a single Client too, running its transactions one at a time', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const repository = new PostgresChatMemoryRepository({
        client,
        schema,
        tablePrefix: `single_${++tables}`,
      });
      await Promise.all(
        Array.from({ length: 10 }, (_, writer) =>
          repository.append('c', [
            { role: 'user', text: `${writer}a` },
            { role: 'user', text: `${writer}b` },
          ]),
        ),
      );
      const stored = await repository.findByConversationId('c');
      expect(stored).toHaveLength(20);
      for (let index = 0; index < 20; index += 2) {
        const text = (stored[index] as { text: string }).text;
        expect((stored[index + 1] as { text: string }).text).toBe(text.replace('a', 'b'));
      }
    } finally {
      await client.end();
    }
  });

  it('rejects table names that are not plain identifiers', () => {
    expect(
      () => new PostgresChatMemoryRepository({ pool: pool(), tablePrefix: 'x"; DROP TABLE y; --' }),
    ).toThrow('tablePrefix must be letters');
  });
});
