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
 * driver sending the same statements (lib/stores/bare-store-drivers.ts). The two take turns in
 * short rounds, so a shared machine's load falls on both alike. Afterwards every conversation is
 * read back and must hold exactly its messages in order: 0 lost, 0 duplicated, 0 reordered, or
 * the benchmark fails. Storage: bytes per stored message, and conversations per GB.
 */

const APPENDS = count(4_000, 40);
const LEVELS = [1, 10, 100];
/** Rounds per level: each round, toolloop and the bare driver each do their share, taking turns. */
const ROUNDS = count(8, 2);
/** The conversation size the "per GB" column assumes. */
const MESSAGES_PER_CONVERSATION = 20;
const loadAtStart = loadavg();

/** A toolloop repository or a bare driver: the two operations measured. */
type Store = BareStore;

interface Backend {
  name: string;
  durability: string;
  /** toolloop's repository and the bare driver for one level, on separate tables / keys. */
  open(
    level: number,
  ): Promise<{ toolloop: Store; bare: Store | undefined; bareWithBusySwitch?: Store }>;
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

/** Wall time and this process's CPU time (user + system) of `work`. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuUs: used.user + used.system };
}

/** What one store did over all rounds of a level, and each round's throughput. */
interface Tally {
  appendMs: number;
  appendCpuUs: number;
  readMs: number;
  readCpuUs: number;
  appendRounds: number[];
  readRounds: number[];
}

const tally = (): Tally => ({
  appendMs: 0,
  appendCpuUs: 0,
  readMs: 0,
  readCpuUs: 0,
  appendRounds: [],
  readRounds: [],
});

/**
 * One level: the stores take turns, round by round (toolloop first in even rounds, the bare
 * driver first in odd ones), first appending, then reading; then every conversation is checked.
 */
async function measureLevel(stores: Map<string, Store>, level: number) {
  const perConversation = Math.max(1, Math.floor(APPENDS / level));
  const readsPerConversation = Math.max(1, Math.floor(perConversation / 4));
  const ids = (tag: string) =>
    Array.from({ length: level }, (_, index) => `bench-${tag}-${level}-${index}`);
  const tallies = new Map([...stores.keys()].map((name) => [name, tally()]));
  const turns = (round: number) => {
    const names = [...stores.keys()];
    return round % 2 === 0 ? names : names.reverse();
  };
  const slice = (total: number, round: number) => {
    const size = Math.ceil(total / ROUNDS);
    return [round * size, Math.min(total, (round + 1) * size)] as const;
  };
  /**
   * `total` operations per conversation in ROUNDS rounds, the stores taking turns in each; every
   * conversation of a store runs `operate(from, to)` concurrently, one operation after another.
   */
  const rounds = async (
    total: number,
    operate: (store: Store, id: string, conversation: number, index: number) => Promise<unknown>,
    record: (figures: Tally, ms: number, cpuUs: number, perSecond: number) => void,
  ) => {
    for (let round = 0; round < ROUNDS; round++) {
      const [from, to] = slice(total, round);
      if (from >= to) continue;
      for (const name of turns(round)) {
        const store = stores.get(name)!;
        const { ms, cpuUs } = await timed(() =>
          Promise.all(
            ids(name).map(async (id, conversation) => {
              for (let index = from; index < to; index++) {
                await operate(store, id, conversation, index);
              }
            }),
          ),
        );
        record(tallies.get(name)!, ms, cpuUs, ((to - from) * level) / ms);
      }
    }
  };
  await rounds(
    perConversation,
    (store, id, conversation, index) => store.append(id, [message(conversation, index)]),
    (figures, ms, cpuUs, perSecond) => {
      figures.appendMs += ms;
      figures.appendCpuUs += cpuUs;
      figures.appendRounds.push(perSecond);
    },
  );
  await rounds(
    readsPerConversation,
    (store, id) => store.findByConversationId(id),
    (figures, ms, cpuUs, perSecond) => {
      figures.readMs += ms;
      figures.readCpuUs += cpuUs;
      figures.readRounds.push(perSecond);
    },
  );

  for (const [name, store] of stores) {
    let lost = 0;
    for (const [conversation, id] of ids(name).entries()) {
      const stored = await store.findByConversationId(id);
      const expected = Array.from({ length: perConversation }, (_, index) =>
        message(conversation, index),
      );
      if (!isDeepStrictEqual(stored, expected)) {
        lost += Math.abs(perConversation - stored.length) || 1;
      }
    }
    check(lost === 0, `${name}: ${lost} messages lost, duplicated or reordered`);
  }
  const appends = perConversation * level;
  const reads = readsPerConversation * level;
  return { tallies, appends, reads, perConversation };
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
        const switched = open(`switch-${level}`);
        const withSwitch = bareSqlite(switched, 'bench_chat_memory', true);
        switched.pragma(`synchronous = ${synchronous}`);
        return {
          toolloop: new SqliteChatMemoryRepository({
            database: open(`toolloop-${level}`),
            synchronous,
          }),
          bare: store,
          bareWithBusySwitch: withSwitch,
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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
/** Median over the rounds of toolloop's throughput ÷ the bare driver's in the same round. */
const roundRatio = (ours: number[], bare: number[]) =>
  median(ours.map((value, round) => value / bare[round]!));
const cpuPair = (ours: number, bare: number | undefined) =>
  bare === undefined ? fmt(ours) : `${fmt(ours)} / ${fmt(bare)}`;

const rows: string[][] = [];
const switchRows: string[][] = [];
const below: string[] = [];
const storageRows: string[][] = [];
const worst = { appends: Number.POSITIVE_INFINITY, reads: Number.POSITIVE_INFINITY, where: '' };
const worstAppendsWhere: string[] = [];
const worstReadsWhere: string[] = [];
for (const backend of backends()) {
  try {
    for (const level of LEVELS) {
      progress(`${backend.name}: ${level} concurrent conversation(s)`);
      const opened = await backend.open(level);
      // One untimed append each creates the schema, so table creation is not measured.
      await opened.toolloop.append('warm-up', [message(0, 0)]);
      await opened.bare?.append('warm-up', [message(0, 0)]);
      const stores = new Map<string, Store>([['toolloop', opened.toolloop]]);
      if (opened.bare) stores.set('bare', opened.bare);
      if (opened.bareWithBusySwitch) stores.set('switch', opened.bareWithBusySwitch);
      const { tallies, appends, reads, perConversation } = await measureLevel(stores, level);
      const ours = tallies.get('toolloop')!;
      const bare = tallies.get('bare');
      const appendRatio = bare ? roundRatio(ours.appendRounds, bare.appendRounds) : Number.NaN;
      const readRatio = bare ? roundRatio(ours.readRounds, bare.readRounds) : Number.NaN;
      const where = `${backend.name}, ${level} conversation${level === 1 ? '' : 's'}`;
      if (bare) {
        if (appendRatio < 0.8) below.push(`${where}: appends ${fmtRatio(appendRatio)}`);
        if (readRatio < 0.8) below.push(`${where}: reads ${fmtRatio(readRatio)}`);
        if (appendRatio < worst.appends) worstAppendsWhere.splice(0, 1, where);
        if (readRatio < worst.reads) worstReadsWhere.splice(0, 1, where);
        worst.appends = Math.min(worst.appends, appendRatio);
        worst.reads = Math.min(worst.reads, readRatio);
      }
      const perSecond = (operations: number, ms: number) => fmt(operations / (ms / 1000));
      const switched = tallies.get('switch');
      if (switched) {
        switchRows.push([
          backend.name,
          String(level),
          fmtRatio(appendRatio),
          fmtRatio(roundRatio(ours.appendRounds, switched.appendRounds)),
          fmtRatio(readRatio),
          fmtRatio(roundRatio(ours.readRounds, switched.readRounds)),
        ]);
      }
      rows.push([
        backend.name,
        String(level),
        fmt(perConversation),
        perSecond(appends, ours.appendMs),
        bare ? perSecond(appends, bare.appendMs) : '—',
        bare ? fmtRatio(appendRatio) : '—',
        cpuPair(ours.appendCpuUs / appends, bare && bare.appendCpuUs / appends),
        perSecond(reads, ours.readMs),
        bare ? perSecond(reads, bare.readMs) : '—',
        bare ? fmtRatio(readRatio) : '—',
        cpuPair(ours.readCpuUs / reads, bare && bare.readCpuUs / reads),
        '0',
        backend.durability,
      ]);
      if (level === LEVELS[LEVELS.length - 1] && backend.storedBytes) {
        const messages = appends + 1;
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
worst.where = `appends: ${worstAppendsWhere[0] ?? '—'}; reads: ${worstReadsWhere[0] ?? '—'}`;

const met = worst.appends >= 0.8 && worst.reads >= 0.8;
console.log(`## Chat memory stores

${APPENDS.toLocaleString('en-US')} appends per row (one message each) spread over 1, 10 or 100
conversations written concurrently, one sequential writer per conversation; then each conversation
is read back a quarter as many times as it was appended to (reads return the whole conversation, so
they grow with it). Every conversation is then checked message by message: 0 lost, duplicated or
reordered. Each row runs toolloop's repository and the bare driver sending the same statements (the
repository's SQL, transactions and Redis script, read off its source: \`lib/stores/bare-store-drivers.ts\`)
on separate tables or keys. They take turns in ${ROUNDS} rounds per row (toolloop first, then the bare
driver first, …), each doing its share of the appends, then of the reads, so load from elsewhere falls
on both alike; the throughput columns are over all rounds, **toolloop ÷ bare** is the median over the
rounds of the ratio within the round. **CPU µs / op** is this process's CPU time (user + system) per
append or read, toolloop / bare driver: the client's work alone, which the shared machine's load
inflates less than wall time (the servers' work is not in it). Local servers on loopback; Redis as
started by \`scripts/services.sh\` (no AOF), so its durability is whatever the server is configured
for. Load average at the start: ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')} on 2 cores.

${table(
  [
    'backend',
    'conversations',
    'messages each',
    'appends/s',
    'bare driver appends/s',
    'toolloop ÷ bare',
    'append CPU µs / op',
    'reads/s',
    'bare driver reads/s',
    'toolloop ÷ bare',
    'read CPU µs / op',
    'lost',
    'durability',
  ],
  rows,
)}

SQLite runs a third contestant in the same rounds: the bare driver plus what the repository does
around every operation so that a database another process has locked is waited for on a timer
instead of inside SQLite's busy handler, which would block the event loop for up to the connection's
timeout (5 s by default in better-sqlite3): read the connection's busy timeout (one plucked prepared
statement: the database is the caller's, who may change it), set it to 0 and put it back, both
riding in the \`exec\` of \`BEGIN IMMEDIATE\` and of \`COMMIT\` (a read: an \`exec\` before and one
after). Against it, what is left is the rest of toolloop's work:

${table(
  [
    'backend',
    'conversations',
    'appends: ÷ bare',
    'appends: ÷ bare + busy switch',
    'reads: ÷ bare',
    'reads: ÷ bare + busy switch',
  ],
  switchRows,
)}

Storage, after the 100-conversation row (toolloop's tables or keys only; SQLite: the database file
after a WAL checkpoint; Redis: \`MEMORY USAGE\` of every key; PostgreSQL: both tables with their
indexes and TOAST after \`VACUUM\`). Each message here is about 150 bytes of JSON; conversations per
GB assumes ${MESSAGES_PER_CONVERSATION} such messages each.

${table(['backend', 'messages stored', 'bytes', 'per message', 'conversations per GB'], storageRows)}

Targets:

- At least 0.8× the bare driver's throughput: worst ${fmtRatio(worst.appends)} on appends, ${fmtRatio(worst.reads)} on reads (${worst.where}) — ${verdict(met)}${below.length > 0 ? `; under 0.8×: ${below.join('; ')}` : ''}.
`);
