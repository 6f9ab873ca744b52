import type {
  ToolEmbeddingCache,
  ToolEmbeddingCacheEntry,
} from '../../embeddings/tool-embedding-cache.js';
import { InvalidArgumentError } from '../../errors/index.js';
import {
  assertCacheEntries,
  assertCacheKeys,
  chunks,
  vectorFromBytes,
  vectorToBytes,
} from '../tool-embedding-vector.js';
import type { RedisClient } from './redis-client.js';

/** Options of {@link RedisToolEmbeddingCache}. */
export interface RedisToolEmbeddingCacheOptions {
  /** Your `ioredis` client (`new Redis(url)`); the chat memory's may be it. */
  client: RedisClient;
  /** Prefix of every key. Default `toolloop:tool-embedding:`. */
  keyPrefix?: string;
  /**
   * A vector not written again for this long expires, so tools that changed do not pile up.
   * Default 30 days; `0` keeps vectors until deleted.
   */
  ttlMs?: number;
}

/** Keys per script call (Lua's `unpack` has a stack limit). */
const KEYS_PER_CALL = 500;

const READ_SCRIPT = `return redis.call('MGET', unpack(KEYS))`;

/** KEYS: the keys; ARGV[1]: time to live in ms ('0': none), then one value per key. */
const WRITE_SCRIPT = `
local ttl = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  if ttl > 0 then
    redis.call('SET', key, ARGV[i + 1], 'PX', ttl)
  else
    redis.call('SET', key, ARGV[i + 1])
  end
end
return #KEYS
`;

/**
 * Tool embeddings in Redis through `ioredis`, shared by every process that reaches the server:
 * one string per key holding the vector's 32-bit floats (little-endian, base64), written with a
 * time to live. Reads and writes are one script call per 500 keys.
 */
export class RedisToolEmbeddingCache implements ToolEmbeddingCache {
  readonly client: RedisClient;
  readonly keyPrefix: string;
  readonly ttlMs: number;

  /** @throws InvalidArgumentError for a negative or fractional `ttlMs`. */
  constructor(options: RedisToolEmbeddingCacheOptions) {
    this.client = options.client;
    this.keyPrefix = options.keyPrefix ?? 'toolloop:tool-embedding:';
    const ttlMs = options.ttlMs ?? 30 * 24 * 60 * 60 * 1000;
    if (!Number.isInteger(ttlMs) || ttlMs < 0) {
      throw new InvalidArgumentError('ttlMs must be a non-negative integer');
    }
    this.ttlMs = ttlMs;
  }

  /** {@inheritDoc ToolEmbeddingCache.get} */
  async get(keys: readonly string[]): Promise<(Float32Array | undefined)[]> {
    assertCacheKeys(keys);
    const found = new Map<string, Float32Array>();
    for (const piece of chunks([...new Set(keys)], KEYS_PER_CALL)) {
      const values = (await this.client.eval(
        READ_SCRIPT,
        piece.length,
        ...piece.map((key) => this.keyPrefix + key),
      )) as (string | null)[];
      piece.forEach((key, i) => {
        const value = values[i];
        const vector =
          typeof value === 'string' ? vectorFromBytes(Buffer.from(value, 'base64')) : undefined;
        if (vector !== undefined) found.set(key, vector);
      });
    }
    return keys.map((key) => found.get(key));
  }

  /** {@inheritDoc ToolEmbeddingCache.set} */
  async set(entries: readonly ToolEmbeddingCacheEntry[]): Promise<void> {
    assertCacheEntries(entries);
    for (const piece of chunks(entries, KEYS_PER_CALL)) {
      await this.client.eval(
        WRITE_SCRIPT,
        piece.length,
        ...piece.map((entry) => this.keyPrefix + entry.key),
        this.ttlMs,
        ...piece.map((entry) => vectorToBytes(entry.vector).toString('base64')),
      );
    }
  }
}
