import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolDefinitionError } from '../errors/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import type { ToolCallbackProvider } from '../tools/tool-callback.js';
import { runRequest } from './__tests__/run-request.js';
import { ChatClient } from './chat-client.js';

const weather = tool({
  name: 'weather',
  description: 'Current weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}`,
});

class OrderTools {
  @tool({
    description: 'The status of an order',
    inputSchema: z.object({ orderId: z.string() }),
  })
  orderStatus({ orderId }: { orderId: string }) {
    return `${orderId}: shipped`;
  }
}

function offeredNames(model: ScriptedChatModel): (string[] | undefined)[] {
  return model.prompts.map((prompt) =>
    prompt.options.toolCallbacks?.map((callback) => callback.definition.name),
  );
}

describe.each(['call', 'stream'] as const)('the same tool source given twice (%s)', (mode) => {
  it('offers a tool once when the same callback is a default tool and a request tool', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather', arguments: { city: 'Oslo' } }]),
      textResponse('Sunny in Oslo.'),
    ]);
    const client = ChatClient.create(model, { tools: [weather] });
    const answer = await runRequest(client.prompt('Weather in Oslo?').tools(weather), mode);
    expect(answer).toBe('Sunny in Oslo.');
    expect(offeredNames(model)).toEqual([['weather'], ['weather']]);
  });

  it('offers the tools of one @tool object once when it is passed again', async () => {
    const orders = new OrderTools();
    const model = new ScriptedChatModel([textResponse('ok')]);
    const client = ChatClient.create(model, { tools: [orders] });
    await runRequest(client.prompt('x').tools(orders, [orders]), mode);
    expect(offeredNames(model)).toEqual([['orderStatus']]);
  });

  it('lists a provider once when it is a default tool source and a request one', async () => {
    let listings = 0;
    const provider: ToolCallbackProvider = {
      getToolCallbacks: async (request) => {
        listings++;
        // As an MCP provider does, refuse a name already taken in the request.
        if (request?.reservedNames.has('remote')) throw new Error('remote is taken');
        return [tool({ name: 'remote', execute: () => 'r' })];
      },
    };
    const model = new ScriptedChatModel([textResponse('ok')]);
    const client = ChatClient.create(model, { tools: [provider] });
    await runRequest(client.prompt('x').tools(provider), mode);
    expect(listings).toBe(1);
    expect(offeredNames(model)).toEqual([['remote']]);
  });

  it('still refuses two different tools of one name, saying how to resolve it', async () => {
    const model = new ScriptedChatModel([textResponse('never')]);
    const other = tool({ name: 'weather', execute: () => 'rain' });
    const client = ChatClient.create(model, { tools: [weather] });
    const failure = runRequest(client.prompt('x').tools(other), mode);
    await expect(failure).rejects.toBeInstanceOf(ToolDefinitionError);
    await expect(runRequest(client.prompt('x').tools(other), mode)).rejects.toThrow(
      /Multiple tools with the same name \(weather\) found in the ChatClient request.*rename one/,
    );
    expect(model.callCount).toBe(0);
  });
});
