import { MemoryError } from '../../errors/index.js';
import type { Message } from '../../messages/index.js';
import type { AppendOptions, ChatMemoryRepository } from '../chat-memory-repository.js';
import { assertConversationId, assertMessages } from '../conversation-id.js';
import { runStoreOperation } from '../store-operation.js';
import { parseStoredMessage } from '../stored-message.js';
import type { RedisClient } from './redis-client.js';

/** Options of {@link RedisChatMemoryRepository}. */
export interface RedisChatMemoryRepositoryOptions {
  /** Your `ioredis` client (`new Redis(url)`). */
  client: RedisClient;
  /** Prefix of every key. Default `toolloop:chat:`. */
  keyPrefix?: string;
  /** A store operation that takes longer fails with a `MemoryError`. Default 10 000 ms; 0 waits. */
  timeoutMs?: number;
  /** Attempts of a trimming append that keeps meeting concurrent writers. Default 100. */
  maxRetries?: number;
}

const BACKEND = 'redis';

// Arguments are pushed in slices because Lua's unpack() has a stack limit.
const PUSH = `
local function push(key, from)
  local last = #ARGV
  local i = from
  while i <= last do
    local j = math.min(i + 499, last)
    redis.call('RPUSH', key, unpack(ARGV, i, j))
    i = j + 1
  end
end
`;

/** KEYS: list, version, ids. ARGV: encoded id, messages… */
const APPEND_SCRIPT = `${PUSH}
push(KEYS[1], 2)
redis.call('INCR', KEYS[2])
redis.call('SADD', KEYS[3], ARGV[1])
return redis.call('LLEN', KEYS[1])
`;

/** KEYS: list, version. Returns {version, messages…} in one atomic read. */
const SNAPSHOT_SCRIPT = `
local version = redis.call('GET', KEYS[2]) or '0'
return {version, redis.call('LRANGE', KEYS[1], 0, -1)}
`;

/**
 * KEYS: list, version, ids. ARGV: expected version ('' = any), encoded id, messages…
 * Replaces the list when the version still matches; returns 0 on a concurrent change.
 */
const REPLACE_SCRIPT = `${PUSH}
local version = redis.call('GET', KEYS[2]) or '0'
if ARGV[1] ~= '' and version ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
push(KEYS[1], 3)
if #ARGV >= 3 then redis.call('SADD', KEYS[3], ARGV[2]) else redis.call('SREM', KEYS[3], ARGV[2]) end
redis.call('INCR', KEYS[2])
return 1
`;

/**
 * Chat memory in Redis through `ioredis`. Each conversation is a LIST of JSON messages (list
 * position is the sequence) beside a version counter, and a SET lists the conversation ids.
 * Conversation ids are encoded (base64url of their UTF-16 code units) before they become part of a
 * key, so no id can act as a pattern or reach another conversation's keys; KEYS and SCAN are never
 * used. Appends are one Lua script (atomic); a trimming append reads a snapshot and writes with a
 * compare-and-set on the version, retrying when another writer came first. With
 * `appendonly yes` and `appendfsync always` every acknowledged append survives a crash.
 * Single-node or Sentinel deployments (the keys of one call do not share a cluster slot).
 */
export class RedisChatMemoryRepository implements ChatMemoryRepository {
  readonly client: RedisClient;
  readonly keyPrefix: string;
  readonly timeoutMs: number;
  readonly #maxRetries: number;

  constructor(options: RedisChatMemoryRepositoryOptions) {
    this.client = options.client;
    this.keyPrefix = options.keyPrefix ?? 'toolloop:chat:';
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxRetries = options.maxRetries ?? 100;
  }

  async findConversationIds(): Promise<string[]> {
    return this.#run('findConversationIds', undefined, async () =>
      (await this.client.smembers(this.#idsKey())).map(decodeId),
    );
  }

  async findByConversationId(conversationId: string): Promise<Message[]> {
    assertConversationId(conversationId);
    return this.#run('read', conversationId, async () =>
      parseRows(conversationId, await this.client.lrange(this.#listKey(conversationId), 0, -1)),
    );
  }

  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    const rows = messages.map((message) => JSON.stringify(message));
    await this.#run('saveAll', conversationId, () => this.#replace(conversationId, '', rows));
  }

  async deleteByConversationId(conversationId: string): Promise<void> {
    assertConversationId(conversationId);
    await this.#run('delete', conversationId, () => this.#replace(conversationId, '', []));
  }

  async append(
    conversationId: string,
    messages: readonly Message[],
    options: AppendOptions = {},
  ): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    const rows = messages.map((message) => JSON.stringify(message));
    const retain = options.retain;
    if (!retain) {
      if (rows.length === 0) return;
      await this.#run('append', conversationId, () =>
        this.client.eval(
          APPEND_SCRIPT,
          3,
          this.#listKey(conversationId),
          this.#versionKey(conversationId),
          this.#idsKey(),
          encodeId(conversationId),
          ...rows,
        ),
      );
      return;
    }
    await this.#run('append', conversationId, async () => {
      for (let attempt = 0; attempt < this.#maxRetries; attempt++) {
        const snapshot = (await this.client.eval(
          SNAPSHOT_SCRIPT,
          2,
          this.#listKey(conversationId),
          this.#versionKey(conversationId),
        )) as [string, string[]];
        const [version, stored] = snapshot;
        const all = [...stored, ...rows];
        const keep = retain([...parseRows(conversationId, stored), ...messages], stored.length);
        const kept = keep.map((index) => all[index]).filter((row) => row !== undefined);
        if (await this.#replace(conversationId, String(version), kept)) return;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));
      }
      throw new MemoryError({
        backend: BACKEND,
        conversationId,
        message: `redis chat memory append gave up after ${this.#maxRetries} concurrent changes`,
      });
    });
  }

  async #replace(conversationId: string, version: string, rows: string[]): Promise<boolean> {
    const result = await this.client.eval(
      REPLACE_SCRIPT,
      3,
      this.#listKey(conversationId),
      this.#versionKey(conversationId),
      this.#idsKey(),
      version,
      encodeId(conversationId),
      ...rows,
    );
    return Number(result) === 1;
  }

  #run<T>(
    operation: string,
    conversationId: string | undefined,
    run: () => Promise<T>,
  ): Promise<T> {
    return runStoreOperation(
      { backend: BACKEND, operation, conversationId, timeoutMs: this.timeoutMs },
      run,
    );
  }

  #listKey(conversationId: string): string {
    return `${this.keyPrefix}messages:${encodeId(conversationId)}`;
  }

  #versionKey(conversationId: string): string {
    return `${this.keyPrefix}version:${encodeId(conversationId)}`;
  }

  #idsKey(): string {
    return `${this.keyPrefix}conversations`;
  }
}

function parseRows(conversationId: string, rows: readonly unknown[]): Message[] {
  return rows.map((text, index) =>
    parseStoredMessage(text, { backend: BACKEND, conversationId, row: index + 1 }),
  );
}

function encodeId(conversationId: string): string {
  return Buffer.from(conversationId, 'utf16le').toString('base64url');
}

function decodeId(encoded: string): string {
  return Buffer.from(encoded, 'base64url').toString('utf16le');
}
