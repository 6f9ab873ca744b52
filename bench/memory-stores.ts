import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { InMemoryChatMemoryRepository, type Message } from 'toolloop';
import { PostgresChatMemoryRepository } from 'toolloop/memory/postgres';
import { RedisChatMemoryRepository } from 'toolloop/memory/redis';
import { SqliteChatMemoryRepository } from 'toolloop/memory/sqlite';
import { check, count, fmt, fmtBytes, fmtRatio, progress, table, verdict } from './lib/harness.js';
import {
  type BareStore,
  barePostgres,
  bareRedis,
  bareSqlite,
} from './lib/stores/bare-store-drivers.js';

/**
 * Chat memory stores: appends per second and reads per second per backend, with 1, 10 and 100
 * conversations written concurrently (one sequential writer per conversation, one message per
 * append, as a turn's commit is one append), through toolloop's repository and through the bare
 * driver sending the same statements (lib/stores/bare-store-drivers.ts). Afterwards every
 * conversation is read back and must hold exactly its messages in order: 0 lost, 0 duplicated,
 * 0 reordered, or the benchmark fails. Storage: bytes per stored message, and conversations per
 * GB.
 */

const APPENDS = count(4_000, 40);
const LEVELS = [1, 10, 100];
const REPETITIONS = count(2, 1);
/** The conversation size the "per GB" column assumes. */
const MESSAGES_PER_CONVERSATION = 20;
const loadAtStart = loadavg();

/** A toolloop repository or a bare driver: the two operations measured. */
type Store = BareStore;

interface Backend {
  name: string;
  durability: string;
  /** toolloop's repository and the bare driver for one level, on separate tables / keys. */
  open(level: number): Promise<{ toolloop: Store; bare: Store | undefined }>;
  /** Bytes the backend holds for toolloop's conversations of `level`. */
  storedBytes?(level: number): Promise<number>;
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

async function measureLevel(store: Store, level: number, tag: string) {
  const perConversation = Math.max(1, Math.floor(APPENDS / level));
  const ids = Array.from({ length: level }, (_, index) => `bench-${tag}-${level}-${index}`);
  let started = performance.now();
  await Promise.all(
    ids.map(async (id, conversation) => {
      for (let index = 0; index < perConversation; index++) {
        await store.append(id, [message(conversation, index)]);
      }
    }),
  );
  const appendMs = performance.now() - started;

  const readsPerConversation = Math.max(1, Math.floor(perConversation / 4));
  started = performance.now();
  await Promise.all(
    ids.map(async (id) => {
      for (let read = 0; read < readsPerConversation; read++) {
        await store.findByConversationId(id);
      }
    }),
  );
  const readMs = performance.now() - started;

  let lost = 0;
  for (const [conversation, id] of ids.entries()) {
    const stored = await store.findByConversationId(id);
    const expected = Array.from({ length: perConversation }, (_, index) =>
      message(conversation, index),
    );
    if (!isDeepStrictEqual(stored, expected)) {
      lost += Math.abs(perConversation - stored.length) || 1;
    }
  }
  check(lost === 0, `${tag}: ${lost} messages lost, duplicated or reordered`);
  return {
    appendsPerSecond: (perConversation * level) / (appendMs / 1000),
    readsPerSecond: (readsPerConversation * level) / (readMs / 1000),
    perConversation,
    messages: perConversation * level,
  };
}

function backends(): Backend[] {
  const list: Backend[] = [
    {
      name: 'in-memory',
      durability: 'none (process memory)',
      open: async () => ({ toolloop: new InMemoryChatMemoryRepository(), bare: undefined }),
      close: async () => {},
    },
  ];
  for (const synchronous of ['FULL', 'NORMAL'] as const) {
    const directory = mkdtempSync(join(tmpdir(), 'toolloop-bench-sqlite-'));
    const databases = new Map<string, Database.Database>();
    const open = (name: string) => {
      const database = new Database(join(directory, `${name}.db`));
      databases.set(name, database);
      return database;
    };
    list.push({
      name: `SQLite (WAL, synchronous=${synchronous})`,
      durability: synchronous === 'FULL' ? 'survives power loss' : 'survives a process crash',
      open: async (level) => {
        const bare = open(`bare-${level}`);
        const store = bareSqlite(bare, 'bench_chat_memory');
        bare.pragma(`synchronous = ${synchronous}`);
        return {
          toolloop: new SqliteChatMemoryRepository({
            database: open(`toolloop-${level}`),
            synchronous,
          }),
          bare: store,
        };
      },
      storedBytes: async (level) => {
        const database = databases.get(`toolloop-${level}`)!;
        database.pragma('wal_checkpoint(TRUNCATE)');
        return statSync(join(directory, `toolloop-${level}.db`)).size;
      },
      close: async () => {
        for (const database of databases.values()) database.close();
        rmSync(directory, { recursive: true, force: true });
      },
    });
  }
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    const client = new Redis(redisUrl);
    const prefix = `toolloop-bench:${process.pid}:`;
    const scan = async (pattern: string, each: (keys: string[]) => Promise<unknown>) => {
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await each(keys);
      } while (cursor !== '0');
    };
    list.push({
      name: 'Redis',
      durability: 'per server config (appendfsync)',
      open: async (level) => ({
        toolloop: new RedisChatMemoryRepository({ client, keyPrefix: `${prefix}t${level}:` }),
        bare: bareRedis(client, `${prefix}b${level}:`),
      }),
      storedBytes: async (level) => {
        let bytes = 0;
        await scan(`${prefix}t${level}:*`, async (keys) => {
          for (const key of keys) bytes += Number(await client.memory('USAGE', key));
        });
        return bytes;
      },
      close: async () => {
        await scan(`${prefix}*`, (keys) => client.del(...keys));
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
    const tables = (prefix: string) =>
      [`"${schema}"."${prefix}_conversations"`, `"${schema}"."${prefix}_messages"`] as const;
    list.push({
      name: 'PostgreSQL (pool of 20)',
      durability: 'synchronous commit',
      open: async (level) => {
        // The bare driver writes to the repository's tables, created by its migration.
        const bareTables = new PostgresChatMemoryRepository({
          pool,
          schema,
          tablePrefix: `bare_${level}`,
        });
        await bareTables.migrate();
        const [conversations, messages] = tables(`bare_${level}`);
        return {
          toolloop: new PostgresChatMemoryRepository({
            pool,
            schema,
            tablePrefix: `level_${level}`,
          }),
          bare: barePostgres(pool, conversations, messages),
        };
      },
      storedBytes: async (level) => {
        const [conversations, messages] = tables(`level_${level}`);
        await pool.query(`VACUUM ${conversations}, ${messages}`);
        const result = await pool.query(
          `SELECT pg_total_relation_size($1::regclass) + pg_total_relation_size($2::regclass) AS bytes`,
          [conversations, messages],
        );
        return Number(result.rows[0].bytes);
      },
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

interface Figures {
  appendsPerSecond: number[];
  readsPerSecond: number[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1]!;
const rows: string[][] = [];
const storageRows: string[][] = [];
const worst = { appends: Number.POSITIVE_INFINITY, reads: Number.POSITIVE_INFINITY, where: '' };
for (const backend of backends()) {
  try {
    for (const level of LEVELS) {
      progress(`${backend.name}: ${level} concurrent conversation(s)`);
      const stores = await backend.open(level);
      // One untimed append each creates the schema, so table creation is not measured.
      await stores.toolloop.append('warm-up', [message(0, 0)]);
      await stores.bare?.append('warm-up', [message(0, 0)]);
      const ours: Figures = { appendsPerSecond: [], readsPerSecond: [] };
      const bare: Figures = { appendsPerSecond: [], readsPerSecond: [] };
      let perConversation = 0;
      let messages = 1;
      // Repetitions take turns (toolloop first, then the bare driver first, …), so load from
      // elsewhere falls on both alike.
      for (let repetition = 0; repetition < REPETITIONS; repetition++) {
        const order =
          repetition % 2 === 0 ? (['ours', 'bare'] as const) : (['bare', 'ours'] as const);
        for (const which of order) {
          const store = which === 'ours' ? stores.toolloop : stores.bare;
          if (store === undefined) continue;
          const result = await measureLevel(store, level, `${which}${repetition}`);
          const figures = which === 'ours' ? ours : bare;
          figures.appendsPerSecond.push(result.appendsPerSecond);
          figures.readsPerSecond.push(result.readsPerSecond);
          perConversation = result.perConversation;
          if (which === 'ours') messages += result.messages;
        }
      }
      const appendRatio = stores.bare
        ? median(ours.appendsPerSecond) / median(bare.appendsPerSecond)
        : Number.NaN;
      const readRatio = stores.bare
        ? median(ours.readsPerSecond) / median(bare.readsPerSecond)
        : Number.NaN;
      if (stores.bare) {
        if (Math.min(appendRatio, readRatio) < Math.min(worst.appends, worst.reads)) {
          worst.where = `${backend.name}, ${level} conversation(s)`;
        }
        worst.appends = Math.min(worst.appends, appendRatio);
        worst.reads = Math.min(worst.reads, readRatio);
      }
      rows.push([
        backend.name,
        String(level),
        fmt(perConversation),
        fmt(median(ours.appendsPerSecond)),
        stores.bare ? fmt(median(bare.appendsPerSecond)) : '—',
        stores.bare ? fmtRatio(appendRatio) : '—',
        fmt(median(ours.readsPerSecond)),
        stores.bare ? fmt(median(bare.readsPerSecond)) : '—',
        stores.bare ? fmtRatio(readRatio) : '—',
        '0',
        backend.durability,
      ]);
      if (level === LEVELS[LEVELS.length - 1] && backend.storedBytes) {
        const bytes = await backend.storedBytes(level);
        const perMessage = bytes / messages;
        storageRows.push([
          backend.name,
          fmt(messages),
          fmtBytes(bytes),
          fmtBytes(perMessage),
          fmt(1024 ** 3 / (perMessage * MESSAGES_PER_CONVERSATION)),
        ]);
      }
    }
  } finally {
    await backend.close();
  }
}

const met = worst.appends >= 0.8 && worst.reads >= 0.8;
console.log(`## Chat memory stores

${APPENDS.toLocaleString('en-US')} appends per row (one message each) spread over 1, 10 or 100
conversations written concurrently, one sequential writer per conversation; then each conversation
is read back a quarter as many times as it was appended to (reads return the whole conversation, so
they grow with it). Every conversation is then checked message by message: 0 lost, duplicated or
reordered. Each row runs toolloop's repository and the bare driver sending the same statements (the
repository's SQL, transactions and Redis script, read off its source: \`lib/stores/bare-store-drivers.ts\`)
on separate tables or keys, ${REPETITIONS} repetitions each taking turns; median. Local servers on
loopback; Redis as started by \`scripts/services.sh\` (no AOF), so its durability is whatever the
server is configured for. Load average at the start: ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')} on 2 cores.

${table(
  [
    'backend',
    'conversations',
    'messages each',
    'appends/s',
    'bare driver appends/s',
    'toolloop ÷ bare',
    'reads/s',
    'bare driver reads/s',
    'toolloop ÷ bare',
    'lost',
    'durability',
  ],
  rows,
)}

Storage, after the 100-conversation row (toolloop's tables or keys only; SQLite: the database file
after a WAL checkpoint; Redis: \`MEMORY USAGE\` of every key; PostgreSQL: both tables with their
indexes and TOAST after \`VACUUM\`). Each message here is about 150 bytes of JSON; conversations per
GB assumes ${MESSAGES_PER_CONVERSATION} such messages each.

${table(['backend', 'messages stored', 'bytes', 'per message', 'conversations per GB'], storageRows)}

Targets:

- At least 0.8× the bare driver's throughput: worst ${fmtRatio(worst.appends)} on appends, ${fmtRatio(worst.reads)} on reads (${worst.where}) — ${verdict(met)}.
`);
