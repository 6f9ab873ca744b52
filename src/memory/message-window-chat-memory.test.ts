import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitraryTurns, assertToolPairsIntact } from '../../test/integration/transcripts.js';
import { InvalidArgumentError } from '../errors/index.js';
import {
  assistantMessage,
  type Message,
  systemMessage,
  toolCall,
  toolResponse,
  toolResponseMessage,
  userMessage,
} from '../messages/index.js';
import { InMemoryChatMemoryRepository } from './in-memory-chat-memory-repository.js';
import { MessageWindowChatMemory } from './message-window-chat-memory.js';

const U = (text: string) => userMessage(text);
const A = (text: string) => assistantMessage(text);
const S = (text: string) => systemMessage(text);
const TR = toolResponseMessage([toolResponse('t1', 'weather', 'sunny')]);
const ATC = assistantMessage(null, [toolCall('t1', 'weather', { city: 'Paris' })]);

async function windowOf(max: number, stored: Message[], added: Message[]): Promise<Message[]> {
  const repository = new InMemoryChatMemoryRepository();
  await repository.saveAll('c', stored);
  const memory = new MessageWindowChatMemory({ repository, maxMessages: max });
  await memory.add('c', added);
  return memory.get('c');
}

describe('MessageWindowChatMemory', () => {
  it('defaults to 20 messages over an in-memory repository', () => {
    const memory = new MessageWindowChatMemory();
    expect(memory.maxMessages).toBe(20);
    expect(MessageWindowChatMemory.DEFAULT_MAX_MESSAGES).toBe(20);
    expect(memory.repository).toBeInstanceOf(InMemoryChatMemoryRepository);
  });

  it('keeps everything up to the limit', async () => {
    expect(await windowOf(4, [U('1'), A('1')], [U('2'), A('2')])).toEqual([
      U('1'),
      A('1'),
      U('2'),
      A('2'),
    ]);
  });

  it('max 2 with [U1,A1,U2,A2,U3] keeps [U3]', async () => {
    expect(await windowOf(2, [], [U('1'), A('1'), U('2'), A('2'), U('3')])).toEqual([U('3')]);
  });

  it('max 3 with [U1,A1,U2,A2,U3,A3] keeps [U3,A3]', async () => {
    expect(await windowOf(3, [], [U('1'), A('1'), U('2'), A('2'), U('3'), A('3')])).toEqual([
      U('3'),
      A('3'),
    ]);
  });

  it('max 4 with [U1,A,A,A,U2,A2] keeps [U2,A2]', async () => {
    expect(await windowOf(4, [], [U('1'), A('a'), A('b'), A('c'), U('2'), A('2')])).toEqual([
      U('2'),
      A('2'),
    ]);
  });

  it('max 4 with a cut landing on a user message keeps the last 4', async () => {
    expect(await windowOf(4, [], [U('1'), A('1'), U('2'), A('2'), U('3'), A('3')])).toEqual([
      U('2'),
      A('2'),
      U('3'),
      A('3'),
    ]);
  });

  it('[S,U1,A1] + [U2,A2] with max 3 keeps [S,U2,A2]', async () => {
    expect(await windowOf(3, [S('s'), U('1'), A('1')], [U('2'), A('2')])).toEqual([
      S('s'),
      U('2'),
      A('2'),
    ]);
  });

  it('[S1,S2,U1,A1] + [U2,A2] with max 3 evicts every non-system message', async () => {
    expect(await windowOf(3, [S('1'), S('2'), U('1'), A('1')], [U('2'), A('2')])).toEqual([
      S('1'),
      S('2'),
    ]);
  });

  it('[S1,S2] + [U,A,U] with max 2 keeps [S1,S2]', async () => {
    expect(await windowOf(2, [S('1'), S('2')], [U('1'), A('1'), U('2')])).toEqual([S('1'), S('2')]);
  });

  it('[S1,S2] + [S3] with max 2 keeps [S3]: a new system message replaces the stored ones', async () => {
    expect(await windowOf(2, [S('1'), S('2')], [S('3')])).toEqual([S('3')]);
  });

  it('a system message already stored does not evict the stored ones', async () => {
    expect(await windowOf(5, [S('1'), U('1')], [S('1'), A('1')])).toEqual([
      S('1'),
      U('1'),
      S('1'),
      A('1'),
    ]);
  });

  it('with no user message after the cut, every non-system message goes ([U,A,TR,A] max 3)', async () => {
    expect(await windowOf(3, [], [U('1'), ATC, TR, A('done')])).toEqual([]);
  });

  it('never starts a window with the tool response of an evicted call', async () => {
    const window = await windowOf(4, [], [U('1'), ATC, TR, A('1'), U('2'), A('2')]);
    expect(window).toEqual([U('2'), A('2')]);
  });

  it('validates its arguments with the reference messages', async () => {
    expect(() => new MessageWindowChatMemory({ maxMessages: 0 })).toThrow(
      new InvalidArgumentError('maxMessages must be greater than 0'),
    );
    expect(() => new MessageWindowChatMemory({ maxMessages: -1 })).toThrow(
      'maxMessages must be greater than 0',
    );
    const memory = new MessageWindowChatMemory();
    await expect(memory.get('')).rejects.toThrow('conversationId cannot be null or empty');
    await expect(memory.get(null as unknown as string)).rejects.toThrow(
      'conversationId cannot be null or empty',
    );
    await expect(memory.add('  ', [U('x')])).rejects.toThrow(
      'conversationId cannot be null or empty',
    );
    await expect(memory.clear('')).rejects.toThrow('conversationId cannot be null or empty');
    await expect(memory.add('c', null as unknown as Message[])).rejects.toThrow(
      'messages cannot be null',
    );
    await expect(memory.add('c', [U('x'), null as unknown as Message])).rejects.toThrow(
      'messages cannot contain null elements',
    );
    await expect(memory.add('c', [U('x')])).resolves.toBeUndefined();
  });

  it('clear forgets the conversation and leaves the others', async () => {
    const memory = new MessageWindowChatMemory();
    await memory.add('a', [U('a')]);
    await memory.add('b', [U('b')]);
    await memory.clear('a');
    expect(await memory.get('a')).toEqual([]);
    expect(await memory.get('b')).toEqual([U('b')]);
  });

  it('property: trimming never splits a tool call from its responses and never exceeds the window', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryTurns(), fc.integer({ min: 1, max: 20 }), async (turns, max) => {
        const memory = new MessageWindowChatMemory({ maxMessages: max });
        for (const turn of turns) {
          await memory.add('c', turn);
          const window = await memory.get('c');
          assertToolPairsIntact(window);
          expect(window.filter((message) => message.role !== 'system').length).toBeLessThanOrEqual(
            max,
          );
        }
        const last = turns[turns.length - 1] ?? [];
        const window = await memory.get('c');
        // Without system messages (which count but are never evicted), the newest turn is kept
        // whole whenever it fits the window.
        const hasSystem = turns.some((turn) => turn.some((message) => message.role === 'system'));
        if (!hasSystem && last.length <= max) {
          expect(window.slice(window.length - last.length)).toEqual(last);
        }
      }),
      { numRuns: 200 },
    );
  });
});
