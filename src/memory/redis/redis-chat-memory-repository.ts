import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryError } from '../../errors/index.js';
import { checkUsedToken, USED_TOKEN_GRACE_MS } from '../../internal/used-token-set.js';
import type { Message } from '../../messages/index.js';
import type { AppendOptions, ChatMemoryRepository } from '../chat-memory-repository.js';
import { assertConversationId, assertMessages } from '../conversation-id.js';
import { runStoreOperation, type StoreOperationScope } from '../store-operation.js';
import { assertStorableMedia, mediaLimitOption } from '../stored-media-limit.js';
import { parseStoredMessage, serializeMessages } from '../stored-message.js';
import { luaScript, runLuaScript } from './lua-script.js';
import type { RedisClient } from './redis-client.js';

/** Options of {@link RedisChatMemoryRepository}. */
export interface RedisChatMemoryRepositoryOptions {
  /** Your `ioredis` client (`new Redis(url)`). */
  client: RedisClient;
  /** Prefix of every key. Default `toolloop:chat:`. */
  keyPrefix?: string;
  /**
   * A store operation that takes longer fails with a `MemoryError`. Default 10 000 ms; any length
   * is kept exactly; `0` or `Infinity` waits.
   */
  timeoutMs?: number;
  /** Attempts of a trimming append that keeps meeting concurrent writers. Default 100. */
  maxRetries?: number;
  /**
   * Most inline media (tool result images, audio, files, as base64) one message may hold; a
   * message over it fails the write with a `MemoryError` and nothing is written. Default 16 MiB.
   */
  maxMediaBytes?: number;
}

const BACKEND = 'redis';

/** How long a reading of the server's clock may serve to fence writes, in ms. */
const CLOCK_FRESH_MS = 1000;

/** How many write tokens each conversation remembers, and for how long (ms). */
const REMEMBERED_WRITES = 64;
const REMEMBERED_WRITES_TTL_MS = 24 * 60 * 60 * 1000;

/** What each key of a conversation is (KEYS order of every script), for the key check. */
const KEY_KINDS = ['list', 'string', 'set', 'list'] as const;

/**
 * `kindOf(i)`: what KEYS[i] holds (`TYPE`). `badVersion()`: nil when the version key is absent or
 * a count, otherwise what it holds.
 */
const KEY_CHECK = `
local KINDS = {${KEY_KINDS.map((kind) => `'${kind}'`).join(', ')}}
local function kindOf(i) return redis.call('TYPE', KEYS[i])['ok'] end
local function badVersion()
  local version = redis.pcall('GET', KEYS[2])
  if type(version) == 'table' then return kindOf(2) end
  if version and not string.match(version, '^%d+$') then return 'string that is not a count' end
  return nil
end
`;

// Every write script starts with the key check, the replay check, then the fence. A script that
// fails halfway is not rolled back, so keys of another kind (written by something else: a hash
// where the list belongs, a version that is not a count) are found before anything is written and
// the script answers {-2, now, key index, kind}. The check rides on reads the script makes anyway
// (the recent writes, the version) and on the first push, which fails before anything is written;
// only the shared id set costs a TYPE of its own: appends are the hot path. A write that replaces
// the whole conversation (`repair`, set before this part: saveAll, delete) looks at every key and
// deletes the conversation's own keys of another kind instead, after the fence, which is how a
// conversation is repaired. The shared id set is never deleted. ioredis resends a command whose
// reply was lost with the connection, although the server may have run it: each write carries a
// token (ARGV[2]) that the script records beside the conversation (KEYS[4]), and a write whose
// token is already there reports success without writing again. The fence reads the server's
// clock (microseconds) and refuses to write when ARGV[1] (a deadline on that clock, '' for none)
// has passed. Replies carry the clock reading, which fences the next writes.
const FENCE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
${KEY_CHECK}
local foreign = {}
local writes = redis.pcall('LRANGE', KEYS[4], 0, -1)
if repair then
  for i = 1, 4 do
    local kind = kindOf(i)
    if kind ~= 'none' and (kind ~= KINDS[i] or (i == 2 and badVersion())) then
      if i == 3 then return {-2, now, 3, kind} end
      foreign[#foreign + 1] = KEYS[i]
    end
  end
else
  if writes.err then return {-2, now, 4, kindOf(4)} end
  local version = badVersion()
  if version then return {-2, now, 2, version} end
  local ids = kindOf(3)
  if ids ~= 'none' and ids ~= 'set' then return {-2, now, 3, ids} end
end
if not writes.err then
  for _, seen in ipairs(writes) do
    if seen == ARGV[2] then return {1, now} end
  end
end
if ARGV[1] ~= '' and now >= tonumber(ARGV[1]) then return {-1, now} end
for _, key in ipairs(foreign) do redis.call('DEL', key) end
local function remember()
  redis.call('LPUSH', KEYS[4], ARGV[2])
  redis.call('LTRIM', KEYS[4], 0, ${REMEMBERED_WRITES - 1})
  redis.call('PEXPIRE', KEYS[4], ${REMEMBERED_WRITES_TTL_MS})
end
`;

// Arguments are pushed in slices because Lua's unpack() has a stack limit. Returns false, having
// written nothing, when the key holds another kind (only the first slice can meet that).
const PUSH = `
local function push(key, from)
  local last = #ARGV
  local i = from
  while i <= last do
    local j = math.min(i + 499, last)
    local pushed = redis.pcall('RPUSH', key, unpack(ARGV, i, j))
    if type(pushed) == 'table' and pushed.err then return false end
    i = j + 1
  end
  return true
end
`;

/** Returns the server's clock in microseconds. */
const CLOCK_SCRIPT = `
local time = redis.call('TIME')
return tonumber(time[1]) * 1000000 + tonumber(time[2])
`;

/** KEYS: list, version, ids, writes. ARGV: deadline, token, encoded id, messages… Returns {1, now}. */
const APPEND_SCRIPT = luaScript(`local repair = false
${FENCE}${PUSH}
if not push(KEYS[1], 4) then return {-2, now, 1, kindOf(1)} end
redis.call('INCR', KEYS[2])
redis.call('SADD', KEYS[3], ARGV[3])
remember()
return {1, now}
`);

/**
 * KEYS: list, version. Returns {1, now, version, messages} in one atomic read, or {-2, now, key
 * index, kind} for a key of another kind.
 */
const SNAPSHOT_SCRIPT = luaScript(`
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
${KEY_CHECK}
local version = redis.pcall('GET', KEYS[2])
if type(version) == 'table' then return {-2, now, 2, kindOf(2)} end
if version and not string.match(version, '^%d+$') then
  return {-2, now, 2, 'string that is not a count'}
end
local messages = redis.pcall('LRANGE', KEYS[1], 0, -1)
if messages.err then return {-2, now, 1, kindOf(1)} end
return {1, now, version or '0', messages}
`);

/**
 * KEYS: list, version, ids, writes. ARGV: deadline, token, expected version ('' = any, which
 * repairs keys of another kind), encoded id, messages… Replaces the list when the version still
 * matches. Returns {1, now}, or {0, now} on a concurrent change.
 */
const REPLACE_SCRIPT = luaScript(`local repair = ARGV[3] == ''
${FENCE}${PUSH}
local version = redis.call('GET', KEYS[2]) or '0'
if ARGV[3] ~= '' and version ~= ARGV[3] then return {0, now} end
redis.call('DEL', KEYS[1])
push(KEYS[1], 5)
if #ARGV >= 5 then redis.call('SADD', KEYS[3], ARGV[4]) else redis.call('SREM', KEYS[3], ARGV[4]) end
redis.call('INCR', KEYS[2])
remember()
return {1, now}
`);

/** A reading of the server's clock and the local time its reply arrived. */
interface ClockReading {
  /** Server time, µs. */
  server: number;
  /** `performance.now()` when the reply was handled, ms. */
  local: number;
}

/** KEYS: one key. Returns its type (`TYPE`) as text. */
const KIND_SCRIPT = `return redis.call('TYPE', KEYS[1])['ok']`;

// A single-use token: set only when absent (the reply is OK), with its expiry in ms (ARGV[1]).
const CONSUME_TOKEN_SCRIPT = `return redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX')`;

/**
 * Chat memory in Redis through `ioredis`. Each conversation is a LIST of JSON messages (list
 * position is the sequence) beside a version counter, and a SET lists the conversation ids.
 * Conversation ids are encoded (base64url of their UTF-16 code units) before they become part of a
 * key, so no id can act as a pattern or reach another conversation's keys; KEYS and SCAN are never
 * used. Appends are one Lua script (atomic); a trimming append reads a snapshot and writes with a
 * compare-and-set on the version, retrying when another writer came first. With
 * `appendonly yes` and `appendfsync always` every acknowledged append survives a crash.
 *
 * Timeouts: after an operation times out, it sends nothing more (its retries stop), and every
 * write script is fenced: it carries a deadline on the server's own clock, derived from a recent
 * reading of that clock so that it falls before the caller's deadline, and refuses to write once
 * it has passed. A write delayed in a paused or overloaded server therefore takes effect before
 * the caller's `MemoryError` or never, so retrying after the error cannot store a turn twice.
 * A write that `ioredis` resends after a lost connection is recognised by its token and not
 * applied a second time.
 *
 * A key that holds another kind of value than toolloop writes there (something else wrote it)
 * fails the operation with a `MemoryError` naming the key, before anything is written;
 * `saveAll` and `deleteByConversationId` replace such keys of their conversation, which repairs it.
 * Needs Redis 5 or newer (`TIME` inside scripts). Single-node or Sentinel deployments (the keys
 * of one call do not share a cluster slot).
 */
export class RedisChatMemoryRepository implements ChatMemoryRepository {
  readonly client: RedisClient;
  readonly keyPrefix: string;
  readonly timeoutMs: number;
  readonly #maxRetries: number;
  #clock: ClockReading | undefined;

  readonly #maxMediaBytes: number;

  constructor(options: RedisChatMemoryRepositoryOptions) {
    this.client = options.client;
    this.keyPrefix = options.keyPrefix ?? 'toolloop:chat:';
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxRetries = options.maxRetries ?? 100;
    this.#maxMediaBytes = mediaLimitOption(options.maxMediaBytes);
  }

  async findConversationIds(): Promise<string[]> {
    return this.#run('findConversationIds', undefined, async (scope) => {
      scope.checkpoint();
      const key = this.#idsKey();
      const ids = await this.client.smembers(key).catch(async (error: unknown) => {
        if (!isWrongType(error)) throw error;
        throw foreignKeyError('findConversationIds', undefined, key, 2, await this.#kind(key));
      });
      // A member toolloop did not write (another program shares the key) decodes to noise:
      // only an id that encodes back to the member is a conversation of this repository.
      return ids.flatMap((member) => {
        const id = decodeId(member);
        return id !== '' && encodeId(id) === member ? [id] : [];
      });
    });
  }

  async findByConversationId(conversationId: string): Promise<Message[]> {
    assertConversationId(conversationId);
    return this.#run('read', conversationId, async (scope) => {
      scope.checkpoint();
      const key = this.#listKey(encodeId(conversationId));
      const rows = await this.client.lrange(key, 0, -1).catch(async (error: unknown) => {
        if (!isWrongType(error)) throw error;
        throw foreignKeyError('read', conversationId, key, 0, await this.#kind(key));
      });
      return parseRows(conversationId, rows);
    });
  }

  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    assertStorableMedia(messages, BACKEND, conversationId, this.#maxMediaBytes);
    const rows = serializeMessages(messages, BACKEND, conversationId);
    await this.#run('saveAll', conversationId, (scope) =>
      this.#replace(scope, 'saveAll', conversationId, '', rows),
    );
  }

  async deleteByConversationId(conversationId: string): Promise<void> {
    assertConversationId(conversationId);
    await this.#run('delete', conversationId, (scope) =>
      this.#replace(scope, 'delete', conversationId, '', []),
    );
  }

  async append(
    conversationId: string,
    messages: readonly Message[],
    options: AppendOptions = {},
  ): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    assertStorableMedia(messages, BACKEND, conversationId, this.#maxMediaBytes);
    const rows = serializeMessages(messages, BACKEND, conversationId);
    const retain = options.retain;
    if (!retain) {
      if (rows.length === 0) return;
      await this.#run('append', conversationId, async (scope) => {
        const id = encodeId(conversationId);
        const keys = this.#keys(id);
        const deadline = this.#freshDeadline(scope) ?? (await this.#fence(scope));
        const reply = await scope.write(() =>
          runLuaScript(
            this.client,
            APPEND_SCRIPT,
            keys,
            [deadline, randomUUID(), id, ...rows],
            () => scope.checkpoint(),
          ),
        );
        if (this.#status(reply, 'append', conversationId, keys) === -1) {
          await this.#refused(scope);
        }
      });
      return;
    }
    await this.#run('append', conversationId, async (scope) => {
      const keys = this.#keys(encodeId(conversationId));
      for (let attempt = 0; attempt < this.#maxRetries; attempt++) {
        scope.checkpoint();
        const snapshot = await runLuaScript(
          this.client,
          SNAPSHOT_SCRIPT,
          [keys[0], keys[1]],
          [],
          () => scope.checkpoint(),
        );
        this.#status(snapshot, 'append', conversationId, keys);
        const [, , version, stored] = snapshot as [number, number, string, string[]];
        const all = [...stored, ...rows];
        const keep = retain([...parseRows(conversationId, stored), ...messages], stored.length);
        const kept = keep.map((index) => all[index]).filter((row) => row !== undefined);
        if (await this.#replace(scope, 'append', conversationId, String(version), kept)) return;
        scope.checkpoint();
        await sleep(Math.random() * 5 * (attempt + 1), undefined, { signal: scope.signal });
      }
      throw new MemoryError({
        backend: BACKEND,
        conversationId,
        message: `redis chat memory append gave up after ${this.#maxRetries} concurrent changes`,
      });
    });
  }

  /**
   * Marks the single-use token of a pending approval state used, so this repository can serve as
   * `approval.tokenStore`: true the first time, false after, for every client of the server (one
   * `SET … NX`). The key (`<keyPrefix>approval-token:<token>`) expires an hour after the state.
   */
  async consumeApprovalToken(token: string, expiresAt: Date): Promise<boolean> {
    checkUsedToken(token, expiresAt);
    const ttlMs = Math.max(1, Math.ceil(expiresAt.getTime() + USED_TOKEN_GRACE_MS - Date.now()));
    return this.#run('consumeApprovalToken', undefined, async (scope) => {
      scope.checkpoint();
      const reply = await scope.write(() =>
        this.client.eval(
          CONSUME_TOKEN_SCRIPT,
          1,
          `${this.keyPrefix}approval-token:${token}`,
          ttlMs,
        ),
      );
      return reply === 'OK';
    });
  }

  /** Runs the fenced replace; false when another writer changed the conversation first. */
  async #replace(
    scope: StoreOperationScope,
    operation: string,
    conversationId: string,
    version: string,
    rows: string[],
  ): Promise<boolean> {
    const id = encodeId(conversationId);
    const keys = this.#keys(id);
    const deadline = this.#freshDeadline(scope) ?? (await this.#fence(scope));
    const reply = await scope.write(() =>
      runLuaScript(
        this.client,
        REPLACE_SCRIPT,
        keys,
        [deadline, randomUUID(), version, id, ...rows],
        () => scope.checkpoint(),
      ),
    );
    const status = this.#status(reply, operation, conversationId, keys);
    if (status === -1) await this.#refused(scope);
    return status === 1;
  }

  /**
   * The deadline on the server's clock for a write sent now, as a script argument: the server
   * time of a recent reading plus the local time left until the caller's deadline from when that
   * reading arrived, less a margin for the two clocks' rates. The reading was taken before its
   * reply arrived, so this falls at or before the caller's deadline. `''` without a deadline;
   * `undefined` when the last reading is too old (see {@link #fence}).
   */
  #freshDeadline(scope: StoreOperationScope): string | undefined {
    if (scope.deadline === undefined) return '';
    const clock = this.#clock;
    if (clock === undefined || performance.now() - clock.local > CLOCK_FRESH_MS) return undefined;
    return fenceDeadline(scope.deadline, clock);
  }

  /** {@link #freshDeadline} after reading the server's clock anew. */
  async #fence(scope: StoreOperationScope): Promise<string> {
    if (scope.deadline === undefined) return '';
    scope.checkpoint();
    this.#learnClock(await this.client.eval(CLOCK_SCRIPT, 0));
    const clock = this.#clock;
    if (clock === undefined) throw new Error('redis TIME gave no usable time');
    return fenceDeadline(scope.deadline, clock);
  }

  #learnClock(serverTime: unknown): void {
    const server = Number(serverTime);
    if (!Number.isFinite(server)) return;
    const local = performance.now();
    if (this.#clock === undefined || this.#clock.local <= local) this.#clock = { server, local };
  }

  /**
   * A script's status from its reply {status, now, …}: 1 when it wrote (or read), 0 on a
   * concurrent change, -1 when its fence refused it. Throws the `MemoryError` of a key of another
   * kind (-2, with the key's index in `keys` and its kind): the script wrote nothing.
   */
  #status(
    reply: unknown,
    operation: string,
    conversationId: string,
    keys: readonly string[],
  ): number {
    const [status, serverTime, index, kind] = reply as [number, number, number?, string?];
    this.#learnClock(serverTime);
    if (Number(status) === -2) {
      const at = Number(index) - 1;
      throw foreignKeyError(operation, conversationId, keys[at] ?? '', at, String(kind));
    }
    return Number(status);
  }

  /**
   * A write its fence refused reached the server after the deadline: nothing was written, and the
   * operation ends with its timeout error (the local timer fires at most a margin later).
   */
  async #refused(scope: StoreOperationScope): Promise<void> {
    if (!scope.expired) await new Promise<void>((resolve) => scope.onExpire(resolve));
    scope.checkpoint();
  }

  #run<T>(
    operation: string,
    conversationId: string | undefined,
    run: (scope: StoreOperationScope) => Promise<T>,
  ): Promise<T> {
    return runStoreOperation(
      { backend: BACKEND, operation, conversationId, timeoutMs: this.timeoutMs, fenced: true },
      run,
    );
  }

  /** What a key holds (`TYPE`), for an error; `undefined` when that cannot be read either. */
  async #kind(key: string): Promise<string | undefined> {
    try {
      const kind = await this.client.eval(KIND_SCRIPT, 1, key);
      return typeof kind === 'string' ? kind : undefined;
    } catch {
      return undefined;
    }
  }

  /** The keys of a conversation, in the order of every script's KEYS: list, version, ids, writes. */
  #keys(id: string): [string, string, string, string] {
    return [this.#listKey(id), this.#versionKey(id), this.#idsKey(), this.#writesKey(id)];
  }

  // Keys take the encoded id, computed once per operation.
  #listKey(id: string): string {
    return `${this.keyPrefix}messages:${id}`;
  }

  #versionKey(id: string): string {
    return `${this.keyPrefix}version:${id}`;
  }

  #writesKey(id: string): string {
    return `${this.keyPrefix}writes:${id}`;
  }

  #idsKey(): string {
    return `${this.keyPrefix}conversations`;
  }
}

/** What toolloop keeps under each key of {@link KEY_KINDS}, for an error. */
const KEY_ROLES = [
  'the list of its messages',
  'its version count',
  'the set of conversation ids',
  'the list of its recent writes',
] as const;

/** Whether Redis refused a command because its key holds another kind of value. */
function isWrongType(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('WRONGTYPE');
}

/**
 * The `MemoryError` of a key that holds what toolloop never writes there (something else wrote
 * it): nothing was written. `at` is the key's place in {@link KEY_KINDS}; a conversation's own
 * keys are repaired by `saveAll` or `deleteByConversationId`, the shared id set by removing it.
 */
function foreignKeyError(
  operation: string,
  conversationId: string | undefined,
  key: string,
  at: number,
  kind: string | undefined,
): MemoryError {
  const shared = at === 2;
  const of =
    shared || conversationId === undefined ? '' : ` of conversation ${quoteId(conversationId)}`;
  const holds = kind === undefined ? 'a value of another kind' : `a ${kind}`;
  const what = KEY_ROLES[at] ?? 'what toolloop writes there';
  const written =
    operation === 'read' || operation === 'findConversationIds' ? '' : '; nothing was written';
  const repair = shared
    ? 'delete or rename that key to repair it (each conversation is listed again on its next write)'
    : 'delete the conversation (ChatMemory.clear) or rewrite it with saveAll to repair it';
  return new MemoryError({
    backend: BACKEND,
    conversationId,
    message: `redis chat memory ${operation}: the key "${key}"${of} holds ${holds}, not ${what} (something else wrote it)${written}; ${repair}`,
  });
}

/** A conversation id as an error shows it: JSON, at most 200 characters. */
function quoteId(conversationId: string): string {
  return JSON.stringify(
    conversationId.length > 200 ? `${conversationId.slice(0, 200)}…` : conversationId,
  );
}

function parseRows(conversationId: string, rows: readonly unknown[]): Message[] {
  return rows.map((text, index) =>
    parseStoredMessage(text, { backend: BACKEND, conversationId, row: index + 1 }),
  );
}

/** The server-clock deadline (µs, as text) for a caller's `deadline` (local ms), from `clock`. */
function fenceDeadline(deadline: number, clock: ClockReading): string {
  const left = deadline - clock.local;
  const margin = 1 + Math.abs(left) / 1000;
  return String(Math.floor(clock.server + (left - margin) * 1000));
}

function encodeId(conversationId: string): string {
  return Buffer.from(conversationId, 'utf16le').toString('base64url');
}

function decodeId(encoded: string): string {
  return Buffer.from(encoded, 'base64url').toString('utf16le');
}
