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

  it('[S1,S2,U1,A1] + [U2,A2] with max 3 keeps [S1,S2,U2,A2]: the new turn stays (the reference keeps [S1,S2])', async () => {
    expect(await windowOf(3, [S('1'), S('2'), U('1'), A('1')], [U('2'), A('2')])).toEqual([
      S('1'),
      S('2'),
      U('2'),
      A('2'),
    ]);
  });

  it('[S1,S2] + [U,A,U] with max 2 keeps [S1,S2,U]: the newest turn stays (the reference keeps [S1,S2])', async () => {
    expect(await windowOf(2, [S('1'), S('2')], [U('1'), A('1'), U('2')])).toEqual([
      S('1'),
      S('2'),
      U('2'),
    ]);
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

  it('a turn longer than the window keeps its question and answer ([U,A,TR,A] max 3; the reference keeps [])', async () => {
    expect(await windowOf(3, [], [U('1'), ATC, TR, A('done')])).toEqual([U('1'), A('done')]);
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
    await expect(memory.add('c', null as unknown as Message)).rejects.toThrow(
      new InvalidArgumentError('message cannot be null'),
    );
    await expect(memory.add('c', undefined as unknown as Message)).rejects.toThrow(
      'message cannot be null',
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

  it('property: trimming never splits a tool call from its responses, never exceeds the window, never drops the newest turn', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryTurns(), fc.integer({ min: 1, max: 20 }), async (turns, max) => {
        const memory = new MessageWindowChatMemory({ maxMessages: max });
        for (const turn of turns) {
          await memory.add('c', turn);
          const window = await memory.get('c');
          assertToolPairsIntact(window);
          // Past the window only when it is smaller than a question and its answer.
          const conversation = window.filter((message) => message.role !== 'system');
          expect(conversation.length).toBeLessThanOrEqual(Math.max(max, 2));
          // The turn just added keeps its question and its answer, in order, at the end.
          const question = turn.find((message) => message.role === 'user');
          expect(conversation.at(-1)).toEqual(turn.at(-1));
          expect(conversation.filter((message) => message.role === 'user').at(-1)).toEqual(
            question,
          );
          const same = (left: Message) => (right: Message) =>
            JSON.stringify(left) === JSON.stringify(right);
          const turnInWindow = conversation.slice(
            conversation.findLastIndex(same(question as Message)),
          );
          expect(turnInWindow.every((message) => turn.some(same(message)))).toBe(true);
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

/** A turn of `rounds` tool rounds with unique call ids: [U, (A(call), TR) × rounds, A]. */
function toolTurn(label: string, rounds: number, answer = `answer ${label}`): Message[] {
  const messages: Message[] = [U(label)];
  for (let round = 1; round <= rounds; round++) {
    const id = `${label}-${round}`;
    messages.push(assistantMessage(null, [toolCall(id, 'weather', { round })]));
    messages.push(toolResponseMessage([toolResponse(id, 'weather', `result ${round}`)]));
  }
  messages.push(A(answer));
  return messages;
}

describe('MessageWindowChatMemory never drops the turn being appended', () => {
  it('a 10-round turn (22 messages) in the default window of 20 keeps its question, its answer and its newest rounds', async () => {
    const earlier = [U('earlier'), A('earlier answer')];
    const turn = toolTurn('big', 10);
    const window = await windowOf(20, earlier, turn);
    assertToolPairsIntact(window);
    expect(window).toHaveLength(20);
    // The question, then the 9 newest rounds (18 messages), then the answer: round 1 goes.
    expect(window).toEqual([turn[0], ...turn.slice(3)]);
  });

  it('a turn ending on tool results (returnDirect) keeps its last round whole', async () => {
    const turn = toolTurn('direct', 4).slice(0, -1);
    const window = await windowOf(4, [U('old'), A('old')], turn);
    assertToolPairsIntact(window);
    expect(window).toEqual([turn[0], ...turn.slice(-2)]);
  });

  it('a window smaller than the question and the answer still keeps both', async () => {
    const turn = toolTurn('tiny', 2);
    expect(await windowOf(1, [U('old'), A('old')], turn)).toEqual([turn[0], turn.at(-1)]);
  });

  it('added in two steps (question, then the rest) the turn is protected as well', async () => {
    const turn = toolTurn('split', 10);
    const repository = new InMemoryChatMemoryRepository();
    const memory = new MessageWindowChatMemory({ repository, maxMessages: 20 });
    await memory.add('c', [U('earlier'), A('earlier answer')]);
    await memory.add('c', turn.slice(0, 1));
    await memory.add('c', turn.slice(1));
    const window = await memory.get('c');
    assertToolPairsIntact(window);
    expect(window).toEqual([turn[0], ...turn.slice(3)]);
  });
});

describe('MessageWindowChatMemory with the results of one call message in several tool messages', () => {
  // [U, A(calls a, b), TR(a), TR(b), A(call c), TR(c), A(call d), TR(d), A]: a transcript built
  // elsewhere (one tool message per result, as OpenAI's wire has them) and added as it is.
  const calls = (...ids: string[]) =>
    assistantMessage(
      null,
      ids.map((id) => toolCall(id, 'weather', { id })),
    );
  const results = (id: string) => toolResponseMessage([toolResponse(id, 'weather', `r ${id}`)]);
  const turn: Message[] = [
    U('q'),
    calls('a', 'b'),
    results('a'),
    results('b'),
    calls('c'),
    results('c'),
    calls('d'),
    results('d'),
    A('end'),
  ];

  /** Every tool message follows, past tool messages only, the call message it answers. */
  function assertAnswered(window: readonly Message[]): void {
    window.forEach((message, index) => {
      if (message.role !== 'tool') return;
      let at = index - 1;
      while (window[at]?.role === 'tool') at--;
      const caller = window[at];
      expect(caller?.role, `tool message ${index} follows no call`).toBe('assistant');
      const ids = caller?.role === 'assistant' ? caller.toolCalls.map((call) => call.id) : [];
      for (const response of message.responses) expect(ids).toContain(response.id);
    });
  }

  it('a compacted turn keeps or drops a call message with all of its tool messages', async () => {
    for (let max = 1; max <= turn.length; max++) {
      const window = await windowOf(max, [U('old'), A('old')], turn);
      assertAnswered(window);
    }
    expect(await windowOf(7, [], turn)).toEqual([U('q'), ...turn.slice(4)]);
    expect(await windowOf(9, [], turn)).toEqual(turn);
  });
});
