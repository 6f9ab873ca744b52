import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  approveToolCall,
  ChatClient,
  type ChatClientRequestSpec,
  type ChatMemoryRepository,
  CONVERSATION_ID,
  InMemoryChatMemoryRepository,
  InvalidArgumentError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  type PendingToolApproval,
  pendingApprovalOf,
  ToolApprovalError,
  type ToolApprovalOptions,
  tool,
} from '../../src/index.js';
import { PostgresChatMemoryRepository } from '../../src/memory/postgres/index.js';
import { RedisChatMemoryRepository } from '../../src/memory/redis/index.js';
import { SqliteChatMemoryRepository } from '../../src/memory/sqlite/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../src/testing/index.js';
import { serviceUrl } from './services.js';

// The single-use token of a pending approval state is checked against the store the deployment
// already has: every chat memory repository consumes tokens atomically, across processes. Each
// store is tested twice over: its consumeApprovalToken contract (two instances on one backing
// store stand for two processes), and the whole flow with that store as memory and token store
// (two clients, one per "process", resume one state at the same time: exactly one runs; a state
// paused in conversation A cannot run under B, and B's memory stays empty).

type TokenStore = NonNullable<ToolApprovalOptions['tokenStore']>;
type Store = ChatMemoryRepository & TokenStore;

const KEY = 'approval-token-stores-key-0123456789ab';
const redis = serviceUrl('REDIS_URL');
const postgres = serviceUrl('DATABASE_URL');
const run = `${process.pid}_${Date.now().toString(36)}`;
const directory = mkdtempSync(join(tmpdir(), 'toolloop-approval-tokens-'));
const closers: (() => Promise<unknown> | unknown)[] = [];
let instances = 0;

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  rmSync(directory, { recursive: true, force: true });
});

/** Two repositories over one backing store, as two processes would hold them. */
const stores: [string, boolean, () => Promise<[Store, Store]>][] = [
  [
    'in-memory',
    false,
    async () => {
      const shared = new InMemoryChatMemoryRepository();
      return [shared, shared];
    },
  ],
  [
    'sqlite',
    false,
    async () => {
      const file = join(directory, `tokens-${++instances}.db`);
      const open = () => {
        const database = new Database(file);
        closers.push(() => database.close());
        return new SqliteChatMemoryRepository({ database, synchronous: 'NORMAL' });
      };
      return [open(), open()];
    },
  ],
  [
    'redis',
    redis.skip,
    async () => {
      const keyPrefix = `toolloop-approval-${run}-${++instances}:`;
      const open = () => {
        const client = new Redis(redis.url as string);
        closers.push(async () => {
          const keys = await client.keys(`${keyPrefix}*`);
          if (keys.length > 0) await client.del(...keys);
          await client.quit();
        });
        return new RedisChatMemoryRepository({ client, keyPrefix });
      };
      return [open(), open()];
    },
  ],
  [
    'postgres',
    postgres.skip,
    async () => {
      const schema = `toolloop_approval_${run}`;
      const tablePrefix = `t${++instances}`;
      const open = () => {
        const pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
        pool.on('error', () => {});
        closers.push(() => pool.end());
        return new PostgresChatMemoryRepository({ pool, schema, tablePrefix });
      };
      closers.unshift(async () => {
        const admin = new pg.Client({ connectionString: postgres.url });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      });
      return [open(), open()];
    },
  ],
];

const token = () => randomBytes(16).toString('base64url');
const inOneDay = () => new Date(Date.now() + 86_400_000);

describe.each(stores)('%s: consumeApprovalToken', (_name, skip, create) => {
  it.skipIf(skip)('is true once, then false, in this instance and the other', async () => {
    const [one, two] = await create();
    const used = token();
    expect(await one.consumeApprovalToken(used, inOneDay())).toBe(true);
    expect(await one.consumeApprovalToken(used, inOneDay())).toBe(false);
    expect(await two.consumeApprovalToken(used, inOneDay())).toBe(false);
    expect(await two.consumeApprovalToken(token(), inOneDay())).toBe(true);
  });

  it.skipIf(skip)(
    'of 20 concurrent consumes of one token over two instances, exactly one wins',
    async () => {
      const [one, two] = await create();
      const contested = token();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 === 0 ? one : two).consumeApprovalToken(contested, inOneDay()),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    },
  );

  it.skipIf(skip)('refuses a token that is not one toolloop writes, or a bad expiry', async () => {
    const [one] = await create();
    for (const bad of ['', 'short', 'x'.repeat(129), 'has spaces in it!!', 42]) {
      await expect(one.consumeApprovalToken(bad as string, inOneDay())).rejects.toBeInstanceOf(
        InvalidArgumentError,
      );
    }
    await expect(one.consumeApprovalToken(token(), new Date(Number.NaN))).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
  });
});

function bankClient(repository: Store, model: ScriptedChatModel, ran: string[]) {
  const transfer = tool({
    name: 'transfer',
    description: 'Send money',
    inputSchema: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: (input, { context }) => {
      ran.push(`${input.to}:${input.amount}:${String(context.tenant)}`);
      return 'sent';
    },
  });
  return ChatClient.create(model, {
    tools: [transfer],
    advisors: [
      new MessageChatMemoryAdvisor({ chatMemory: new MessageWindowChatMemory({ repository }) }),
    ],
    approval: { signingKey: KEY, tokenStore: repository },
  });
}

function inConversation(spec: ChatClientRequestSpec, id: string, tenant: string) {
  return spec.toolContext({ tenant }).advisors((a) => a.param(CONVERSATION_ID, id));
}

describe.each(stores)('%s: approval states resumed through the store', (_name, skip, create) => {
  it.skipIf(skip)(
    'two processes resume one state at once: exactly one runs; conversation B is refused and stays empty',
    async () => {
      const [one, two] = await create();
      const conversation = `conv-A-${token()}`;
      const other = `conv-B-${token()}`;
      const ran: string[] = [];
      const first = bankClient(
        one,
        new ScriptedChatModel([
          toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 5 } }]),
          textResponse('Sent (1).'),
        ]),
        ran,
      );
      const second = bankClient(two, new ScriptedChatModel([textResponse('Sent (2).')]), ran);
      const paused = await inConversation(first.prompt('Pay bob 5'), conversation, 'acme').call();
      const state = JSON.parse(JSON.stringify(pendingApprovalOf(paused))) as PendingToolApproval;
      const decisions = [approveToolCall(state.toolCalls[0]!)];

      const underB = await inConversation(second.resume(state, decisions), other, 'evil')
        .call()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(underB).toBeInstanceOf(ToolApprovalError);
      expect((underB as ToolApprovalError).problem).toBe('conversation-mismatch');
      expect(await two.findByConversationId(other)).toEqual([]);
      expect(ran).toEqual([]);

      const outcomes = await Promise.allSettled([
        inConversation(first.resume(state, decisions), conversation, 'acme').call(),
        inConversation(second.resume(state, decisions), conversation, 'acme').call(),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected');
      expect((refused as PromiseRejectedResult).reason).toMatchObject({
        problem: 'replayed-state',
      });
      expect(ran).toEqual(['bob:5:acme']);
      const stored = await one.findByConversationId(conversation);
      // Memory outside the loop keeps the user's prompt and the one final answer.
      expect(stored.map((message) => message.role)).toEqual(['user', 'assistant']);
      expect(stored[0]).toMatchObject({ role: 'user', text: 'Pay bob 5' });
      expect(await two.findByConversationId(other)).toEqual([]);
    },
    30_000,
  );
});
