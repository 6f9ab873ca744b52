import { describe, expect, it } from 'vitest';
import {
  runChatModelToolCalling,
  scriptedChatModelToolCallingModel,
} from '../../examples/chat-model-tool-calling.js';
import { runToolCallingLoop } from '../../examples/tool-calling-loop.js';
import {
  runToolSpecification,
  scriptedToolSpecificationModel,
} from '../../examples/tool-specification.js';

const quiet = () => {};

describe('The Tool Calling Loop', () => {
  it('offers the tools on every model call and grows the history by one call and its result per round, in call and stream mode', async () => {
    const result = await runToolCallingLoop(quiet);
    const expected = [
      { offered: ['current_weather'], roles: ['user'] },
      { offered: ['current_weather'], roles: ['user', 'assistant', 'tool'] },
      { offered: ['current_weather'], roles: ['user', 'assistant', 'tool', 'assistant', 'tool'] },
    ];
    expect(result.callRounds).toEqual(expected);
    expect(result.streamRounds).toEqual(expected);
    expect(result.callAnswer).toBe('Amsterdam: 11 °C and rain; Paris: 17 °C and sunny.');
    expect(result.streamAnswer).toBe(result.callAnswer);
    expect(result.twoToolAdvisors).toMatch(
      /^At most one ToolAdvisor is allowed in the advisor chain, but found 2: \[Tool Calling Advisor .*order=42\)\]$/,
    );
  });
});

describe('Tool Specification Reference', () => {
  it('runs a hand-written ToolCallback, shows descriptions and optional parameters, refuses what cannot be an input', async () => {
    const model = scriptedToolSpecificationModel();
    const result = await runToolSpecification(model, quiet);
    expect(result.answer).toBe('It is 18 °C in Paris.');
    expect(model.prompts[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      responses: [
        {
          id: 'call-1',
          name: 'currentWeather',
          responseData: '{"location":"Paris","temperature":18,"unit":"C"}',
        },
      ],
    });
    expect(model.prompts[0]?.options.toolCallbacks?.map((t) => t.definition.name)).toEqual([
      'currentWeather',
      'updateCustomerInfo',
    ]);
    expect(result.customerSchema).toMatchObject({
      type: 'object',
      required: ['id', 'name'],
      properties: { email: { type: 'string', description: 'Email address, RFC 5322 format' } },
    });
    expect(result.refused).toEqual([
      expect.stringContaining('Function types cannot be represented in JSON Schema'),
      expect.stringContaining('Date cannot be represented in JSON Schema'),
      expect.stringContaining('must describe a JSON object'),
    ]);
  });
});

describe('ChatModel Tool Calling', () => {
  it('returns the tool calls unexecuted; the caller runs them with a ToolCallingManager', async () => {
    const result = await runChatModelToolCalling(scriptedChatModelToolCallingModel(), quiet);
    expect(result.requested).toEqual(['current_weather({"city":"Amsterdam"})']);
    expect(result.executedBeforeManager).toBe(0);
    expect(result.modelCalls).toBe(2);
    expect(result.answer).toBe('It is 11 °C and raining in Amsterdam.');
  });
});
