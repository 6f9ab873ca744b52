import { describe, expect, it } from 'vitest';
import { assertToolPairsIntact } from '../../test/integration/transcripts.js';
import {
  ChatModelAdvisor,
  DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER,
  DefaultCallAdvisorChain,
  DefaultStreamAdvisorChain,
  HIGHEST_PRECEDENCE,
} from '../advisors/index.js';
import { ChatClient } from '../client/index.js';
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
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { createToolCallingManager, ToolCallingAdvisor } from '../tool-calling/index.js';
import { tool } from '../tools/tool.js';
import { CONVERSATION_ID } from './chat-memory.js';
import { InMemoryChatMemoryRepository } from './in-memory-chat-memory-repository.js';
import { MessageChatMemoryAdvisor } from './message-chat-memory-advisor.js';
import { MessageWindowChatMemory } from './message-window-chat-memory.js';

const ATC = assistantMessage(null, [toolCall('t1', 'weather', { city: 'Paris' })]);
const TR = toolResponseMessage([toolResponse('t1', 'weather', 'sunny')]);

function callThrough(
  advisor: MessageChatMemoryAdvisor,
  model: ScriptedChatModel,
  messages: Message[],
  conversationId = 'c',
) {
  return DefaultCallAdvisorChain.of([advisor, new ChatModelAdvisor(model)]).nextCall({
    prompt: { messages, options: {} },
    context: { [CONVERSATION_ID]: conversationId },
  });
}

async function memoryWith(messages: Message[], maxMessages = 100) {
  const repository = new InMemoryChatMemoryRepository();
  await repository.saveAll('c', messages);
  return new MessageWindowChatMemory({ repository, maxMessages });
}

function weather(executions: string[] = []) {
  return tool({
    name: 'weather',
    description: 'Current weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: (input: Record<string, unknown>) => {
      const city = String(input.city);
      executions.push(city);
      return `${city}: 21C`;
    },
  });
}

/** A 3-round tool turn: three tool-call responses, then the answer. */
function threeRoundModel(prefix: string, answer: string): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ id: `${prefix}-1`, name: 'weather', arguments: { city: 'Paris' } }]),
    toolCallResponse([{ id: `${prefix}-2`, name: 'weather', arguments: { city: 'Rome' } }]),
    toolCallResponse([{ id: `${prefix}-3`, name: 'weather', arguments: { city: 'Oslo' } }]),
    textResponse(answer),
  ]);
}

function countOccurrences(messages: readonly Message[], wanted: Message): number {
  return messages.filter((message) => JSON.stringify(message) === JSON.stringify(wanted)).length;
}

describe('MessageChatMemoryAdvisor', () => {
  it('is a memory advisor with the default memory order, or the given one', () => {
    const chatMemory = new MessageWindowChatMemory();
    const advisor = new MessageChatMemoryAdvisor({ chatMemory });
    expect(advisor.order).toBe(DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER);
    expect(advisor.isMemoryAdvisor).toBe(true);
    expect(advisor.name).toBe('MessageChatMemoryAdvisor');
    expect(new MessageChatMemoryAdvisor({ chatMemory, order: 42 }).order).toBe(42);
  });

  it('reads the conversation id from the advisor params', () => {
    expect(() => MessageChatMemoryAdvisor.getConversationId({})).toThrow(InvalidArgumentError);
    expect(MessageChatMemoryAdvisor.getConversationId({ [CONVERSATION_ID]: 'session-42' })).toBe(
      'session-42',
    );
    expect(MessageChatMemoryAdvisor.getConversationId({ [CONVERSATION_ID]: 42 })).toBe('42');
    expect(MessageChatMemoryAdvisor.getConversationId({ [CONVERSATION_ID]: 42n })).toBe('42');
  });

  // String() of any plain object is '[object Object]' (and of an array, its items joined by
  // commas): two users whose ids were objects shared one conversation, each shown the other's.
  it('refuses a conversation id that is not a string or a number, before the model is called', async () => {
    const refused: [unknown, string][] = [
      [{ user: 'alice' }, 'an object'],
      [['a', 'b'], 'an array'],
      [true, 'a boolean'],
      [Number.NaN, 'NaN'],
      [Symbol('c'), 'a symbol'],
      [() => 'c', 'a function'],
    ];
    for (const [id, kind] of refused) {
      expect(() => MessageChatMemoryAdvisor.getConversationId({ [CONVERSATION_ID]: id })).toThrow(
        new InvalidArgumentError(
          `the conversation id (advisor param CONVERSATION_ID) must be a string or a number, not ${kind}`,
        ),
      );
    }
    const chatMemory = new MessageWindowChatMemory();
    const model = new ScriptedChatModel([textResponse('Hello Alice'), textResponse('never')]);
    const client = ChatClient.create(model, {
      advisors: [new MessageChatMemoryAdvisor({ chatMemory })],
    });
    const ask = (user: string, text: string) =>
      client
        .prompt(text)
        .advisors((a) => a.param(CONVERSATION_ID, { user }))
        .call()
        .content();
    await expect(ask('alice', 'I am Alice')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(ask('bob', 'Who am I?')).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(model.callCount).toBe(0);
    expect(await chatMemory.repository.findConversationIds()).toEqual([]);
  });

  it('a request without a conversation id fails before the model is called', async () => {
    const model = new ScriptedChatModel([textResponse('never')]);
    const advisor = new MessageChatMemoryAdvisor({ chatMemory: new MessageWindowChatMemory() });
    await expect(
      DefaultCallAdvisorChain.of([advisor, new ChatModelAdvisor(model)]).nextCall({
        prompt: { messages: [userMessage('Hello')], options: {} },
        context: {},
      }),
    ).rejects.toThrow(
      "The chat memory advisor needs a conversation id, and this request has none (conversationId cannot be null). Give one per request: .advisors((a) => a.param(CONVERSATION_ID, 'conversation-id'))",
    );
    expect(model.callCount).toBe(0);
  });

  it('stores the user message and the answer of a turn', async () => {
    const chatMemory = new MessageWindowChatMemory();
    const model = new ScriptedChatModel([textResponse('Hi!')]);
    const advisor = new MessageChatMemoryAdvisor({ chatMemory });
    await callThrough(advisor, model, [userMessage('Hello')]);
    expect(model.prompts[0]?.messages).toEqual([userMessage('Hello')]);
    expect(await chatMemory.get('c')).toEqual([userMessage('Hello'), assistantMessage('Hi!')]);
  });

  it('prepends the history and moves the first system message to the front', async () => {
    const chatMemory = await memoryWith([
      userMessage('Previous question'),
      assistantMessage('Previous answer'),
    ]);
    const model = new ScriptedChatModel([textResponse('ok')]);
    await callThrough(new MessageChatMemoryAdvisor({ chatMemory }), model, [
      userMessage('Now'),
      systemMessage('Be brief'),
    ]);
    expect(model.prompts[0]?.messages).toEqual([
      systemMessage('Be brief'),
      userMessage('Previous question'),
      assistantMessage('Previous answer'),
      userMessage('Now'),
    ]);

    const second = new ScriptedChatModel([textResponse('ok')]);
    await callThrough(new MessageChatMemoryAdvisor({ chatMemory }), second, [
      systemMessage('First'),
      userMessage('Again'),
    ]);
    expect(second.prompts[0]?.messages[0]).toEqual(systemMessage('First'));
  });

  it('does not add history the prompt already holds (memory [U, A(call)], prompt [U, A, TR])', async () => {
    const chatMemory = await memoryWith([userMessage('Weather?'), ATC]);
    const model = new ScriptedChatModel([textResponse('Sunny')]);
    const prompt = [userMessage('Weather?'), ATC, TR];
    await callThrough(new MessageChatMemoryAdvisor({ chatMemory }), model, prompt);
    expect(model.prompts[0]?.messages).toEqual(prompt);
    expect(await chatMemory.get('c')).toEqual([
      userMessage('Weather?'),
      ATC,
      TR,
      assistantMessage('Sunny'),
    ]);
  });

  it('stores the question and the tool call with its responses when the stored history lacks them', async () => {
    // The reference stores [TR] alone here, an orphan a strict provider rejects.
    const chatMemory = await memoryWith([]);
    const model = new ScriptedChatModel([textResponse('Sunny')]);
    const prompt = [userMessage('Weather?'), ATC, TR];
    await callThrough(new MessageChatMemoryAdvisor({ chatMemory }), model, prompt);
    expect(model.prompts[0]?.messages).toEqual(prompt);
    const stored = await chatMemory.get('c');
    expect(stored).toEqual([userMessage('Weather?'), ATC, TR, assistantMessage('Sunny')]);
  });

  it('never stores a tool response whose call neither the prompt nor an open turn holds', async () => {
    const chatMemory = await memoryWith([userMessage('old'), assistantMessage('old')]);
    const model = new ScriptedChatModel([textResponse('Answered')]);
    await callThrough(new MessageChatMemoryAdvisor({ chatMemory }), model, [TR]);
    expect(await chatMemory.get('c')).toEqual([
      userMessage('old'),
      assistantMessage('old'),
      assistantMessage('Answered'),
    ]);
  });

  it('a small window compacts the turn rather than keep an orphan tool response (max 3)', async () => {
    const a1 = assistantMessage(null, [toolCall('a1', 'weather', '{}')]);
    const tr1 = toolResponseMessage([toolResponse('a1', 'weather', '1')]);
    const a2 = assistantMessage(null, [toolCall('a2', 'weather', '{}')]);
    const tr2 = toolResponseMessage([toolResponse('a2', 'weather', '2')]);
    const chatMemory = await memoryWith([userMessage('U'), a1, tr1, a2], 3);
    const model = new ScriptedChatModel([textResponse('done')]);
    const prompt = [userMessage('U'), a1, tr1, a2, tr2];
    await callThrough(new MessageChatMemoryAdvisor({ chatMemory }), model, prompt);
    expect(model.prompts[0]?.messages).toEqual(prompt);
    // The reference keeps [TR2], an orphan; here the turn keeps its question and its answer.
    expect(await chatMemory.get('c')).toEqual([userMessage('U'), assistantMessage('done')]);
  });

  it.each(['x', ''])(
    'caller-driven tool turns (no tool loop) with the same call id (%j) are told apart by the call the prompt shows',
    async (id) => {
      const chatMemory = new MessageWindowChatMemory();
      const advisor = new MessageChatMemoryAdvisor({ chatMemory });
      const callFor = (city: string) => assistantMessage(null, [toolCall(id, 'weather', { city })]);
      const resultFor = (city: string) =>
        toolResponseMessage([toolResponse(id, 'weather', `${city}: 21C`)]);
      // Both turns ask for a tool with the same id; the caller runs it and sends the results back.
      for (const city of ['Paris', 'Rome']) {
        const asks = toolCallResponse([{ id, name: 'weather', arguments: { city } }]);
        await callThrough(advisor, new ScriptedChatModel([asks]), [userMessage(`${city}?`)]);
      }
      await callThrough(advisor, new ScriptedChatModel([textResponse('Paris is mild')]), [
        userMessage('Paris?'),
        callFor('Paris'),
        resultFor('Paris'),
      ]);
      await callThrough(advisor, new ScriptedChatModel([textResponse('Rome is mild')]), [
        userMessage('Rome?'),
        callFor('Rome'),
        resultFor('Rome'),
      ]);
      expect(await chatMemory.get('c')).toEqual([
        userMessage('Paris?'),
        callFor('Paris'),
        resultFor('Paris'),
        assistantMessage('Paris is mild'),
        userMessage('Rome?'),
        callFor('Rome'),
        resultFor('Rome'),
        assistantMessage('Rome is mild'),
      ]);
    },
  );

  it('stores nothing when the model fails', async () => {
    const chatMemory = await memoryWith([userMessage('old'), assistantMessage('old')]);
    const model = new ScriptedChatModel([new Error('provider down')]);
    await expect(
      callThrough(new MessageChatMemoryAdvisor({ chatMemory }), model, [userMessage('new')]),
    ).rejects.toThrow('provider down');
    expect(await chatMemory.get('c')).toEqual([userMessage('old'), assistantMessage('old')]);
  });

  it('stream: stores the aggregated answer once, after the last chunk', async () => {
    const chatMemory = new MessageWindowChatMemory();
    const model = new ScriptedChatModel([textResponse('Hello there, friend')], { textChunks: 3 });
    const advisor = new MessageChatMemoryAdvisor({ chatMemory });
    const chain = DefaultStreamAdvisorChain.of([advisor, new ChatModelAdvisor(model)]);
    let chunks = 0;
    for await (const chunk of chain.nextStream({
      prompt: { messages: [userMessage('Hi')], options: {} },
      context: { [CONVERSATION_ID]: 'c' },
    })) {
      chunks++;
      expect(chunk.chatResponse).not.toBeNull();
      if (chunks < 3) expect(await chatMemory.get('c')).toEqual([]);
    }
    expect(chunks).toBe(3);
    expect(await chatMemory.get('c')).toEqual([
      userMessage('Hi'),
      assistantMessage('Hello there, friend'),
    ]);
  });

  it('stream: a consumer that stops early stores nothing', async () => {
    const chatMemory = new MessageWindowChatMemory();
    const model = new ScriptedChatModel([textResponse('Hello there, friend')], { textChunks: 3 });
    const chain = DefaultStreamAdvisorChain.of([
      new MessageChatMemoryAdvisor({ chatMemory }),
      new ChatModelAdvisor(model),
    ]);
    for await (const _chunk of chain.nextStream({
      prompt: { messages: [userMessage('Hi')], options: {} },
      context: { [CONVERSATION_ID]: 'c' },
    })) {
      break;
    }
    expect(await chatMemory.get('c')).toEqual([]);
  });

  describe('with the ChatClient and the tool loop', () => {
    for (const mode of ['call', 'stream'] as const) {
      async function ask(client: ChatClient, text: string, conversationId = 'c') {
        const spec = client.prompt(text).advisors((a) => a.param(CONVERSATION_ID, conversationId));
        if (mode === 'call') return spec.call().content();
        let answer = '';
        for await (const delta of spec.stream().content()) answer += delta;
        return answer;
      }

      it(`${mode}: outside the loop (default order) stores the user message and the final answer only`, async () => {
        const chatMemory = await memoryWith([userMessage('Earlier'), assistantMessage('Noted')]);
        const model = threeRoundModel('o', 'Three cities checked.');
        const client = ChatClient.create(model, {
          tools: [weather()],
          advisors: [new MessageChatMemoryAdvisor({ chatMemory })],
        });
        expect(await ask(client, 'Weather in three cities?')).toBe('Three cities checked.');

        expect(await chatMemory.get('c')).toEqual([
          userMessage('Earlier'),
          assistantMessage('Noted'),
          userMessage('Weather in three cities?'),
          assistantMessage('Three cities checked.'),
        ]);
        expect(model.prompts).toHaveLength(4);
        model.prompts.forEach((prompt, round) => {
          // History loaded once, forwarded by the loop: present exactly once in every round.
          expect(countOccurrences(prompt.messages, userMessage('Earlier'))).toBe(1);
          expect(countOccurrences(prompt.messages, userMessage('Weather in three cities?'))).toBe(
            1,
          );
          expect(prompt.messages.filter((m) => m.role === 'tool')).toHaveLength(round);
          assertToolPairsIntact(prompt.messages);
        });
      });

      it(`${mode}: inside the loop stores every tool call and response, and no prompt repeats history`, async () => {
        const chatMemory = await memoryWith([userMessage('Earlier'), assistantMessage('Noted')]);
        const model = threeRoundModel('i', 'Three cities checked.');
        const client = ChatClient.create(model, {
          tools: [weather()],
          advisors: [new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 })],
        });
        expect(await ask(client, 'Weather in three cities?')).toBe('Three cities checked.');

        const stored = await chatMemory.get('c');
        expect(stored.map((m) => m.role)).toEqual([
          'user',
          'assistant',
          'user',
          'assistant',
          'tool',
          'assistant',
          'tool',
          'assistant',
          'tool',
          'assistant',
        ]);
        expect(stored.slice(2, 4)).toEqual([
          userMessage('Weather in three cities?'),
          assistantMessage(null, [toolCall('i-1', 'weather', { city: 'Paris' })]),
        ]);
        expect(stored[4]).toMatchObject({
          role: 'tool',
          responses: [{ id: 'i-1', name: 'weather' }],
        });
        expect(stored[9]).toEqual(assistantMessage('Three cities checked.'));
        assertToolPairsIntact(stored);

        expect(model.prompts).toHaveLength(4);
        model.prompts.forEach((prompt, round) => {
          expect(countOccurrences(prompt.messages, userMessage('Earlier'))).toBe(1);
          expect(countOccurrences(prompt.messages, userMessage('Weather in three cities?'))).toBe(
            1,
          );
          expect(prompt.messages.filter((m) => m.role === 'tool')).toHaveLength(round);
          assertToolPairsIntact(prompt.messages);
        });

        // The next turn sees the whole tool transcript once.
        model.enqueue(textResponse('You asked about three cities.'));
        await ask(client, 'What did I ask?');
        const next = model.prompts[4]?.messages ?? [];
        expect(next.slice(0, stored.length)).toEqual(stored);
        expect(next[stored.length]).toEqual(userMessage('What did I ask?'));
      });

      it(`${mode}: inside the loop a turn that ends by returnDirect is stored with its tool results`, async () => {
        const chatMemory = await memoryWith([]);
        const status = tool({
          name: 'status',
          description: 'Live status of a service',
          inputSchema: { type: 'object', properties: {}, required: [] },
          returnDirect: true,
          execute: () => ({ status: 'UP' }),
        });
        const model = new ScriptedChatModel([
          toolCallResponse([{ id: 'rd-1', name: 'status' }]),
          textResponse('It was UP.'),
        ]);
        const client = ChatClient.create(model, {
          tools: [status],
          advisors: [new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 })],
        });
        expect(await ask(client, 'Is it up?')).toBe('{"status":"UP"}');
        expect(model.prompts).toHaveLength(1);
        const stored = await chatMemory.get('c');
        expect(stored).toEqual([
          userMessage('Is it up?'),
          assistantMessage(null, [toolCall('rd-1', 'status', {})]),
          toolResponseMessage([toolResponse('rd-1', 'status', '{"status":"UP"}')]),
        ]);
        await ask(client, 'Was it up?');
        const next = model.prompts[1]?.messages ?? [];
        expect(next).toEqual([...stored, userMessage('Was it up?')]);
        assertToolPairsIntact(next);
      });

      it(`${mode}: inside the loop a turn that ends by a limit breach is stored with every call answered`, async () => {
        const chatMemory = await memoryWith([]);
        const model = new ScriptedChatModel([
          toolCallResponse([
            { id: 'lb-1', name: 'weather', arguments: { city: 'Paris' } },
            { id: 'lb-2', name: 'weather', arguments: { city: 'Rome' } },
          ]),
        ]);
        const client = ChatClient.create(model, {
          tools: [weather()],
          advisors: [new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 })],
          toolCallingAdvisor: new ToolCallingAdvisor({
            toolCallingManager: createToolCallingManager({ limits: { perTool: { weather: 1 } } }),
          }),
        });
        await ask(client, 'Two cities?');
        const stored = await chatMemory.get('c');
        expect(stored.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
        expect(stored[2]).toMatchObject({
          role: 'tool',
          responses: [{ id: 'lb-1' }, { id: 'lb-2' }],
        });
        assertToolPairsIntact(stored);
      });

      it(`${mode}: inside the loop a turn that fails in round 2 stores nothing and the next prompt is valid`, async () => {
        const chatMemory = await memoryWith([userMessage('Earlier'), assistantMessage('Noted')]);
        const model = new ScriptedChatModel([
          toolCallResponse([{ id: 'f-1', name: 'weather', arguments: { city: 'Paris' } }]),
          new Error('provider 500'),
          textResponse('Recovered.'),
        ]);
        const client = ChatClient.create(model, {
          tools: [weather()],
          advisors: [new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 })],
        });
        await expect(ask(client, 'Weather?')).rejects.toThrow('provider 500');
        expect(await chatMemory.get('c')).toEqual([
          userMessage('Earlier'),
          assistantMessage('Noted'),
        ]);
        await ask(client, 'Try again');
        const last = model.prompts[model.prompts.length - 1]?.messages ?? [];
        assertToolPairsIntact(last);
        expect(last).toEqual([
          userMessage('Earlier'),
          assistantMessage('Noted'),
          userMessage('Try again'),
        ]);
      });

      it(`${mode}: inside the loop two concurrent turns of one conversation are both stored whole`, async () => {
        const chatMemory = new MessageWindowChatMemory({ maxMessages: 100 });
        const model = new ScriptedChatModel([
          (prompt) =>
            toolCallResponse([
              {
                id: `${(prompt.messages.at(-1) as { text: string }).text}-1`,
                name: 'weather',
                arguments: { city: 'Paris' },
              },
            ]),
          (prompt) =>
            toolCallResponse([
              {
                id: `${(prompt.messages.at(-1) as { text: string }).text}-1`,
                name: 'weather',
                arguments: { city: 'Rome' },
              },
            ]),
          textResponse('first done'),
          textResponse('second done'),
        ]);
        const client = ChatClient.create(model, {
          tools: [weather()],
          advisors: [new MessageChatMemoryAdvisor({ chatMemory, order: HIGHEST_PRECEDENCE + 400 })],
        });
        await Promise.all([ask(client, 'A'), ask(client, 'B')]);
        const stored = await chatMemory.get('c');
        expect(stored).toHaveLength(8);
        assertToolPairsIntact(stored);
        for (const start of [0, 4]) {
          expect(stored[start]?.role).toBe('user');
          expect(stored[start + 3]?.role).toBe('assistant');
        }
      });
    }
  });
});

describe('MessageChatMemoryAdvisor with a tool call whose arguments are not text', () => {
  // Some OpenAI-compatible servers send a call's arguments as an object. The loop refuses the
  // call with an error result and the model answers; the store, which holds arguments as JSON
  // text, refused the whole turn at the end with an InvalidArgumentError ('messages[1] is not a
  // valid message'), so the caller lost the answer and nothing was stored.
  for (const placement of ['inside', 'outside'] as const) {
    it(`memory ${placement} the loop: the turn answers and is stored, the arguments as their JSON text`, async () => {
      const chatMemory = new MessageWindowChatMemory();
      const model = new ScriptedChatModel([
        {
          results: [
            {
              output: {
                role: 'assistant',
                text: null,
                toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } as never }],
              },
              metadata: { finishReason: 'tool_calls' },
            },
          ],
          metadata: {},
        },
        textResponse('Could not check the weather.'),
      ]);
      const client = ChatClient.create(model, {
        tools: [weather()],
        advisors: [
          new MessageChatMemoryAdvisor({
            chatMemory,
            ...(placement === 'inside' ? { order: HIGHEST_PRECEDENCE + 400 } : {}),
          }),
        ],
      });
      const answer = await client
        .prompt('Weather in Oslo?')
        .advisors((a) => a.param(CONVERSATION_ID, 'c'))
        .call()
        .content();
      expect(answer).toBe('Could not check the weather.');
      const stored = await chatMemory.get('c');
      assertToolPairsIntact(stored);
      expect(stored.map((message) => message.role)).toEqual(
        placement === 'inside' ? ['user', 'assistant', 'tool', 'assistant'] : ['user', 'assistant'],
      );
      if (placement === 'inside') {
        expect(stored[1]).toEqual(
          assistantMessage(null, [{ id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' }]),
        );
      }
    });
  }
});
