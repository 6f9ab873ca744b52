import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryError } from '../../src/errors/index.js';
import { MessageWindowChatMemory } from '../../src/memory/index.js';
import { RedisChatMemoryRepository } from '../../src/memory/redis/index.js';
import { chatMemoryRepositoryContract, EARLIER_TURN, LATE_TURN } from './chat-memory-contract.js';
import { FaultInjector } from './fault-injection.js';
import { serviceUrl } from './services.js';
import { freePort, startRedis } from './support/private-redis.js';

const redis = serviceUrl('REDIS_URL');
const runPrefix = `toolloop-test:${process.pid}-${Date.now().toString(36)}:`;
const clients: Redis[] = [];
let prefixes = 0;

function connect(): Redis {
  const client = new Redis(redis.url as string, { lazyConnect: false, maxRetriesPerRequest: 1 });
  clients.push(client);
  return client;
}

afterAll(async () => {
  if (redis.skip) return;
  const cleaner = connect();
  let cursor = '0';
  do {
    const [next, keys] = await cleaner.scan(cursor, 'MATCH', `${runPrefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await cleaner.del(...keys);
  } while (cursor !== '0');
  await Promise.all(clients.map((client) => client.quit()));
});

describe.skipIf(redis.skip)('RedisChatMemoryRepository meets the chat memory contract', () => {
  chatMemoryRepositoryContract({
    backend: 'redis',
    propertyRuns: 30,
    storesRawRows: true,
    create: async (settings = {}) => {
      const keyPrefix = `${runPrefix}${++prefixes}:`;
      const raw = connect();
      return {
        repository: new RedisChatMemoryRepository({ client: connect(), keyPrefix, ...settings }),
        sibling: new RedisChatMemoryRepository({ client: connect(), keyPrefix }),
        storeRawRow: async (conversationId: string, text: string) => {
          const encoded = Buffer.from(conversationId, 'utf16le').toString('base64url');
          await raw.rpush(`${keyPrefix}messages:${encoded}`, text);
          return true;
        },
      };
    },
    createFaulty: async (injector) => {
      const keyPrefix = `${runPrefix}${++prefixes}:`;
      return {
        repository: new RedisChatMemoryRepository({
          client: injector.wrap(connect()),
          keyPrefix,
          timeoutMs: 250,
        }),
        sibling: new RedisChatMemoryRepository({ client: connect(), keyPrefix }),
      };
    },
    faultMethods: ['eval', 'evalsha', 'lrange', 'smembers'],
    faultModes: ['error', 'hang'],
  });
});

describe.skipIf(redis.skip)('RedisChatMemoryRepository keys', () => {
  it('encodes ids into keys under the prefix, so an id never reaches another key', async () => {
    const client = connect();
    const keyPrefix = `${runPrefix}${++prefixes}:`;
    const repository = new RedisChatMemoryRepository({ client, keyPrefix });
    await repository.append('a:*', [{ role: 'user', text: 'x' }]);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await client.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    expect(keys.sort()).toEqual(
      [
        `${keyPrefix}conversations`,
        `${keyPrefix}messages:YQA6ACoA`,
        `${keyPrefix}version:YQA6ACoA`,
        `${keyPrefix}writes:YQA6ACoA`,
      ].sort(),
    );
  });

  it('a dead connection surfaces a MemoryError naming the backend, not the messages', async () => {
    const client = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => {});
    const repository = new RedisChatMemoryRepository({ client, timeoutMs: 2000 });
    const error = await repository
      .append('c', [{ role: 'user', text: 'secret text' }])
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'MemoryError', backend: 'redis', conversationId: 'c' });
    expect((error as Error).message).not.toContain('secret text');
    client.disconnect();
  });
});

describe.skipIf(redis.skip)('RedisChatMemoryRepository scripts', () => {
  it('runs its scripts by SHA-1, loads them again after SCRIPT FLUSH, and works with a client that has only eval', async () => {
    const keyPrefix = `${runPrefix}${++prefixes}:`;
    const client = connect();
    const sent: string[] = [];
    const counted = new Proxy(client, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'eval' && property !== 'evalsha') return value;
        return (...args: unknown[]) => {
          sent.push(property);
          return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      },
    });
    const repository = new RedisChatMemoryRepository({ client: counted, keyPrefix });
    await repository.append('c', EARLIER_TURN);
    sent.length = 0;
    await repository.append('c', LATE_TURN);
    // Once loaded, an append sends the script's SHA-1, not its text.
    expect(sent).toEqual(['evalsha']);
    await connect().script('FLUSH');
    await repository.append('c', LATE_TURN);
    const onlyEval = {
      eval: client.eval.bind(client),
      lrange: client.lrange.bind(client),
      smembers: client.smembers.bind(client),
    };
    await new RedisChatMemoryRepository({ client: onlyEval, keyPrefix }).append('c', LATE_TURN);
    expect(await repository.findByConversationId('c')).toEqual([
      ...EARLIER_TURN,
      ...LATE_TURN,
      ...LATE_TURN,
      ...LATE_TURN,
    ]);
  });
});

describe.skipIf(redis.skip)('RedisChatMemoryRepository after a timeout', () => {
  const before = EARLIER_TURN;
  const turn = LATE_TURN;

  it('a paused server (CLIENT PAUSE): the caller gets a MemoryError saying whether the write is known, no command is sent after it, and nothing is stored after it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'toolloop-redis-pause-'));
    const port = await freePort();
    const server = await startRedis(port, directory);
    const url = `redis://127.0.0.1:${port}`;
    const admin = new Redis(url);
    const injector = new FaultInjector(['eval', 'evalsha', 'lrange', 'smembers']);
    const client = new Redis(url);
    try {
      const repository = new RedisChatMemoryRepository({
        client: injector.wrap(client),
        timeoutMs: 300,
      });
      const memory = new MessageWindowChatMemory({ repository });
      // Counts every call from here on; none fails.
      injector.arm(Number.MAX_SAFE_INTEGER, 'error');
      const cases = [
        // A write sent just before the pause: in flight at the timeout, refused after it.
        { name: 'append', outcome: 'unknown', run: () => repository.append('c', turn) },
        { name: 'saveAll', outcome: 'unknown', run: () => repository.saveAll('c', turn) },
        { name: 'delete', outcome: 'unknown', run: () => repository.deleteByConversationId('c') },
        // A window add starts with a read: nothing is written, and the error says so.
        { name: 'window add', outcome: 'unchanged', run: () => memory.add('c', turn) },
        { name: 'read', outcome: 'unchanged', run: () => repository.findByConversationId('c') },
      ];
      let tried = 0;
      for (const testCase of cases) {
        await repository.saveAll('c', before);
        await admin.config('RESETSTAT');
        await admin.client('PAUSE', 1500, 'ALL');
        const error = await testCase.run().catch((caught: unknown) => caught);
        const sentAtError = injector.count;
        expect(error, testCase.name).toBeInstanceOf(MemoryError);
        expect((error as MemoryError).outcome, testCase.name).toBe(testCase.outcome);
        expect((error as Error).message).toMatch(/timed out after 300 ms/);
        // Let the pause end and every queued command run.
        await admin.ping();
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(injector.count, `${testCase.name}: calls after the error`).toBe(sentAtError);
        const stats = await admin.info('commandstats');
        const evals = Number(/cmdstat_eval:calls=(\d+)/.exec(stats)?.[1] ?? 0);
        // What ran is what was sent before the error (commandstats counts the INFO/CONFIG of the admin too).
        expect(evals, testCase.name).toBeLessThanOrEqual(sentAtError);
        expect(
          await new RedisChatMemoryRepository({ client: admin }).findByConversationId('c'),
        ).toEqual(before);
        tried++;
      }
      expect(tried).toBe(cases.length);
    } finally {
      client.disconnect();
      admin.disconnect();
      server.kill('SIGKILL');
      rmSync(directory, { recursive: true, force: true });
    }
  }, 60_000);

  it('a trimming append that keeps losing its compare-and-set stops at the timeout: no command after the error, nothing stored', async () => {
    const keyPrefix = `${runPrefix}${++prefixes}:`;
    const bumper = connect();
    const versionKey = `${keyPrefix}version:${Buffer.from('c', 'utf16le').toString('base64url')}`;
    let evals = 0;
    const client = connect();
    // A real client whose every snapshot is followed by a competing write: the compare-and-set
    // that follows it always fails, so only the timeout can end the append.
    const contended = new Proxy(client, {
      get(target, property, receiver) {
        // Every script goes through eval, whose text the bump below looks at.
        if (property === 'evalsha') return undefined;
        if (property !== 'eval') return Reflect.get(target, property, receiver);
        return async (...args: Parameters<Redis['eval']>) => {
          evals++;
          const result = await target.eval(...args);
          if (String(args[0]).includes('LRANGE')) await bumper.incr(versionKey);
          return result;
        };
      },
    });
    const repository = new RedisChatMemoryRepository({
      client: contended,
      keyPrefix,
      timeoutMs: 300,
      maxRetries: 1_000_000,
    });
    await repository.saveAll('c', before);
    const memory = new MessageWindowChatMemory({ repository });
    const error = await memory.add('c', turn).catch((caught: unknown) => caught);
    const sentAtError = evals;
    expect(error).toBeInstanceOf(MemoryError);
    expect((error as Error).message).toMatch(/timed out after 300 ms/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(evals - sentAtError).toBe(0);
    expect(await repository.findByConversationId('c')).toEqual(before);
  });
});

/**
 * A TCP proxy in front of the test Redis that can lose the reply of one command: once armed, the
 * first reply that follows a client chunk containing `marker` is swallowed and the client's
 * connection is cut, as a network failure after the server ran the command would do.
 */
async function replyLosingProxy(target: URL): Promise<{
  url: string;
  arm(marker: string): void;
  cuts(): number;
  close(): Promise<void>;
}> {
  let marker: string | undefined;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let awaitingLostReply = false;
    client.on('data', (chunk) => {
      if (marker !== undefined && chunk.includes(marker)) {
        marker = undefined;
        awaitingLostReply = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (awaitingLostReply) {
        awaitingLostReply = false;
        cuts++;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => {});
    upstream.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}${target.pathname}`,
    arm: (text) => {
      marker = text;
    },
    cuts: () => cuts,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(redis.skip)('RedisChatMemoryRepository when a reply is lost', () => {
  // ioredis resends a command whose reply never arrived once it has reconnected, although Redis
  // already ran it: without a guard the same messages would be stored twice.
  for (const retain of [false, true]) {
    it(`a ${retain ? 'trimming' : 'plain'} append resent after a lost reply is stored once`, async () => {
      const proxy = await replyLosingProxy(new URL(redis.url as string));
      const client = new Redis(proxy.url, { maxRetriesPerRequest: 3 });
      client.on('error', () => {});
      try {
        const keyPrefix = `${runPrefix}${++prefixes}:`;
        const repository = new RedisChatMemoryRepository({ client, keyPrefix });
        const reader = new RedisChatMemoryRepository({ client: connect(), keyPrefix });
        await repository.append('c', EARLIER_TURN);
        // The write that carries the late turn's messages (its script runs by SHA-1 by now).
        proxy.arm('Late question');
        await repository.append(
          'c',
          LATE_TURN,
          retain ? { retain: (all) => all.map((_, index) => index) } : {},
        );
        expect(proxy.cuts()).toBe(1);
        expect(await reader.findByConversationId('c')).toEqual([...EARLIER_TURN, ...LATE_TURN]);
      } finally {
        client.disconnect();
        await proxy.close();
      }
    });
  }
});

describe.skipIf(redis.skip)('RedisChatMemoryRepository over keys something else wrote', () => {
  const encoded = Buffer.from('c', 'utf16le').toString('base64url');
  /** The four keys of conversation 'c' and the ids set, and what a foreign write puts there. */
  const foreign = [
    {
      key: 'messages',
      label: 'a hash as the messages',
      plant: (client: Redis, key: string) => client.hset(key, 'f', 'v'),
    },
    {
      key: 'version',
      label: 'a version that is not a count',
      plant: (client: Redis, key: string) => client.set(key, 'not a count'),
    },
    {
      key: 'version',
      label: 'a set as the version',
      plant: (client: Redis, key: string) => client.sadd(key, 'x'),
    },
    {
      key: 'writes',
      label: 'a string as the recent writes',
      plant: (client: Redis, key: string) => client.set(key, 'x'),
    },
    {
      key: 'conversations',
      label: 'a string as the id set',
      plant: (client: Redis, key: string) => client.set(key, 'x'),
    },
  ] as const;

  for (const { key, label, plant } of foreign) {
    it(`${label}: every write is refused with a MemoryError naming the key, nothing is written (a script is not rolled back), and clear() repairs the conversation unless the key is the shared id set`, async () => {
      const client = connect();
      const keyPrefix = `${runPrefix}${++prefixes}:`;
      const repository = new RedisChatMemoryRepository({ client, keyPrefix });
      const memory = new MessageWindowChatMemory({ repository });
      await repository.append('c', EARLIER_TURN);
      const planted =
        key === 'conversations' ? `${keyPrefix}conversations` : `${keyPrefix}${key}:${encoded}`;
      if (key !== 'messages') {
        await client.del(planted);
        await plant(client, planted);
      }
      const listKey = `${keyPrefix}messages:${encoded}`;
      const before = await client.lrange(listKey, 0, -1);
      if (key === 'messages') {
        await client.del(planted);
        await plant(client, planted);
      }
      const writes = [
        () => repository.append('c', LATE_TURN),
        () => memory.add('c', LATE_TURN),
        () => repository.saveAll('c', LATE_TURN),
        () => repository.deleteByConversationId('c'),
      ];
      const repairs = key !== 'conversations';
      for (const [index, write] of writes.entries()) {
        // saveAll and delete replace the whole conversation: they repair its own keys.
        if (repairs && index >= 2) continue;
        const error = await write().catch((caught: unknown) => caught);
        expect(error, `write ${index}`).toBeInstanceOf(MemoryError);
        expect(error).toMatchObject({
          backend: 'redis',
          conversationId: 'c',
          outcome: 'unchanged',
        });
        expect((error as Error).message).toContain(`the key "${planted}"`);
        expect((error as Error).message).toContain(' holds a ');
        expect((error as Error).message).toContain('nothing was written');
        if (key !== 'messages') expect(await client.lrange(listKey, 0, -1)).toEqual(before);
      }
      if (!repairs) {
        await client.del(planted);
        expect(await repository.findByConversationId('c')).toEqual(EARLIER_TURN);
        return;
      }
      if (key === 'messages') {
        const read = await repository.findByConversationId('c').catch((caught: unknown) => caught);
        expect(read).toBeInstanceOf(MemoryError);
        expect((read as Error).message).toContain(
          `the key "${planted}" of conversation "c" holds a hash, not the list of its messages`,
        );
      }
      await memory.clear('c');
      expect(await repository.findByConversationId('c')).toEqual([]);
      await memory.add('c', LATE_TURN);
      await repository.append('c', EARLIER_TURN);
      expect(await repository.findByConversationId('c')).toEqual([...LATE_TURN, ...EARLIER_TURN]);
    });
  }

  it('an id set of another kind fails findConversationIds with a MemoryError naming the key', async () => {
    const client = connect();
    const keyPrefix = `${runPrefix}${++prefixes}:`;
    const repository = new RedisChatMemoryRepository({ client, keyPrefix });
    await client.set(`${keyPrefix}conversations`, 'x');
    const error = await repository.findConversationIds().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MemoryError);
    expect((error as Error).message).toContain(`the key "${keyPrefix}conversations" holds a`);
  });

  it('members of the id set that toolloop did not write are left out of findConversationIds', async () => {
    const client = connect();
    const keyPrefix = `${runPrefix}${++prefixes}:`;
    const repository = new RedisChatMemoryRepository({ client, keyPrefix });
    await repository.append('order 7 ✓', EARLIER_TURN);
    // Another program's members: not base64url, an odd byte count, empty.
    await client.sadd(`${keyPrefix}conversations`, 'hello world!', 'YQ', '');
    expect(await repository.findConversationIds()).toEqual(['order 7 ✓']);
  });
});
