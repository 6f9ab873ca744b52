import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Message, ToolResponse, ToolResponseMessage } from '../messages/index.js';
import { toolCall, userMessage } from '../messages/index.js';
import { tool } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-callback.js';
import { toolCallbacksFrom } from '../tools/tool-decorator.js';
import { promptWith, toolCallResponse } from './__tests__/spy-tool.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';

function lastResponses(history: Message[]): ToolResponse[] {
  return (history[history.length - 1] as ToolResponseMessage).responses;
}

/** The seed article's UserContextTools: the user id comes from the caller, never from the model. */
class UserContextTools {
  readonly seen: unknown[] = [];

  @tool({ description: "Get the current user's account summary", inputSchema: z.object({}) })
  myAccount(_input: Record<string, never>, context: ToolContext) {
    this.seen.push(context.context.userId);
    return { userId: context.context.userId, plan: 'gold' };
  }

  @tool({ description: 'Echo a word', inputSchema: z.object({ word: z.string() }) })
  echo(input: { word: string }) {
    return input.word.toUpperCase();
  }
}

describe('executeToolCalls with tool() and @tool tools', () => {
  it('runs a function tool with its validated input and converts the result', async () => {
    const received: unknown[] = [];
    const weather = tool({
      name: 'weather',
      description: 'Current weather',
      inputSchema: z.object({ city: z.string(), unit: z.enum(['C', 'F']).default('C') }),
      execute: (input) => {
        received.push(input);
        return { city: input.city, temperature: 21, unit: input.unit };
      },
    });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([weather]),
      toolCallResponse([toolCall('1', 'weather', '{"city":"Paris"}')]),
    );
    expect(received).toEqual([{ city: 'Paris', unit: 'C' }]);
    expect(JSON.parse(lastResponses(result.conversationHistory)[0]?.responseData ?? '')).toEqual({
      city: 'Paris',
      temperature: 21,
      unit: 'C',
    });
  });

  it('never runs a function tool on arguments that fail its schema', async () => {
    let runs = 0;
    const weather = tool({
      name: 'weather',
      inputSchema: z.object({ city: z.string() }),
      execute: () => {
        runs++;
        return 'ran';
      },
    });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([weather]),
      toolCallResponse([
        toolCall('1', 'weather', '{"city":7}'),
        toolCall('2', 'weather', '{"city":"Oslo","tenantId":"other"}'),
        toolCall('3', 'weather', ''),
      ]),
    );
    expect(runs).toBe(0);
    const responses = lastResponses(result.conversationHistory);
    expect(responses.every((response) => response.isError === true)).toBe(true);
    expect(responses[0]?.responseData).toContain('/city');
    expect(responses[1]?.responseData).toContain('/tenantId: is not an allowed property');
    expect(responses[2]?.responseData).toContain('/city: is required');
  });

  it('sends what a function tool throws to the model through the processor', async () => {
    const failing = tool({
      name: 'failing',
      execute: () => {
        throw new Error('You failed this city!');
      },
    });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([failing]),
      toolCallResponse([toolCall('1', 'failing')]),
    );
    expect(lastResponses(result.conversationHistory)).toEqual([
      { id: '1', name: 'failing', responseData: 'You failed this city!', isError: true },
    ]);
  });

  it('gives the tool the caller context that its schema never mentions (seed ToolContext scenario)', async () => {
    const tools = new UserContextTools();
    const [myAccount, echo] = toolCallbacksFrom(tools);
    if (myAccount === undefined || echo === undefined) throw new Error('tools missing');
    expect(JSON.stringify(myAccount.definition.inputSchema)).not.toContain('userId');
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([myAccount, echo], [userMessage('who am I?')], { userId: 'alice' }),
      toolCallResponse([toolCall('1', 'myAccount', '{}'), toolCall('2', 'echo', '{"word":"hi"}')]),
    );
    expect(tools.seen).toEqual(['alice']);
    const responses = lastResponses(result.conversationHistory);
    expect(JSON.parse(responses[0]?.responseData ?? '')).toEqual({ userId: 'alice', plan: 'gold' });
    expect(responses[1]?.responseData).toBe('"HI"');
  });

  it('honours returnDirect, sequential and timeoutMs declared on a tool', async () => {
    const direct = tool({ name: 'direct', returnDirect: true, execute: () => 'straight to you' });
    const slow = tool({
      name: 'slow',
      timeoutMs: 10,
      execute: (_input, context) =>
        new Promise((_resolve, reject) => {
          context.signal?.addEventListener('abort', () => reject(context.signal?.reason));
        }),
    });
    const manager = createToolCallingManager();
    const directResult = await manager.executeToolCalls(
      promptWith([direct]),
      toolCallResponse([toolCall('1', 'direct')]),
    );
    expect(directResult.returnDirect).toBe(true);
    const slowResult = await manager.executeToolCalls(
      promptWith([slow]),
      toolCallResponse([toolCall('1', 'slow')]),
    );
    expect(lastResponses(slowResult.conversationHistory)[0]?.responseData).toBe(
      "Tool 'slow' timed out after 10 ms",
    );
  });
});
