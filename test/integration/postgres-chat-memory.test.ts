import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryError } from '../../src/errors/index.js';
import { MessageWindowChatMemory } from '../../src/memory/index.js';
import {
  PostgresChatMemoryRepository,
  postgresChatMemoryMigration,
} from '../../src/memory/postgres/index.js';
import { migratePostgresChatMemory } from '../../src/memory/postgres/postgres-schema.js';
import { chatMemoryRepositoryContract, EARLIER_TURN, LATE_TURN } from './chat-memory-contract.js';
import { FaultInjector } from './fault-injection.js';
import { serviceUrl } from './services.js';

const database = serviceUrl('DATABASE_URL');
const schema = `toolloop_test_${process.pid}_${Date.now().toString(36)}`;
const pools: pg.Pool[] = [];
let tables = 0;

function pool(): pg.Pool {
  // Idle connections close fast: the suite creates many pools on a server other suites share.
  const created = new pg.Pool({ connectionString: database.url, max: 10, idleTimeoutMillis: 500 });
  created.on('error', () => {});
  pools.push(created);
  return created;
}

/** Row locks a test holds; released before the schema is dropped, even when the test failed. */
const heldLocks: (() => Promise<void>)[] = [];

afterAll(async () => {
  if (database.skip) return;
  for (const release of heldLocks) await release();
  const admin = pool();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await Promise.all(pools.map((created) => created.end()));
});

/** Holds a conversation's row lock from another connection until `release()`. */
async function lockConversation(tablePrefix: string, conversationId = 'c') {
  const key = createHash('sha256').update(Buffer.from(conversationId, 'utf16le')).digest('hex');
  const locker = new pg.Client({ connectionString: database.url });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query(
    `SELECT 1 FROM "${schema}".${tablePrefix}_conversations WHERE conversation_key = $1 FOR UPDATE`,
    [key],
  );
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await locker.query('COMMIT');
    await locker.end();
  };
  heldLocks.push(release);
  return release;
}

describe.skipIf(database.skip)(
  'PostgresChatMemoryRepository meets the chat memory contract',
  () => {
    chatMemoryRepositoryContract({
      backend: 'postgres',
      propertyRuns: 30,
      storesRawRows: true,
      create: async (settings = {}) => {
        const tablePrefix = `chat_${++tables}`;
        const raw = pool();
        return {
          repository: new PostgresChatMemoryRepository({
            pool: pool(),
            schema,
            tablePrefix,
            ...settings,
          }),
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
      createFaulty: async (injector) => {
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

describe.skipIf(database.skip)('PostgresChatMemoryRepository after a timeout', () => {
  const before = EARLIER_TURN;
  const turn = LATE_TURN;

  it('a write blocked by a held lock: the caller gets a MemoryError (outcome unchanged), no statement is sent after it, and nothing is committed once the lock goes', async () => {
    const tablePrefix = `timeout_${++tables}`;
    const sibling = new PostgresChatMemoryRepository({ pool: pool(), schema, tablePrefix });
    const injector = new FaultInjector(['query']);
    const repository = new PostgresChatMemoryRepository({
      pool: injector.wrap(pool()),
      schema,
      tablePrefix,
      timeoutMs: 300,
    });
    const memory = new MessageWindowChatMemory({ repository });
    await repository.migrate();
    injector.arm(Number.MAX_SAFE_INTEGER, 'error');
    for (const [name, run] of [
      ['append', () => repository.append('c', turn)],
      ['window add', () => memory.add('c', turn)],
      ['saveAll', () => repository.saveAll('c', turn)],
    ] as const) {
      await sibling.saveAll('c', before);
      const release = await lockConversation(tablePrefix);
      const error = await run().catch((caught: unknown) => caught);
      const sentAtError = injector.count;
      expect(error, name).toBeInstanceOf(MemoryError);
      expect((error as Error).message).toMatch(/timed out after 300 ms/);
      expect((error as MemoryError).outcome, name).toBe('unchanged');
      await new Promise((resolve) => setTimeout(resolve, 300));
      await release();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(injector.count, `${name}: statements after the error`).toBe(sentAtError);
      expect(await sibling.findByConversationId('c'), name).toEqual(before);
    }
  });

  it('a pool checkout that arrives after the timeout runs no statement: nothing is stored', async () => {
    const tablePrefix = `timeout_${++tables}`;
    const sibling = new PostgresChatMemoryRepository({ pool: pool(), schema, tablePrefix });
    await sibling.saveAll('c', before);
    const small = new pg.Pool({ connectionString: database.url, max: 1 });
    small.on('error', () => {});
    pools.push(small);
    const injector = new FaultInjector(['query']);
    const repository = new PostgresChatMemoryRepository({
      pool: injector.wrap(small),
      schema,
      tablePrefix,
      timeoutMs: 300,
    });
    await repository.findByConversationId('c');
    injector.arm(Number.MAX_SAFE_INTEGER, 'error');
    const held = await small.connect();
    const error = await repository.append('c', turn).catch((caught: unknown) => caught);
    const sentAtError = injector.count;
    expect(error).toBeInstanceOf(MemoryError);
    expect((error as MemoryError).outcome).toBe('unchanged');
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(injector.count - sentAtError).toBe(0);
    expect(await sibling.findByConversationId('c')).toEqual(before);
  });

  it('over a single Client: a timed-out append is rolled back, and the next operation on the client runs on its own', async () => {
    const tablePrefix = `timeout_${++tables}`;
    const sibling = new PostgresChatMemoryRepository({ pool: pool(), schema, tablePrefix });
    await sibling.saveAll('c', before);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const repository = new PostgresChatMemoryRepository({
        client,
        schema,
        tablePrefix,
        timeoutMs: 300,
      });
      await repository.findByConversationId('c');
      const release = await lockConversation(tablePrefix);
      const error = await repository.append('c', turn).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MemoryError);
      expect((error as MemoryError).outcome).toBe('unchanged');
      const next = repository.append('other', turn);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await release();
      await next;
      expect(await sibling.findByConversationId('c')).toEqual(before);
      expect(await sibling.findByConversationId('other')).toEqual(turn);
    } finally {
      await client.end();
    }
  });
});

describe.skipIf(database.skip)(
  'PostgresChatMemoryRepository when the server ends its connection',
  () => {
    // pg emits 'error' on a checked-out client whose connection dies, and a pool listens only to
    // the clients it holds idle: with no listener of the repository's, the error was uncaught and
    // took the process down (Vitest reports it as an unhandled error and fails the run).
    it('a backend terminated while the repository holds its pooled connection fails the operation with a MemoryError, crashes nothing, and the next operation runs on a new connection', async () => {
      const tablePrefix = `terminated_${++tables}`;
      const applicationName = `toolloop-terminated-${process.pid}-${tables}`;
      const userPool = new pg.Pool({
        connectionString: database.url,
        max: 2,
        application_name: applicationName,
      });
      userPool.on('error', () => {});
      pools.push(userPool);
      const repository = new PostgresChatMemoryRepository({ pool: userPool, schema, tablePrefix });
      const memory = new MessageWindowChatMemory({ repository });
      await repository.saveAll('c', EARLIER_TURN);
      const release = await lockConversation(tablePrefix, 'c');
      const admin = pool();
      const uncaught: unknown[] = [];
      const onUncaught = (error: unknown) => uncaught.push(error);
      process.prependListener('uncaughtException', onUncaught);
      try {
        const adding = memory.add('c', LATE_TURN).catch((caught: unknown) => caught);
        // Wait until the add's statement waits for the lock, then end its backend.
        let terminated = 0;
        for (let attempt = 0; attempt < 100 && terminated === 0; attempt++) {
          const result = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
           WHERE application_name = $1 AND wait_event_type = 'Lock'`,
            [applicationName],
          );
          terminated = result.rows.length;
          if (terminated === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(terminated).toBe(1);
        const error = await adding;
        expect(error).toBeInstanceOf(MemoryError);
        expect(error).toMatchObject({
          backend: 'postgres',
          conversationId: 'c',
          outcome: 'unchanged',
        });
        // Let the dead socket close: its 'error' event comes after the statement failed.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(uncaught).toEqual([]);
      } finally {
        process.removeListener('uncaughtException', onUncaught);
        await release();
      }
      expect(await repository.findByConversationId('c')).toEqual(EARLIER_TURN);
      await memory.add('c', LATE_TURN);
      expect(await repository.findByConversationId('c')).toEqual([...EARLIER_TURN, ...LATE_TURN]);
    });
  },
);

describe.skipIf(database.skip)(
  'PostgresChatMemoryRepository on a single Client inside a transaction of its owner',
  () => {
    // BEGIN inside the owner's transaction is only a warning in PostgreSQL: the repository's
    // statements joined it and its COMMIT committed the owner's unfinished work (their ROLLBACK
    // then undid nothing), or its ROLLBACK threw that work away.
    it('refuses to write with a MemoryError and leaves the transaction and its work to its owner', async () => {
      const tablePrefix = `owner_${++tables}`;
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(`CREATE TABLE "${schema}".${tablePrefix}_orders (id int)`);
        const fresh = new PostgresChatMemoryRepository({ client, schema, tablePrefix });
        await client.query('BEGIN');
        await client.query(`INSERT INTO "${schema}".${tablePrefix}_orders VALUES (1)`);
        // The first operation would migrate: that is a transaction too.
        const first = await fresh.append('c', EARLIER_TURN).catch((caught: unknown) => caught);
        expect(first).toBeInstanceOf(MemoryError);
        expect(client.getTransactionStatus()).toBe('T');
        await client.query('ROLLBACK');

        const repository = new PostgresChatMemoryRepository({ client, schema, tablePrefix });
        await repository.append('c', EARLIER_TURN);
        await client.query('BEGIN');
        await client.query(`INSERT INTO "${schema}".${tablePrefix}_orders VALUES (1)`);
        for (const write of [
          () => repository.append('c', LATE_TURN),
          () => new MessageWindowChatMemory({ repository }).add('c', LATE_TURN),
          () => repository.saveAll('c', LATE_TURN),
          () => repository.deleteByConversationId('c'),
        ]) {
          const error = await write().catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(MemoryError);
          expect(error).toMatchObject({
            backend: 'postgres',
            conversationId: 'c',
            outcome: 'unchanged',
          });
          expect((error as Error).message).toContain('in a transaction it did not begin');
          expect(client.getTransactionStatus()).toBe('T');
        }
        // A single-use approval token taken there would be given back by the owner's rollback.
        const expiresAt = new Date(Date.now() + 60_000);
        const token = await repository
          .consumeApprovalToken(`single-use-token-${tablePrefix}`, expiresAt)
          .catch((caught: unknown) => caught);
        expect(token).toBeInstanceOf(MemoryError);
        expect((token as Error).message).toContain('in a transaction it did not begin');
        expect(client.getTransactionStatus()).toBe('T');
        await client.query('ROLLBACK');
        expect(
          await repository.consumeApprovalToken(`single-use-token-${tablePrefix}`, expiresAt),
        ).toBe(true);
        expect(
          await repository.consumeApprovalToken(`single-use-token-${tablePrefix}`, expiresAt),
        ).toBe(false);
        const orders = await client.query(
          `SELECT count(*)::int AS n FROM "${schema}".${tablePrefix}_orders`,
        );
        expect(orders.rows).toEqual([{ n: 0 }]);
        expect(await repository.findByConversationId('c')).toEqual(EARLIER_TURN);
      } finally {
        await client.end();
      }
    });
  },
);
