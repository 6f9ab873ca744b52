import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { type ChatMemoryRepository, InMemoryChatMemoryRepository, type Message } from 'toolloop';
import { PostgresChatMemoryRepository } from 'toolloop/memory/postgres';
import { RedisChatMemoryRepository } from 'toolloop/memory/redis';
import { SqliteChatMemoryRepository } from 'toolloop/memory/sqlite';
import { check, count, fmt, progress, table } from './lib/harness.js';

/**
 * Chat memory stores: appends per second and reads per second per backend, with 1, 10 and 100
 * conversations written concurrently (one sequential writer per conversation, one message per
 * append, as a turn's commit is one append). Afterwards every conversation is read back and must
 * hold exactly its messages in order: 0 lost, 0 duplicated, 0 reordered, or the benchmark fails.
 */

const APPENDS = count(4_000, 40);
const LEVELS = [1, 10, 100];

interface Backend {
  name: string;
  durability: string;
  open(level: number): Promise<ChatMemoryRepository>;
  close(): Promise<void>;
}

function message(conversation: number, index: number): Message {
  return {
    role: index % 2 === 0 ? 'user' : 'assistant',
    text: `conversation ${conversation} message ${index}: the weather in Paris is mild, 18 degrees`,
    ...(index % 2 === 0 ? {} : { toolCalls: [] }),
    metadata: { conversation, index },
  } as Message;
}

async function measureLevel(repository: ChatMemoryRepository, level: number) {
  const perConversation = Math.max(1, Math.floor(APPENDS / level));
  const ids = Array.from({ length: level }, (_, index) => `bench-${level}-${index}`);
  let started = performance.now();
  await Promise.all(
    ids.map(async (id, conversation) => {
      for (let index = 0; index < perConversation; index++) {
        await repository.append(id, [message(conversation, index)]);
      }
    }),
  );
  const appendMs = performance.now() - started;

  const readsPerConversation = Math.max(1, Math.floor(perConversation / 4));
  started = performance.now();
  await Promise.all(
    ids.map(async (id) => {
      for (let read = 0; read < readsPerConversation; read++) {
        await repository.findByConversationId(id);
      }
    }),
  );
  const readMs = performance.now() - started;

  let lost = 0;
  for (const [conversation, id] of ids.entries()) {
    const stored = await repository.findByConversationId(id);
    const expected = Array.from({ length: perConversation }, (_, index) =>
      message(conversation, index),
    );
    if (!isDeepStrictEqual(stored, expected)) {
      lost += Math.abs(perConversation - stored.length) || 1;
    }
  }
  check(lost === 0, `${lost} messages lost, duplicated or reordered`);
  return {
    appendsPerSecond: (perConversation * level) / (appendMs / 1000),
    readsPerSecond: (readsPerConversation * level) / (readMs / 1000),
    perConversation,
  };
}

function backends(): Backend[] {
  const list: Backend[] = [
    {
      name: 'in-memory',
      durability: 'none (process memory)',
      open: async () => new InMemoryChatMemoryRepository(),
      close: async () => {},
    },
  ];
  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    const directory = mkdtempSync(join(tmpdir(), 'toolloop-bench-sqlite-'));
    const databases: Database.Database[] = [];
    list.push({
      name: `SQLite (WAL, synchronous=${synchronous})`,
      durability: synchronous === 'FULL' ? 'survives power loss' : 'survives a process crash',
      open: async (level) => {
        const database = new Database(join(directory, `level-${level}.db`));
        databases.push(database);
        return new SqliteChatMemoryRepository({ database, synchronous });
      },
      close: async () => {
        for (const database of databases) database.close();
        rmSync(directory, { recursive: true, force: true });
      },
    });
  }
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    const client = new Redis(redisUrl);
    const prefix = `toolloop-bench:${process.pid}:`;
    list.push({
      name: 'Redis',
      durability: 'per server config (appendfsync)',
      open: async (level) =>
        new RedisChatMemoryRepository({ client, keyPrefix: `${prefix}${level}:` }),
      close: async () => {
        let cursor = '0';
        do {
          const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await client.del(...keys);
        } while (cursor !== '0');
        await client.quit();
      },
    });
  } else {
    progress('REDIS_URL is not set: Redis is left out');
  }
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
    const schema = `toolloop_bench_${process.pid}`;
    list.push({
      name: 'PostgreSQL (pool of 20)',
      durability: 'synchronous commit',
      open: async (level) =>
        new PostgresChatMemoryRepository({ pool, schema, tablePrefix: `level_${level}` }),
      close: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      },
    });
  } else {
    progress('DATABASE_URL is not set: PostgreSQL is left out');
  }
  return list;
}

const rows: string[][] = [];
for (const backend of backends()) {
  try {
    for (const level of LEVELS) {
      progress(`${backend.name}: ${level} concurrent conversation(s)`);
      const repository = await backend.open(level);
      // One untimed append creates the schema, so table creation is not measured.
      await repository.append('warm-up', [message(0, 0)]);
      const result = await measureLevel(repository, level);
      rows.push([
        backend.name,
        String(level),
        fmt(result.perConversation),
        fmt(result.appendsPerSecond),
        fmt(result.readsPerSecond),
        '0',
        backend.durability,
      ]);
    }
  } finally {
    await backend.close();
  }
}

console.log(`## Chat memory stores

${APPENDS.toLocaleString('en-US')} appends per row (one message each) spread over 1, 10 or 100
conversations written concurrently, one sequential writer per conversation; then each conversation
is read back a quarter as many times as it was appended to (reads return the whole conversation, so
they grow with it). Every conversation is then checked message by message: 0 lost, duplicated or
reordered. Local servers on loopback; Redis as started by \`scripts/services.sh\` (no AOF), so its
durability is whatever the server is configured for.

${table(
  ['backend', 'conversations', 'messages each', 'appends/s', 'reads/s', 'lost', 'durability'],
  rows,
)}
`);
