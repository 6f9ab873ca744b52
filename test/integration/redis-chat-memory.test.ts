import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisChatMemoryRepository } from '../../src/memory/redis/index.js';
import { chatMemoryRepositoryContract } from './chat-memory-contract.js';
import type { FaultInjector } from './fault-injection.js';
import { serviceUrl } from './services.js';

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
    create: async () => {
      const keyPrefix = `${runPrefix}${++prefixes}:`;
      const raw = connect();
      return {
        repository: new RedisChatMemoryRepository({ client: connect(), keyPrefix }),
        sibling: new RedisChatMemoryRepository({ client: connect(), keyPrefix }),
        storeRawRow: async (conversationId: string, text: string) => {
          const encoded = Buffer.from(conversationId, 'utf16le').toString('base64url');
          await raw.rpush(`${keyPrefix}messages:${encoded}`, text);
          return true;
        },
      };
    },
    createFaulty: async (injector: FaultInjector) => {
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
    faultMethods: ['eval', 'lrange', 'smembers'],
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
