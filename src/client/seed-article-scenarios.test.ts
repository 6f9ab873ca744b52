import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolResponseMessage } from '../messages/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-callback.js';
import { runRequest } from './__tests__/run-request.js';
import { ChatClient } from './chat-client.js';

// The scenarios of the seed article ("Spring AI 2.0 tool calling"), at ChatClient level.

const WEATHER: Record<string, object> = {
  Boston: { city: 'Boston', temperatureCelsius: 14.5, conditions: 'Overcast', humidityPercent: 71 },
};
const CONNECTIONS: Record<string, number> = { 'orders-api': 214 };
const ACCOUNTS: Record<string, object> = {
  alice: { tier: 'GOLD', openTickets: 2 },
  bob: { tier: 'SILVER', openTickets: 0 },
};

class WeatherTools {
  @tool({
    name: 'current_weather',
    description: 'Get the current weather conditions for a named city.',
    inputSchema: z.object({ city: z.string().describe('The city name, e.g. Boston') }),
  })
  currentWeather({ city }: { city: string }) {
    return WEATHER[city];
  }
}

class StatusTools {
  constructor(private readonly now: () => Date) {}

  @tool({
    name: 'server_status',
    description: 'Get the live status of an internal service.',
    returnDirect: true,
    inputSchema: z.object({
      serviceName: z.string().describe('The service name, e.g. orders-api'),
    }),
  })
  serverStatus({ serviceName }: { serviceName: string }) {
    return {
      service: serviceName,
      status: 'UP',
      activeConnections: CONNECTIONS[serviceName],
      checkedAt: this.now().toISOString().replace('.000Z', 'Z'),
    };
  }
}

class UserContextTools {
  @tool({
    name: 'my_account',
    description: "Get the current user's own account summary.",
    inputSchema: z.object({}),
  })
  myAccount(_input: Record<string, never>, context: ToolContext) {
    return ACCOUNTS[String(context.context.userId)];
  }
}

describe.each(['call', 'stream'] as const)('seed article scenarios (%s)', (mode) => {
  it('plain round trip: 2 model calls, the tool result sent back, the final answer returned', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'call-1', name: 'current_weather', arguments: { city: 'Boston' } }]),
      textResponse("It's 14.5C and overcast in Boston right now, with 71% humidity."),
    ]);
    const client = ChatClient.create(model, { tools: [new WeatherTools()] });
    const answer = await runRequest(client.prompt("What's the weather in Boston?"), mode);
    expect(model.callCount).toBe(2);
    const sentBack = model.prompts[1]?.messages.at(-1) as ToolResponseMessage;
    expect(sentBack.responses).toEqual([
      {
        id: 'call-1',
        name: 'current_weather',
        responseData:
          '{"city":"Boston","temperatureCelsius":14.5,"conditions":"Overcast","humidityPercent":71}',
      },
    ]);
    expect(answer).toBe("It's 14.5C and overcast in Boston right now, with 71% humidity.");
    expect(model.remaining).toBe(0);
  });

  it("returnDirect: 1 model call and the tool's own JSON is the content", async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'server_status', arguments: { serviceName: 'orders-api' } }]),
    ]);
    const tools = new StatusTools(() => new Date('2026-09-23T18:00:00Z'));
    const client = ChatClient.create(model, { tools: [tools] });
    const content = await runRequest(client.prompt('Is orders-api up?'), mode);
    expect(model.callCount).toBe(1);
    expect(content).toBe(
      '{"service":"orders-api","status":"UP","activeConnections":214,"checkedAt":"2026-09-23T18:00:00Z"}',
    );
  });

  it('ToolContext: no context property in the schema; the tool receives the caller’s userId', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'my_account', arguments: '' }]),
      (prompt) => {
        const result = prompt.messages.at(-1) as ToolResponseMessage;
        const account = JSON.parse(result.responses[0]?.responseData ?? '{}');
        return textResponse(`Your account tier is ${account.tier}.`);
      },
    ]);
    const client = ChatClient.create(model, { tools: [new UserContextTools()] });
    const answer = await runRequest(
      client.prompt("What's my account tier?").toolContext({ userId: 'alice' }),
      mode,
    );
    expect(answer).toBe('Your account tier is GOLD.');
    const definition = model.prompts[0]?.options.toolCallbacks?.[0]?.definition;
    expect(definition?.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
    for (const prompt of model.prompts) {
      expect(JSON.stringify(prompt.messages)).not.toContain('alice');
    }
    expect(
      JSON.stringify(
        model.prompts[1]?.options.toolCallbacks?.map((callback) => callback.definition),
      ),
    ).not.toContain('alice');
  });
});
