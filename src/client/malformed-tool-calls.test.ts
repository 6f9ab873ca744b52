import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IllegalStateError } from '../errors/index.js';
import {
  CONVERSATION_ID,
  InMemoryChatMemoryRepository,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
} from '../memory/index.js';
import type { ToolCall } from '../messages/index.js';
import type { ChatResponse } from '../model/index.js';
import { ScriptedChatModel, textResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import { runRequest } from './__tests__/run-request.js';
import { ChatClient } from './chat-client.js';

/** A response as a broken adapter might build it: the calls exactly as given, unchecked. */
function rawToolCallResponse(calls: unknown[]): ChatResponse {
  return {
    results: [
      {
        output: { role: 'assistant', text: null, toolCalls: calls as ToolCall[] },
        metadata: { finishReason: 'tool_calls' },
      },
    ],
    metadata: {},
  };
}

function weatherTool() {
  const runs: unknown[] = [];
  const weather = tool({
    name: 'weather',
    description: 'Weather in a city',
    inputSchema: z.object({ city: z.string().optional() }),
    execute: (input) => {
      runs.push(input);
      return 'sunny';
    },
  });
  return { weather, runs };
}

describe.each(['call', 'stream'] as const)('malformed tool calls from a ChatModel (%s)', (mode) => {
  it('answers arguments sent as an object with the "JSON text" error; the tool never runs', async () => {
    const { weather, runs } = weatherTool();
    const model = new ScriptedChatModel([
      rawToolCallResponse([{ id: 'c1', name: 'weather', arguments: { city: 42 } }]),
      textResponse('Sorry, I sent bad arguments.'),
    ]);
    const answer = await runRequest(
      ChatClient.create(model).prompt('Weather?').tools(weather),
      mode,
    );
    expect(answer).toBe('Sorry, I sent bad arguments.');
    expect(runs).toEqual([]);
    expect(model.prompts[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      responses: [
        {
          id: 'c1',
          name: 'weather',
          responseData:
            "Tool call not executed: invalid arguments for tool 'weather': (root): arguments must be JSON text. Fix the arguments and call the tool again.",
          isError: true,
        },
      ],
    });
  });

  it.each([
    ['an empty id', { id: '', name: 'weather', arguments: '{}' }],
    ['a numeric id', { id: 1, name: 'weather', arguments: '{}' }],
    ['no id', { name: 'weather', arguments: '{}' }],
  ])(
    'fails the request on a call with %s: nothing runs, nothing is stored',
    async (_label, call) => {
      const { weather, runs } = weatherTool();
      const repository = new InMemoryChatMemoryRepository();
      const memory = new MessageChatMemoryAdvisor({
        chatMemory: new MessageWindowChatMemory({ repository }),
      });
      const model = new ScriptedChatModel([
        rawToolCallResponse([{ id: 'ok', name: 'weather', arguments: '{}' }, call]),
        textResponse('never'),
      ]);
      const client = ChatClient.create(model, { advisors: [memory] });
      const request = client
        .prompt('Weather?')
        .tools(weather)
        .advisors((a) => a.param(CONVERSATION_ID, 'conv-1'));
      const error = await runRequest(request, mode).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(IllegalStateError);
      expect((error as Error).message).toContain('malformed tool call (call 2 of 2)');
      expect(runs).toEqual([]);
      expect(await repository.findByConversationId('conv-1')).toEqual([]);
    },
  );
});
