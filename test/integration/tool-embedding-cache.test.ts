import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { EmbeddingModel } from '../../src/embeddings/embedding-model.js';
import { HashingEmbeddingModel } from '../../src/embeddings/testing/hashing-embedding-model.js';
import type { ToolEmbeddingCache } from '../../src/embeddings/tool-embedding-cache.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { PostgresToolEmbeddingCache } from '../../src/memory/postgres/index.js';
import { RedisToolEmbeddingCache } from '../../src/memory/redis/index.js';
import { SqliteToolEmbeddingCache } from '../../src/memory/sqlite/index.js';
import {
  HybridToolIndex,
  type ToolReference,
  VectorToolIndex,
} from '../../src/tool-search/index.js';
import { serviceUrl } from './services.js';

// Tool embeddings shared through the stores users run: every store keeps what it is given, and
// two indexes that share nothing but the store (each its own client or connection, as two
// processes of a fleet) embed a 1,000-tool library once between them.

const redis = serviceUrl('REDIS_URL');
const database = serviceUrl('DATABASE_URL');
const run = `${process.pid}_${Date.now().toString(36)}`;
const cleanups: (() => Promise<void>)[] = [];
const directory = mkdtempSync(join(tmpdir(), 'toolloop-embedding-cache-'));
let stores = 0;

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(directory, { recursive: true, force: true });
});

/** Opens a new client or connection to one shared store, as another process would. */
type StoreOpener = () => ToolEmbeddingCache;

/** A fresh, empty store; `open` gives a new client of it each time. */
interface StoreKind {
  name: string;
  skip: boolean;
  create(): StoreOpener;
}

const kinds: StoreKind[] = [
  {
    name: 'SQLite (one file, two connections)',
    skip: false,
    create() {
      const file = join(directory, `cache-${++stores}.db`);
      return () => {
        const connection = new Database(file);
        connection.pragma('journal_mode = WAL');
        cleanups.push(async () => {
          connection.close();
        });
        return new SqliteToolEmbeddingCache({ database: connection });
      };
    },
  },
  {
    name: 'Redis (two clients)',
    skip: redis.skip,
    create() {
      const keyPrefix = `toolloop-test:${run}:${++stores}:`;
      cleanups.push(async () => {
        const cleaner = new Redis(redis.url as string);
        let cursor = '0';
        do {
          const [next, keys] = await cleaner.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length > 0) await cleaner.del(...keys);
        } while (cursor !== '0');
        await cleaner.quit();
      });
      return () => {
        const client = new Redis(redis.url as string, { maxRetriesPerRequest: 1 });
        cleanups.push(async () => {
          await client.quit();
        });
        return new RedisToolEmbeddingCache({ client, keyPrefix, ttlMs: 600_000 });
      };
    },
  },
  {
    name: 'PostgreSQL (two pools)',
    skip: database.skip,
    create() {
      const tableName = `tool_embeddings_${run}_${++stores}`;
      cleanups.push(async () => {
        const admin = new pg.Pool({ connectionString: database.url });
        await admin.query(`DROP TABLE IF EXISTS "${tableName}"`);
        await admin.end();
      });
      return () => {
        const pool = new pg.Pool({ connectionString: database.url, max: 4 });
        pool.on('error', () => {});
        cleanups.push(() => pool.end());
        return new PostgresToolEmbeddingCache({ pool, tableName });
      };
    },
  },
];

/** The hashing model, counting the texts it embeds. */
class CountingEmbeddingModel implements EmbeddingModel {
  readonly id = 'hashing-256';
  texts = 0;
  readonly #model = new HashingEmbeddingModel({ dimensions: 256 });
  embed(texts: readonly string[]): Promise<number[][]> {
    this.texts += texts.length;
    return this.#model.embed(texts);
  }
}

const library = (count: number): ToolReference[] =>
  Array.from({ length: count }, (_, i) => ({
    toolName: `service_${i}_operation`,
    summary: `Runs operation ${i} of the enterprise service catalogue`,
    inputSchema: {
      type: 'object',
      properties: { recordId: { type: 'string', description: `The record of service ${i}` } },
    },
  }));

const vector = (...values: number[]) => Float32Array.from(values);

for (const kind of kinds) {
  describe.skipIf(kind.skip)(`tool embeddings in ${kind.name}`, () => {
    it('returns what was stored, undefined for unknown keys, in the order asked', async () => {
      const cache = kind.create()();
      expect(await cache.get(['a', 'b'])).toEqual([undefined, undefined]);
      await cache.set([
        { key: 'a', vector: vector(0.5, -1.25, 3) },
        { key: 'b', vector: vector(1e-7, 0, -0) },
      ]);
      await cache.set([]);
      const [b, missing, a, again] = await cache.get(['b', 'c', 'a', 'b']);
      expect(a).toEqual(vector(0.5, -1.25, 3));
      expect(b).toEqual(vector(1e-7, 0, -0));
      expect(missing).toBeUndefined();
      expect(again).toEqual(b);
      expect(a).toBeInstanceOf(Float32Array);
    });

    it('overwrites a key already stored, so an entry that was not a vector is repaired', async () => {
      const opener = kind.create();
      const [writer, reader] = [opener(), opener()];
      await writer.set([{ key: 'r', vector: vector(Number.NaN, 1) }]);
      await reader.set([
        { key: 'r', vector: vector(0.5, 1) },
        { key: 'r', vector: vector(0.25, 1) },
      ]);
      expect(await writer.get(['r'])).toEqual([vector(0.25, 1)]);
    });

    it('reads and writes more keys than one statement or script takes', async () => {
      const cache = kind.create()();
      const entries = Array.from({ length: 2_345 }, (_, i) => ({
        key: `k${i}`,
        vector: vector(i, i / 2, -i),
      }));
      await cache.set(entries);
      const read = await cache.get(entries.map((entry) => entry.key));
      expect(read).toEqual(entries.map((entry) => entry.vector));
    });

    it('rejects keys and vectors it cannot store, storing nothing', async () => {
      const cache = kind.create()();
      await expect(cache.get(['' as string])).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(
        cache.set([
          { key: 'fine', vector: vector(1) },
          { key: 'bad', vector: [1, 2] as never },
        ]),
      ).rejects.toThrow('cache vectors must be non-empty Float32Arrays');
      expect(await cache.get(['fine'])).toEqual([undefined]);
    });

    it('lets a fleet embed a 1,000-tool library once: a second index embeds no tool', async () => {
      const open = kind.create();
      const first = new CountingEmbeddingModel();
      const one = new HybridToolIndex({ embeddingModel: first, embeddingCache: open() });
      await one.indexTools('conversation-1', library(1000));
      expect(first.texts).toBe(1000);

      const second = new CountingEmbeddingModel();
      const other = new HybridToolIndex({ embeddingModel: second, embeddingCache: open() });
      const fallbacks: unknown[] = [];
      await other.indexTools('conversation-2', library(1000), {
        onFallback: (fallback) => fallbacks.push(fallback),
      });
      expect(second.texts).toBe(0);
      expect(fallbacks).toEqual([]);
      const query = { sessionId: 'conversation-2', query: 'operation 421 of the service' };
      const found = await other.search(query);
      expect(found.searchMetadata.fallbacks).toBeUndefined();
      expect(found.toolReferences[0]?.toolName).toBe('service_421_operation');
      // Only the query was embedded.
      expect(second.texts).toBe(1);
    });

    it('re-embeds only the tool that changed, in every process', async () => {
      const open = kind.create();
      await new VectorToolIndex({
        embeddingModel: new CountingEmbeddingModel(),
        embeddingCache: open(),
      }).indexTools('s', library(1000));
      const changed = library(1000).map((tool, i) =>
        i === 7 ? { ...tool, summary: 'Cancels a shipment that has not left the warehouse' } : tool,
      );
      const model = new CountingEmbeddingModel();
      const index = new VectorToolIndex({ embeddingModel: model, embeddingCache: open() });
      await index.indexTools('s', changed);
      expect(model.texts).toBe(1);
      const third = new CountingEmbeddingModel();
      await new VectorToolIndex({ embeddingModel: third, embeddingCache: open() }).indexTools(
        's',
        changed,
      );
      expect(third.texts).toBe(0);
    });
  });
}

describe.skipIf(redis.skip)('a tool-embedding store that fails', () => {
  it('costs embeddings, never the indexing, and is reported', async () => {
    const client = new Redis(redis.url as string, { maxRetriesPerRequest: 0, lazyConnect: true });
    client.disconnect();
    const model = new CountingEmbeddingModel();
    const index = new VectorToolIndex({
      embeddingModel: model,
      embeddingCache: new RedisToolEmbeddingCache({ client, keyPrefix: `toolloop-test:${run}:x:` }),
    });
    const fallbacks: { phase: string; source: string; reason: string }[] = [];
    await index.indexTools('s', library(3), { onFallback: (fallback) => fallbacks.push(fallback) });
    expect(index.size('s')).toBe(3);
    expect(model.texts).toBe(3);
    expect(fallbacks.map(({ phase, source, reason }) => [phase, source, reason])).toEqual([
      ['index', 'RedisToolEmbeddingCache', 'error'],
      ['index', 'RedisToolEmbeddingCache', 'error'],
    ]);
  });
});
