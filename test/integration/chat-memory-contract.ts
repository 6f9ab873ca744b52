import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HIGHEST_PRECEDENCE } from '../../src/advisors/index.js';
import { ChatClient } from '../../src/client/index.js';
import { InvalidArgumentError, MemoryError } from '../../src/errors/index.js';
import {
  type ChatMemoryRepository,
  CONVERSATION_ID,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
} from '../../src/memory/index.js';
import type { Message } from '../../src/messages/index.js';
import type { ChatResponse, Prompt } from '../../src/model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../src/testing/index.js';
import { tool } from '../../src/tools/tool.js';
import type { FaultInjector, FaultMode } from './fault-injection.js';
import { arbitraryMetadata, arbitraryTurns, assertToolPairsIntact } from './transcripts.js';

/** A repository under test, and optionally a second one over the same storage via its own connection. */
export interface RepositoryFixture {
  repository: ChatMemoryRepository;
  sibling?: ChatMemoryRepository;
  /**
   * Writes `text` as the next stored row of the conversation, bypassing the repository (as a
   * manual edit or an old bug would); false when the storage cannot hold that text at all.
   */
  storeRawRow?(conversationId: string, text: string): Promise<boolean>;
}

/** How the shared suite reaches one backend. */
export interface ChatMemoryContractOptions {
  /** Backend name, as the repository puts it in a `MemoryError`. */
  backend: string;
  /** A fresh, isolated repository (its own file, key prefix or tables), with these settings. */
  create(settings?: { maxMediaBytes?: number }): Promise<RepositoryFixture>;
  /**
   * A fresh repository whose driver calls go through `injector` (`repository`), and a clean one
   * over the same storage (`sibling`) to check the state with.
   */
  createFaulty?(
    injector: FaultInjector,
  ): Promise<{ repository: ChatMemoryRepository; sibling: ChatMemoryRepository }>;
  /** The driver methods the injector counts and fails. */
  faultMethods?: readonly string[];
  /** Fault kinds the backend can meet (a synchronous driver cannot hang). */
  faultModes?: readonly FaultMode[];
  /** `create()` gives a `storeRawRow`, so corrupt rows can be planted. */
  storesRawRows?: boolean;
  /** Property runs for the slower network backends. Default 50. */
  propertyRuns?: number;
}

/** Plain JSON strings, plus the ones stores trip over: NUL, lone surrogates, escapes, emoji. */
function arbitraryText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 20, unit: 'binary' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '\u0000',
        'a\u0000b',
        '\ud800',
        'x\udc00y',
        '\ue000',
        '\ue0000041',
        '👩‍👩‍👧 emoji',
        '{"role":"tool","responses":[]}',
        "'); DROP TABLE x;--",
        '\r\n*3\r\n$3\r\nDEL\r\n',
        '{"lc":1,"type":"constructor","id":["x"]}',
      ),
    },
  );
}

function arbitraryMessage(): fc.Arbitrary<Message> {
  const text = arbitraryText();
  const metadata = arbitraryMetadata();
  const call = fc.record(
    { id: text, name: text, arguments: text, metadata },
    { requiredKeys: ['id', 'name', 'arguments'] },
  );
  return fc.oneof(
    fc.record(
      { role: fc.constant('system' as const), text, metadata },
      { requiredKeys: ['role', 'text'] },
    ),
    fc.record(
      {
        role: fc.constant('user' as const),
        text,
        media: fc.array(fc.record({ mimeType: text, data: text }), { maxLength: 2 }),
        metadata,
      },
      { requiredKeys: ['role', 'text'] },
    ),
    fc.record(
      {
        role: fc.constant('assistant' as const),
        text: fc.option(text, { nil: null }),
        toolCalls: fc.array(call, { maxLength: 3 }),
        metadata,
      },
      { requiredKeys: ['role', 'text', 'toolCalls'] },
    ),
    fc.record(
      {
        role: fc.constant('tool' as const),
        responses: fc.array(
          fc.record(
            { id: text, name: text, responseData: text, isError: fc.boolean() },
            { requiredKeys: ['id', 'name', 'responseData'] },
          ),
          { maxLength: 3 },
        ),
        metadata,
      },
      { requiredKeys: ['role', 'responses'] },
    ),
  ) as fc.Arbitrary<Message>;
}

/** JSON data as a store holds it (`-0` is `0` in JSON). */
function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Stored rows a repository must refuse to return: parseable JSON of the wrong shape or type, and
 * text that is not JSON at all (which PostgreSQL's JSONB cannot hold, so it is tried elsewhere).
 */
export const CORRUPT_ROWS: readonly string[] = [
  'null',
  '42',
  '"text"',
  '[]',
  '{}',
  '{"role":"tool"}',
  '{"role":"robot","text":"x"}',
  '{"role":"user"}',
  '{"role":"user","text":5}',
  '{"role":"system","text":null}',
  '{"role":"assistant","text":"x"}',
  '{"role":"assistant","text":7,"toolCalls":[]}',
  '{"role":"assistant","text":null,"toolCalls":[null]}',
  '{"role":"assistant","text":null,"toolCalls":[{"id":1,"name":"x","arguments":"{}"}]}',
  '{"role":"assistant","text":null,"toolCalls":[{"id":"a","name":"x","arguments":{}}]}',
  '{"role":"assistant","text":null,"toolCalls":[{"id":"a","name":"x","arguments":"{}","metadata":"m"}]}',
  '{"role":"tool","responses":{}}',
  '{"role":"tool","responses":[{"id":"a","name":"x"}]}',
  '{"role":"tool","responses":[{"id":"a","name":"x","responseData":"r","isError":"yes"}]}',
  '{"role":"user","text":"x","media":{}}',
  '{"role":"user","text":"x","media":[{"mimeType":"image/png"}]}',
  '{"role":"user","text":"x","metadata":[1]}',
  '{"role":"user","text":"x","metadata":null}',
  '{"__proto__":{"role":"user"},"text":"x"}',
  '{',
  'undefined',
  '',
];

/** A conversation's earlier turn, stored before a test's turn. */
export const EARLIER_TURN: readonly Message[] = [
  { role: 'user', text: 'Earlier' },
  { role: 'assistant', text: 'Noted', toolCalls: [] },
];

/** A turn whose write a test delays past its timeout. */
export const LATE_TURN: readonly Message[] = [
  { role: 'user', text: 'Late question' },
  { role: 'assistant', text: 'Late answer', toolCalls: [] },
];

/** Heavy tests get room on a shared, busy machine; they never assert speed. */
const SLOW_TEST_MS = 180_000;

let counter = 0;
function uniqueId(label: string): string {
  counter++;
  return `${label}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

function marker(writer: number, index: number, extra: Record<string, unknown> = {}): Message {
  return { role: 'user', text: `w${writer}#${index}`, metadata: { writer, index, ...extra } };
}

function weatherTool() {
  return tool({
    name: 'weather',
    description: 'Current weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: (input: Record<string, unknown>) => `${String(input.city)}: 21C`,
  });
}

/** A turn of `rounds` weather calls (one per round), then `answer`. */
function toolTurnScript(prefix: string, rounds: number, answer: string): ChatResponse[] {
  return [
    ...Array.from({ length: rounds }, (_, index) =>
      toolCallResponse([
        { id: `${prefix}-${index + 1}`, name: 'weather', arguments: { city: `City${index + 1}` } },
      ]),
    ),
    textResponse(answer),
  ];
}

function toolTurnModel(prefix: string, rounds: number, answer: string): ScriptedChatModel {
  return new ScriptedChatModel(toolTurnScript(prefix, rounds, answer));
}

/**
 * A model that asks for the weather of the city in the turn's question (`Weather in Paris?`), one
 * round at a time, every call with the id `callId`, and after two results answers with the city
 * and the results it was shown: a turn that saw another turn's question or results answers wrong.
 */
function cityWeatherModel(callId: string, calls: number): ScriptedChatModel {
  const turn = (prompt: Prompt): ChatResponse => {
    const messages = prompt.messages;
    const questionAt = messages.findLastIndex((message) => message.role === 'user');
    const question = messages[questionAt] as { text: string };
    const city = /Weather in (\w+)\?/.exec(question.text)?.[1] ?? 'unknown';
    const results = messages
      .slice(questionAt)
      .flatMap((message) => (message.role === 'tool' ? message.responses : []))
      .map((response) => JSON.parse(response.responseData) as string);
    if (results.length < 2) {
      return toolCallResponse([
        { id: callId, name: 'weather', arguments: { city, round: results.length + 1 } },
      ]);
    }
    return textResponse(`${city}: ${results.join(' | ')}`);
  };
  return new ScriptedChatModel(Array.from({ length: calls }, () => turn));
}

/** `meet(name)` resolves once `parties` callers have met under that name. */
function rendezvous(parties: number): (name: string) => Promise<void> {
  const waiting = new Map<string, { count: number; all: Promise<void>; release: () => void }>();
  return (name) => {
    let entry = waiting.get(name);
    if (!entry) {
      let release!: () => void;
      const all = new Promise<void>((resolve) => {
        release = resolve;
      });
      entry = { count: 0, all, release };
      waiting.set(name, entry);
    }
    entry.count++;
    if (entry.count === parties) entry.release();
    return entry.all;
  };
}

/**
 * The contract every `ChatMemoryRepository` meets (research/reliability.md T24-T34), run against
 * the in-memory, SQLite, Redis and PostgreSQL repositories on real servers.
 */
export function chatMemoryRepositoryContract(options: ChatMemoryContractOptions): void {
  const runs = options.propertyRuns ?? 50;

  describe('tool results with content parts', () => {
    const PNG = Buffer.alloc(3000, 7).toString('base64');
    const turn: Message[] = [
      { role: 'user', text: 'Screenshot please' },
      { role: 'assistant', text: null, toolCalls: [{ id: 'c1', name: 'shot', arguments: '{}' }] },
      {
        role: 'tool',
        responses: [
          {
            id: 'c1',
            name: 'shot',
            responseData: 'A page\n[image image/png, 2.9 KB]',
            content: [
              { type: 'text', text: 'A page' },
              { type: 'image', mediaType: 'image/png', data: PNG },
              { type: 'file', mediaType: 'text/csv', text: 'a,b\n1,2', uri: 'file:///t.csv' },
              { type: 'resource-link', uri: 'https://x.test/r', name: 'r' },
            ],
            structuredContent: { width: 800, tags: ['a', null, 1.5] },
          },
        ],
      },
    ];

    it('keeps parts and structured content losslessly, through saveAll and append', async () => {
      const { repository } = await options.create();
      await repository.saveAll('parts', turn);
      expect(await repository.findByConversationId('parts')).toEqual(turn);
      await repository.append('parts', turn);
      expect(await repository.findByConversationId('parts')).toEqual([...turn, ...turn]);
    });

    it('refuses media over maxMediaBytes with a MemoryError and writes nothing', async () => {
      const { repository } = await options.create({ maxMediaBytes: 2048 });
      await repository.saveAll('big', [{ role: 'user', text: 'before' }]);
      const failure = repository.append('big', turn);
      await expect(failure).rejects.toBeInstanceOf(MemoryError);
      await expect(failure).rejects.toThrow(
        `${options.backend} chat memory: messages[2] holds 2.9 KB of tool result media (image image/png 2.9 KB from 'shot', file text/csv 7 B from 'shot'), over the store's limit of 2.0 KB per message (maxMediaBytes); nothing was written`,
      );
      await expect(repository.saveAll('big', turn)).rejects.toBeInstanceOf(MemoryError);
      expect(await repository.findByConversationId('big')).toEqual([
        { role: 'user', text: 'before' },
      ]);
    });

    it('refuses a part that is not valid (a URL of another scheme) and writes nothing', async () => {
      const { repository } = await options.create();
      const bad = structuredClone(turn);
      const response = (bad[2] as { responses: { content: unknown[] }[] }).responses[0];
      response?.content.push({ type: 'image', mediaType: 'image/png', url: 'ftp://x.test/a.png' });
      await expect(repository.append('bad', bad)).rejects.toThrow(
        "messages[2] is not a valid message: responses[0].content[4] is not a valid part: its url has the scheme 'ftp:'",
      );
      expect(await repository.findByConversationId('bad')).toEqual([]);
    });
  });

  describe('repository basics (reference tests)', () => {
    it('lists, saves, finds, overwrites and deletes conversations', async () => {
      const { repository } = await options.create();
      expect(await repository.findConversationIds()).toEqual([]);
      expect(await repository.findByConversationId('unknown')).toEqual([]);

      const one: Message[] = [{ role: 'user', text: 'Hello' }];
      const many: Message[] = [
        { role: 'system', text: 'Be brief' },
        { role: 'user', text: 'Hi' },
        { role: 'assistant', text: 'Hello!', toolCalls: [] },
      ];
      await repository.saveAll('a', one);
      await repository.saveAll('b', many);
      expect(await repository.findByConversationId('a')).toEqual(one);
      expect(await repository.findByConversationId('b')).toEqual(many);
      expect((await repository.findConversationIds()).sort()).toEqual(['a', 'b']);

      await repository.saveAll('a', many);
      expect(await repository.findByConversationId('a')).toEqual(many);

      await repository.append('a', one);
      expect(await repository.findByConversationId('a')).toEqual([...many, ...one]);

      await repository.deleteByConversationId('a');
      expect(await repository.findByConversationId('a')).toEqual([]);
      expect(await repository.findConversationIds()).toEqual(['b']);

      await repository.saveAll('b', []);
      expect(await repository.findConversationIds()).toEqual([]);
    });

    it('returns copies: changing a returned or saved array does not change the store', async () => {
      const { repository } = await options.create();
      const saved: Message[] = [{ role: 'user', text: 'original', metadata: { n: 1 } }];
      await repository.saveAll('c', saved);
      (saved[0] as { text: string }).text = 'changed after save';
      const read = await repository.findByConversationId('c');
      (read[0] as { text: string }).text = 'changed after read';
      expect(await repository.findByConversationId('c')).toEqual([
        { role: 'user', text: 'original', metadata: { n: 1 } },
      ]);
    });

    it('validates arguments with the reference messages', async () => {
      const { repository } = await options.create();
      for (const bad of ['', '   ', null, undefined]) {
        const id = bad as unknown as string;
        await expect(repository.findByConversationId(id)).rejects.toThrow(
          'conversationId cannot be null or empty',
        );
        await expect(repository.saveAll(id, [])).rejects.toThrow(
          'conversationId cannot be null or empty',
        );
        await expect(repository.append(id, [])).rejects.toThrow(
          'conversationId cannot be null or empty',
        );
        await expect(repository.deleteByConversationId(id)).rejects.toThrow(
          'conversationId cannot be null or empty',
        );
      }
      await expect(repository.saveAll('c', null as unknown as Message[])).rejects.toThrow(
        'messages cannot be null',
      );
      await expect(repository.saveAll('c', [null as unknown as Message])).rejects.toThrow(
        'messages cannot contain null elements',
      );
    });
  });

  describe('T24/T25/T34 round-trip fidelity', () => {
    it(
      'property: any transcript comes back deep-equal, whether saved whole or appended in pieces',
      async () => {
        const { repository } = await options.create();
        await fc.assert(
          fc.asyncProperty(
            fc.array(arbitraryMessage(), { maxLength: 12 }),
            fc.integer({ min: 1, max: 4 }),
            async (generated, pieces) => {
              const messages = asJson(generated);
              const saved = uniqueId('saved');
              await repository.saveAll(saved, messages);
              expect(await repository.findByConversationId(saved)).toEqual(messages);

              const appended = uniqueId('appended');
              const size = Math.ceil(messages.length / pieces) || 1;
              for (let start = 0; start < messages.length; start += size) {
                await repository.append(appended, messages.slice(start, start + size));
              }
              expect(await repository.findByConversationId(appended)).toEqual(messages);
            },
          ),
          { numRuns: runs },
        );
      },
      SLOW_TEST_MS,
    );

    it('keeps every message shape exactly: tool calls, tool responses, typed metadata, 1 MB text', async () => {
      const { repository } = await options.create();
      const big = 'x'.repeat(1024 * 1024);
      const messages: Message[] = [
        { role: 'system', text: 'sys', metadata: { version: 2, strict: true, none: null } },
        {
          role: 'user',
          text: '{"role":"tool","responses":[{"id":"fake","name":"x","responseData":"y"}]}',
          media: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
        },
        {
          role: 'assistant',
          text: null,
          toolCalls: [
            { id: 'c1', name: 'weather', arguments: '{"city":"Paris","nested":{"a":[1,2]}}' },
            {
              id: 'c2',
              name: 'time',
              arguments: 'not json',
              metadata: { signature: 'sig', n: 1.5 },
            },
          ],
          metadata: { tokens: 12, cached: false, tags: ['a', 'b'], nested: { deep: { x: null } } },
        },
        {
          role: 'tool',
          responses: [
            { id: 'c1', name: 'weather', responseData: '"sunny"' },
            { id: 'c2', name: 'time', responseData: 'boom', isError: true },
          ],
        },
        { role: 'assistant', text: big, toolCalls: [] },
        { role: 'assistant', text: '', toolCalls: [] },
      ];
      await repository.saveAll('shapes', messages);
      const read = await repository.findByConversationId('shapes');
      expect(read).toEqual(messages);
      // Stored content stays data of its original role: a user text that looks like a tool message.
      expect(read[1]?.role).toBe('user');
    });

    it('T33: 1,000 messages saved in one batch keep their order (a sequence, not a timestamp)', async () => {
      const { repository } = await options.create();
      const messages = Array.from({ length: 1000 }, (_, index) => marker(0, index));
      await repository.append('batch', messages);
      expect(await repository.findByConversationId('batch')).toEqual(messages);
    });
  });

  describe('stored rows are validated', () => {
    it('a message that is not a valid message is refused on write with an InvalidArgumentError, and nothing is stored', async () => {
      const { repository } = await options.create();
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const invalid: unknown[] = [
        { role: 'tool' },
        { role: 'robot', text: 'x' },
        { role: 'user', text: 5 },
        { role: 'assistant', text: null, toolCalls: [{ id: 'a', name: 'x', arguments: {} }] },
        { role: 'tool', responses: [{ id: 'a', name: 'x', responseData: 'r', isError: 'yes' }] },
        { role: 'user', text: 'x', metadata: { big: 10n } },
        { role: 'user', text: 'x', metadata: { run: () => 1 } },
        { role: 'user', text: 'x', metadata: circular },
        { role: 'user', text: 'x', metadata: { when: new Date(0) } },
        { role: 'user', text: 'x', metadata: { n: Number.NaN } },
      ];
      const valid: Message = { role: 'user', text: 'valid' };
      for (const message of invalid) {
        for (const write of [
          () => repository.append('refused', [valid, message as Message]),
          () => repository.saveAll('refused', [valid, message as Message]),
        ]) {
          const error = await write().catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(InvalidArgumentError);
          expect((error as Error).message).toMatch(/^messages\[1\] is not a valid message: /);
        }
      }
      expect(await repository.findByConversationId('refused')).toEqual([]);
    });

    // The in-memory store has no rows to corrupt: it holds only what passed validation.
    if (options.storesRawRows) {
      it(`a corrupt stored row (${CORRUPT_ROWS.length} kinds) fails every read with a MemoryError naming the conversation and the row, never a TypeError; clear() repairs the conversation`, async () => {
        const fixture = await options.create();
        const { repository } = fixture;
        const storeRawRow = fixture.storeRawRow as NonNullable<RepositoryFixture['storeRawRow']>;
        let tried = 0;
        for (const text of CORRUPT_ROWS) {
          const id = uniqueId('corrupt');
          const before = [...EARLIER_TURN];
          await repository.append(id, before);
          if (!(await storeRawRow(id, text))) continue;
          tried++;
          const read = await repository.findByConversationId(id).catch((caught: unknown) => caught);
          expect(read, text).toBeInstanceOf(MemoryError);
          expect((read as MemoryError).backend).toBe(options.backend);
          expect((read as MemoryError).conversationId).toBe(id);
          expect((read as Error).message, text).toContain(`conversation ${JSON.stringify(id)}`);
          expect((read as Error).message, text).toMatch(/row 3\b/);

          const chatMemory = new MessageWindowChatMemory({ repository });
          const model = new ScriptedChatModel([textResponse('Fresh start.')]);
          const client = ChatClient.create(model, {
            advisors: [new MessageChatMemoryAdvisor({ chatMemory })],
          });
          const ask = () =>
            client
              .prompt('Next question')
              .advisors((a) => a.param(CONVERSATION_ID, id))
              .call()
              .content();
          const turn = await ask().catch((caught: unknown) => caught);
          expect(turn, text).toBeInstanceOf(MemoryError);
          expect(model.callCount).toBe(0);
          const add = await chatMemory
            .add(id, [{ role: 'user', text: 'more' }])
            .catch((caught: unknown) => caught);
          expect(add, text).toBeInstanceOf(MemoryError);

          await chatMemory.clear(id);
          expect(await ask()).toBe('Fresh start.');
          expect(await repository.findByConversationId(id)).toEqual([
            { role: 'user', text: 'Next question' },
            { role: 'assistant', text: 'Fresh start.', toolCalls: [] },
          ]);
        }
        expect(tried).toBeGreaterThanOrEqual(CORRUPT_ROWS.length - 3);
        expect(Object.prototype).not.toHaveProperty('role');
      });
    }
  });

  describe('T32 conversation ids are data', () => {
    const hostile = [
      '*',
      '%',
      '_',
      'a:*',
      'a:b*',
      '?',
      '[ab]',
      '../x',
      '..\\x',
      "'; DROP TABLE x; --",
      'a\u0000b',
      '\ud800',
      'a%',
      '🙂'.repeat(2560),
      'é'.repeat(10 * 1024),
    ];

    it('no id reads, overwrites or deletes another conversation', async () => {
      const { repository } = await options.create();
      const victims = ['a:b', 'a:bc', 'ab', 'x', 'victim'];
      for (const victim of victims) {
        await repository.saveAll(victim, [{ role: 'user', text: `secret of ${victim}` }]);
      }
      for (const id of hostile) {
        expect(await repository.findByConversationId(id)).toEqual([]);
        await repository.append(id, [{ role: 'user', text: `own ${id.length}` }]);
        expect(await repository.findByConversationId(id)).toEqual([
          { role: 'user', text: `own ${id.length}` },
        ]);
      }
      expect((await repository.findConversationIds()).sort()).toEqual(
        [...victims, ...hostile].sort(),
      );
      for (const id of hostile) await repository.deleteByConversationId(id);
      for (const victim of victims) {
        expect(await repository.findByConversationId(victim)).toEqual([
          { role: 'user', text: `secret of ${victim}` },
        ]);
      }
      expect((await repository.findConversationIds()).sort()).toEqual([...victims].sort());
    });
  });

  describe('T26 concurrency: 0 lost, 0 duplicated, 0 reordered', () => {
    it(
      '200 conversations x 50 appends',
      async () => {
        const fixture = await options.create();
        const writers = [fixture.repository, fixture.sibling ?? fixture.repository];
        const ids = Array.from({ length: 200 }, (_, index) => `conversation-${index}`);
        await Promise.all(
          ids.map(async (id, conversation) => {
            for (let index = 0; index < 50; index++) {
              const repository = writers[index % writers.length] as ChatMemoryRepository;
              await repository.append(id, [marker(conversation, index)]);
            }
          }),
        );
        const stored = await Promise.all(
          ids.map((id) => fixture.repository.findByConversationId(id)),
        );
        stored.forEach((messages, conversation) => {
          expect(messages).toEqual(
            Array.from({ length: 50 }, (_, index) => marker(conversation, index)),
          );
        });
        expect((await fixture.repository.findConversationIds()).sort()).toEqual([...ids].sort());
      },
      SLOW_TEST_MS,
    );

    it(
      '20 concurrent writers on one conversation, reads interleaved',
      async () => {
        const fixture = await options.create();
        const writers = [fixture.repository, fixture.sibling ?? fixture.repository];
        const perWriter = 25;
        const reads: Message[][] = [];
        await Promise.all([
          ...Array.from({ length: 20 }, async (_, writer) => {
            const repository = writers[writer % writers.length] as ChatMemoryRepository;
            for (let index = 0; index < perWriter; index++) {
              // Two messages per append: each append must land as one contiguous run.
              await repository.append('shared', [
                marker(writer, index, { part: 1 }),
                marker(writer, index, { part: 2 }),
              ]);
            }
          }),
          (async () => {
            for (let read = 0; read < 20; read++) {
              reads.push(await fixture.repository.findByConversationId('shared'));
            }
          })(),
        ]);
        const stored = await fixture.repository.findByConversationId('shared');
        expect(stored).toHaveLength(20 * perWriter * 2);
        const seen = new Set<string>();
        const nextIndex = new Map<number, number>();
        for (let position = 0; position < stored.length; position += 2) {
          const first = stored[position]?.metadata as {
            writer: number;
            index: number;
            part: number;
          };
          const second = stored[position + 1]?.metadata as {
            writer: number;
            index: number;
            part: number;
          };
          expect([first.part, second.part]).toEqual([1, 2]);
          expect([second.writer, second.index]).toEqual([first.writer, first.index]);
          const key = `${first.writer}#${first.index}`;
          expect(seen.has(key), `duplicate ${key}`).toBe(false);
          seen.add(key);
          expect(first.index).toBe(nextIndex.get(first.writer) ?? 0);
          nextIndex.set(first.writer, first.index + 1);
        }
        expect(seen.size).toBe(20 * perWriter);
        // Every interleaved read saw a prefix of the final order.
        for (const read of reads) expect(read).toEqual(stored.slice(0, read.length));
      },
      SLOW_TEST_MS,
    );

    it(
      '20 concurrent window adds of whole turns to one conversation all land',
      async () => {
        const fixture = await options.create();
        const memories = [fixture.repository, fixture.sibling ?? fixture.repository].map(
          (repository) => new MessageWindowChatMemory({ repository, maxMessages: 1000 }),
        );
        await Promise.all(
          Array.from({ length: 20 }, async (_, writer) => {
            const memory = memories[writer % memories.length] as MessageWindowChatMemory;
            for (let index = 0; index < 5; index++) {
              await memory.add('window', [
                marker(writer, index),
                { role: 'assistant', text: `answer ${writer}#${index}`, toolCalls: [] },
              ]);
            }
          }),
        );
        const stored = await fixture.repository.findByConversationId('window');
        expect(stored).toHaveLength(200);
        expect(new Set(stored.map((message) => JSON.stringify(message))).size).toBe(200);
      },
      SLOW_TEST_MS,
    );
  });

  describe('T27 windows over this store keep tool pairs', () => {
    it(
      'property: every stored window is valid for a strict provider and equals the in-process window',
      async () => {
        const { repository } = await options.create();
        await fc.assert(
          fc.asyncProperty(
            arbitraryTurns({ maxTurns: 6 }),
            fc.integer({ min: 1, max: 20 }),
            async (turns, max) => {
              const id = uniqueId('window');
              const stored = new MessageWindowChatMemory({ repository, maxMessages: max });
              const reference = new MessageWindowChatMemory({ maxMessages: max });
              for (const turn of turns) {
                await stored.add(id, turn);
                await reference.add(id, turn);
                const window = await stored.get(id);
                assertToolPairsIntact(window);
                expect(window).toEqual(await reference.get(id));
              }
            },
          ),
          { numRuns: Math.max(10, Math.floor(runs / 2)) },
        );
      },
      SLOW_TEST_MS,
    );
  });

  describe('concurrent turns of one conversation never mix, even with identical tool-call ids', () => {
    for (const placement of ['inside', 'outside'] as const) {
      for (const mode of ['call', 'stream'] as const) {
        it(`memory ${placement} the loop, ${mode}: two turns whose calls share the id "call_response_0", then "0", each keep their own question, calls and results`, async () => {
          const { repository } = await options.create();
          // (The loop refuses an empty id before any tool runs; the memory unit tests cover it.)
          for (const callId of ['call_response_0', '0']) {
            const id = uniqueId(`mixed-${placement}-${mode}`);
            const chatMemory = new MessageWindowChatMemory({ repository, maxMessages: 100 });
            const order = placement === 'inside' ? HIGHEST_PRECEDENCE + 400 : undefined;
            const meet = rendezvous(2);
            const client = ChatClient.create(cityWeatherModel(callId, 20), {
              tools: [
                tool({
                  name: 'weather',
                  description: 'Weather of a city, one round at a time',
                  inputSchema: {
                    type: 'object',
                    properties: { city: { type: 'string' }, round: { type: 'number' } },
                    required: ['city', 'round'],
                  },
                  // Both turns reach each round before either goes on: their rounds interleave.
                  execute: async (input: Record<string, unknown>) => {
                    await meet(`round ${String(input.round)}`);
                    return `${String(input.city)} round ${String(input.round)}: 21C`;
                  },
                }),
              ],
              advisors: [new MessageChatMemoryAdvisor({ chatMemory, order })],
            });
            const ask = async (city: string) => {
              const request = client
                .prompt(`Weather in ${city}?`)
                .advisors((a) => a.param(CONVERSATION_ID, id));
              if (mode === 'call') return request.call().content();
              let text = '';
              for await (const delta of request.stream().content()) text += delta;
              return text;
            };
            const answers = await Promise.all([ask('Paris'), ask('Rome')]);
            expect(answers).toEqual([
              'Paris: Paris round 1: 21C | Paris round 2: 21C',
              'Rome: Rome round 1: 21C | Rome round 2: 21C',
            ]);
            const stored = await repository.findByConversationId(id);
            assertToolPairsIntact(stored);
            expect(stored).toHaveLength(placement === 'inside' ? 12 : 4);
            // Each stored turn is contiguous and about one city: question, calls, results, answer.
            for (let start = 0; start < stored.length; start += stored.length / 2) {
              const turn = stored.slice(start, start + stored.length / 2);
              const city = /Weather in (\w+)\?/.exec(
                (turn[0] as { text: string }).text,
              )?.[1] as string;
              expect(['Paris', 'Rome']).toContain(city);
              for (const message of turn.slice(1)) expect(JSON.stringify(message)).toContain(city);
              expect(JSON.stringify(turn)).not.toContain(city === 'Paris' ? 'Rome' : 'Paris');
            }
          }
        });
      }
    }
  });

  describe('T28 memory inside and outside the tool loop', () => {
    it('inside: a 3-round tool turn is stored in full and fed back once', async () => {
      const { repository } = await options.create();
      const chatMemory = new MessageWindowChatMemory({ repository, maxMessages: 100 });
      const model = toolTurnModel('in', 3, 'Checked three cities.');
      const client = ChatClient.create(model, {
        tools: [weatherTool()],
        advisors: [new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 })],
      });
      await client
        .prompt('Weather?')
        .advisors((a) => a.param(CONVERSATION_ID, 'loop'))
        .call()
        .content();
      const stored = await repository.findByConversationId('loop');
      expect(stored.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
      ]);
      assertToolPairsIntact(stored);
      model.enqueue(textResponse('You asked about the weather.'));
      await client
        .prompt('What did I ask?')
        .advisors((a) => a.param(CONVERSATION_ID, 'loop'))
        .call()
        .content();
      expect(model.prompts[4]?.messages).toEqual([
        ...stored,
        { role: 'user', text: 'What did I ask?' },
      ]);
    });

    it('inside, default window of 20: a 10-round turn after an earlier turn keeps its question, answer and newest rounds (0 lost before: every message)', async () => {
      const { repository } = await options.create();
      const chatMemory = new MessageWindowChatMemory({ repository });
      const model = new ScriptedChatModel([
        textResponse('Hello!'),
        ...toolTurnScript('long', 10, 'Ten cities checked.'),
      ]);
      const client = ChatClient.create(model, {
        tools: [weatherTool()],
        advisors: [new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 })],
      });
      const ask = (question: string) =>
        client
          .prompt(question)
          .advisors((a) => a.param(CONVERSATION_ID, 'long-turn'))
          .call()
          .content();
      await ask('Hi');
      expect(await ask('Weather in ten cities?')).toBe('Ten cities checked.');
      const stored = await repository.findByConversationId('long-turn');
      assertToolPairsIntact(stored);
      expect(stored).toHaveLength(20);
      expect(stored[0]).toEqual({ role: 'user', text: 'Weather in ten cities?' });
      expect(stored.at(-1)).toEqual({
        role: 'assistant',
        text: 'Ten cities checked.',
        toolCalls: [],
      });
      // The 9 newest rounds stay; the oldest round is the one compacted away.
      expect(stored.filter((message) => message.role === 'tool')).toHaveLength(9);
      expect(JSON.stringify(stored)).not.toContain('City1"');
      expect(JSON.stringify(stored)).toContain('City10');
    });

    it('outside: the same turn stores the question and the answer only', async () => {
      const { repository } = await options.create();
      const chatMemory = new MessageWindowChatMemory({ repository });
      const model = toolTurnModel('out', 3, 'Checked three cities.');
      const client = ChatClient.create(model, {
        tools: [weatherTool()],
        advisors: [new MessageChatMemoryAdvisor({ chatMemory })],
      });
      await client
        .prompt('Weather?')
        .advisors((a) => a.param(CONVERSATION_ID, 'loop'))
        .call()
        .content();
      expect(await repository.findByConversationId('loop')).toEqual([
        { role: 'user', text: 'Weather?' },
        { role: 'assistant', text: 'Checked three cities.', toolCalls: [] },
      ]);
    });
  });

  const createFaulty = options.createFaulty;
  const faultMethods = options.faultMethods;
  if (createFaulty && faultMethods) {
    describe('T30 store faults', () => {
      for (const mode of options.faultModes ?? ['error']) {
        it(
          `${mode}: a failing k-th store operation surfaces a MemoryError and leaves the conversation before or after the whole turn, for every k`,
          async () => {
            const { FaultInjector } = await import('./fault-injection.js');
            const injector = new FaultInjector(faultMethods);
            const { repository, sibling } = await createFaulty(injector);
            const before = [...EARLIER_TURN];
            let failures = 0;
            for (let k = 1; k < 200; k++) {
              const id = `fault-${mode}-${k}`;
              await sibling.saveAll(id, before);
              const chatMemory = new MessageWindowChatMemory({ repository, maxMessages: 100 });
              const model = toolTurnModel(`k${k}`, 5, 'Five cities checked.');
              const client = ChatClient.create(model, {
                tools: [weatherTool()],
                advisors: [
                  new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 }),
                ],
              });
              injector.arm(k, mode);
              let error: unknown;
              try {
                await client
                  .prompt('Weather in five cities?')
                  .advisors((a) => a.param(CONVERSATION_ID, id))
                  .call()
                  .content();
              } catch (caught) {
                error = caught;
              }
              injector.disarm();
              const after = await sibling.findByConversationId(id);
              if (injector.fired) {
                failures++;
                expect(error).toBeInstanceOf(MemoryError);
                expect((error as MemoryError).backend).toBe(options.backend);
                expect((error as MemoryError).conversationId).toBe(id);
                expect((error as Error).message).not.toContain('Weather in five cities');
              } else {
                expect(error).toBeUndefined();
              }
              if (after.length === before.length) {
                expect(after).toEqual(before);
              } else {
                expect(after).toHaveLength(before.length + 12);
                expect(after.slice(0, 2)).toEqual(before);
                assertToolPairsIntact(after);
              }
              if (!injector.fired) break;
            }
            // At least the history read, the write and (for a trimming append) its snapshot.
            expect(failures).toBeGreaterThanOrEqual(3);
          },
          SLOW_TEST_MS,
        );
      }
    });
  }
}
