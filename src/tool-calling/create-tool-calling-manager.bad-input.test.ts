import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IllegalStateError, NoSuchToolError, ToolExecutionError } from '../errors/index.js';
import type { Message, ToolCall, ToolResponse, ToolResponseMessage } from '../messages/index.js';
import { toolCall } from '../messages/index.js';
import type { FinishReason } from '../model/index.js';
import type { JsonSchema } from '../tools/json-schema.js';
import { promptWith, type SpyTool, spyTool, toolCallResponse } from './__tests__/spy-tool.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';

const citySchema: JsonSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
  required: ['city'],
  additionalProperties: false,
};

function lastResponses(history: Message[]): ToolResponse[] {
  const last = history[history.length - 1] as ToolResponseMessage;
  expect(last.role).toBe('tool');
  return last.responses;
}

/** Runs one batch and checks the invariant every test relies on: one response per call, in order. */
async function runBatch(
  tools: SpyTool[],
  calls: ToolCall[],
  options: Parameters<typeof createToolCallingManager>[0] = {},
  finishReason: FinishReason | null = 'tool_calls',
): Promise<ToolResponse[]> {
  const result = await createToolCallingManager(options).executeToolCalls(
    promptWith(tools),
    toolCallResponse(calls, finishReason),
  );
  const responses = lastResponses(result.conversationHistory);
  expect(responses.map((response) => response.id)).toEqual(calls.map((call) => call.id));
  expect(responses.map((response) => response.name)).toEqual(calls.map((call) => call.name));
  return responses;
}

async function rejectedSingleCall(
  tool: SpyTool,
  args: string,
  options: Parameters<typeof createToolCallingManager>[0] = {},
): Promise<ToolResponse> {
  const [response] = await runBatch([tool], [toolCall('c1', tool.definition.name, args)], options);
  expect(tool.invocations).toHaveLength(0);
  expect(response?.isError).toBe(true);
  return response as ToolResponse;
}

describe('bad input: arguments', () => {
  it('treats empty or whitespace arguments as {} for a tool without required parameters', async () => {
    const noParams = spyTool('noParams');
    const responses = await runBatch(
      [noParams],
      [toolCall('1', 'noParams', ''), toolCall('2', 'noParams', ' \n\t ')],
    );
    expect(responses.every((response) => response.isError !== true)).toBe(true);
    expect(noParams.invocations.map((invocation) => invocation.input)).toEqual(['{}', '{}']);
  });

  it('rejects empty arguments for a tool with required parameters, naming the missing one', async () => {
    const response = await rejectedSingleCall(spyTool('weather', { inputSchema: citySchema }), '');
    expect(response.responseData).toContain("invalid arguments for tool 'weather'");
    expect(response.responseData).toContain('/city: is required');
  });

  it('lists schema violations with JSON-pointer paths', async () => {
    const response = await rejectedSingleCall(
      spyTool('weather', { inputSchema: citySchema }),
      '{"city":42,"days":0,"extra":true}',
    );
    expect(response.responseData).toContain('/city: must be string');
    expect(response.responseData).toContain('/days: must be >= 1');
    expect(response.responseData).toContain('/extra: is not an allowed property');
    expect(response.responseData).toContain('Fix the arguments and call the tool again.');
  });

  it('never quotes the argument text in the error', async () => {
    const secret = 'SENTINEL-ARGUMENT-VALUE';
    const response = await rejectedSingleCall(
      spyTool('weather', { inputSchema: citySchema }),
      `{"city":"x","${secret}":"${secret}"`,
    );
    expect(response.responseData).not.toContain(secret);
  });

  it.each([
    ['truncated JSON', '{"city":"Par', 'truncated'],
    ['single quotes', "{'city':'Paris'}", 'not valid JSON'],
    ['an array', '["Paris"]', 'must be a JSON object, not an array'],
    ['null', 'null', 'must be a JSON object, not null'],
    ['a number', '42', 'must be a JSON object, not a number'],
    ['a string', '"Paris"', 'must be a JSON object, not a string'],
    ['a trailing model token', '{"city":"Paris"}<|endoftext|>', 'not valid JSON'],
    ['a number that overflows', '{"city":"Paris","days":1e999}', '/days: number is too large'],
  ])('rejects %s without running the tool', async (_label, args, expected) => {
    const response = await rejectedSingleCall(
      spyTool('weather', { inputSchema: citySchema }),
      args,
    );
    expect(response.responseData).toContain(
      "Tool call not executed: invalid arguments for tool 'weather'",
    );
    expect(response.responseData).toContain(expected);
  });

  it('rejects a 10 MB argument string by size, before parsing', async () => {
    const huge = `{"city":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    const response = await rejectedSingleCall(
      spyTool('weather', { inputSchema: citySchema }),
      huge,
    );
    expect(response.responseData).toContain('larger than the limit of 1048576 bytes');
    expect(response.responseData.length).toBeLessThan(500);
  });

  it('applies maxArgumentBytes', async () => {
    const response = await rejectedSingleCall(
      spyTool('weather', { inputSchema: citySchema }),
      '{"city":"Paris, France"}',
      { maxArgumentBytes: 10 },
    );
    expect(response.responseData).toContain('larger than the limit of 10 bytes');
  });

  it('rejects deeply nested JSON without overflowing the stack', async () => {
    const depth = 10_000;
    const nested = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const response = await rejectedSingleCall(spyTool('anything'), nested);
    expect(response.responseData).toContain('nested deeper than the limit');
  });

  it.each([
    ['__proto__', '{"__proto__":{"polluted":true}}', '/__proto__'],
    ['escaped __proto__', '{"\\u005f\\u005fproto\\u005f\\u005f":{"polluted":true}}', '/__proto__'],
    ['constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}', '/constructor'],
    ['nested __proto__', '{"a":{"b":{"__proto__":{"polluted":true}}}}', '/a/b/__proto__'],
  ])('rejects %s keys and leaves Object.prototype untouched', async (_label, args, path) => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const response = await rejectedSingleCall(spyTool('anything'), args);
    expect(response.responseData).toContain(path);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
  });

  it('rejects lone surrogates in values and keys', async () => {
    const value = await rejectedSingleCall(spyTool('anything'), '{"city":"\\ud800"}');
    expect(value.responseData).toContain('/city: string contains a lone UTF-16 surrogate');
    const key = await rejectedSingleCall(spyTool('anything'), '{"\\udc00":1}');
    expect(key.responseData).toContain('lone UTF-16 surrogate');
  });

  it('never runs a tool whose call was cut off by the output limit', async () => {
    const weather = spyTool('weather', { inputSchema: citySchema });
    const responses = await runBatch(
      [weather],
      [
        toolCall('complete', 'weather', '{"city":"Paris"}'),
        toolCall('cut', 'weather', '{"city":"Lon'),
      ],
      {},
      'length',
    );
    expect(weather.invocations.map((invocation) => invocation.input)).toEqual(['{"city":"Paris"}']);
    expect(responses[0]?.isError).toBeUndefined();
    expect(responses[1]).toEqual({
      id: 'cut',
      name: 'weather',
      responseData:
        "Tool call not executed: the arguments for tool 'weather' were truncated by the output limit. Call the tool again with complete arguments.",
      isError: true,
    });
  });

  it('never runs a call marked truncated, even when its arguments parse', async () => {
    const weather = spyTool('weather', { inputSchema: citySchema });
    const [response] = await runBatch(
      [weather],
      [{ id: 'c1', name: 'weather', arguments: '{"city":"Paris"}', metadata: { truncated: true } }],
    );
    expect(weather.invocations).toHaveLength(0);
    expect(response?.responseData).toContain('truncated by the output limit');
  });
});

describe('bad input: a response the provider stopped (content filter, refusal)', () => {
  it('runs none of its calls, valid or unknown, and tells the model why', async () => {
    const weather = spyTool('weather', { inputSchema: citySchema });
    const responses = await runBatch(
      [weather],
      [
        toolCall('a', 'weather', '{"city":"Paris"}'),
        toolCall('b', 'weather', '{"city":"Rome"}'),
        toolCall('c', 'nope', '{}'),
      ],
      { onUnknownTool: 'throw' },
      'content_filter',
    );
    expect(weather.invocations).toHaveLength(0);
    expect(responses.map((response) => [response.id, response.isError])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
    ]);
    expect(responses[0]?.responseData).toBe(
      "Tool call not executed: the provider's content filter stopped the response that called tool 'weather' (a content filter or refusal ending), so none of its calls run.",
    );
  });
});

describe('bad input: arguments that are not text', () => {
  it.each([
    ['an object', { city: 'Paris' }],
    ['an empty object', {}],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an array', ['Paris']],
    ['a boolean', true],
  ])('answers %s with the "JSON text" error and never runs the tool', async (_label, args) => {
    // A schema that accepts {}: replacing the arguments by {} would run the tool.
    const anything = spyTool('anything');
    const calls = [{ id: 'c1', name: 'anything', arguments: args as unknown as string }];
    for (const finishReason of ['tool_calls', 'length'] as const) {
      const [response] = await runBatch([anything], calls, {}, finishReason);
      expect(response).toEqual({
        id: 'c1',
        name: 'anything',
        responseData:
          "Tool call not executed: invalid arguments for tool 'anything': (root): arguments must be JSON text. Fix the arguments and call the tool again.",
        isError: true,
      });
    }
    expect(anything.invocations).toHaveLength(0);
  });
});

describe('bad input: arguments an adapter marked as sent in another form than text', () => {
  it('answers the "JSON text" error though the arguments text is a valid object', async () => {
    const anything = spyTool('anything');
    const marked = { ...toolCall('c1', 'anything', '{"city":"Paris"}') };
    marked.metadata = { nonTextArguments: true };
    const [response] = await runBatch([anything], [marked]);
    expect(response?.responseData).toBe(
      "Tool call not executed: invalid arguments for tool 'anything': (root): arguments must be JSON text. Fix the arguments and call the tool again.",
    );
    expect(anything.invocations).toHaveLength(0);
  });
});

describe('bad input: names and ids', () => {
  it.each([
    ['an empty id', { id: '', name: 'toolA', arguments: '{}' }],
    ['a numeric id', { id: 7, name: 'toolA', arguments: '{}' }],
    ['a null id', { id: null, name: 'toolA', arguments: '{}' }],
    ['no id', { name: 'toolA', arguments: '{}' }],
    ['a numeric name', { id: 'c2', name: 7, arguments: '{}' }],
    ['a null call', null],
    ['a string instead of a call', 'toolA'],
  ])('fails the batch on a call with %s, before any call runs', async (_label, malformed) => {
    const toolA = spyTool('toolA');
    const calls = [toolCall('c1', 'toolA'), malformed as unknown as ToolCall];
    const error = await createToolCallingManager()
      .executeToolCalls(promptWith([toolA]), toolCallResponse(calls))
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(IllegalStateError);
    expect((error as Error).message).toMatch(
      /^The chat model returned a malformed tool call \(call 2 of 2\): /,
    );
    expect(toolA.invocations).toHaveLength(0);
  });

  it('answers an unknown tool with the attached names only, never resolver-only names', async () => {
    const attached = spyTool('getWeather');
    const hidden = spyTool('deleteAccount');
    const responses = await runBatch([attached], [toolCall('1', 'deleteAccount')], {
      toolCallbackResolver: (name) => (name === 'deleteAccount' ? hidden : undefined),
    });
    expect(hidden.invocations).toHaveLength(0);
    expect(responses[0]).toEqual({
      id: '1',
      name: 'deleteAccount',
      responseData:
        "Tool call not executed: there is no tool named 'deleteAccount'. Available tools: getWeather.",
      isError: true,
    });
  });

  it('says so when no tool is attached at all', async () => {
    const [response] = await runBatch([], [toolCall('1', 'anything')]);
    expect(response?.responseData).toBe(
      "Tool call not executed: there is no tool named 'anything'. No tools are available.",
    );
  });

  it('answers an empty tool name without consulting the resolver', async () => {
    const resolved: string[] = [];
    const toolA = spyTool('toolA');
    const [response] = await runBatch([toolA], [toolCall('1', '')], {
      resolutionFallbackEnabled: true,
      toolCallbackResolver: (name) => {
        resolved.push(name);
        return undefined;
      },
    });
    expect(resolved).toEqual([]);
    expect(response?.responseData).toBe(
      'Tool call not executed: the tool name is empty. Available tools: toolA.',
    );
    expect(toolA.invocations).toHaveLength(0);
  });

  it('quotes at most 100 characters of a very long name', async () => {
    const name = 'n'.repeat(10_000);
    const [response] = await runBatch([spyTool('toolA')], [toolCall('1', name)]);
    expect(response?.responseData.length).toBeLessThan(250);
    expect(response?.name).toBe(name);
  });

  it('lists at most 50 attached names', async () => {
    const tools = Array.from({ length: 60 }, (_, index) => spyTool(`tool${index}`));
    const [response] = await runBatch(tools, [toolCall('1', 'missing')]);
    expect(response?.responseData).toContain('tool49 and 10 more.');
    expect(response?.responseData).not.toContain('tool50');
  });

  it("throws the reference's NoSuchToolError with onUnknownTool: 'throw', before anything runs", async () => {
    const toolA = spyTool('toolA');
    const manager = createToolCallingManager({ onUnknownTool: 'throw' });
    const error = await manager
      .executeToolCalls(
        promptWith([toolA]),
        toolCallResponse([toolCall('1', 'toolA'), toolCall('2', 'missing')]),
      )
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(NoSuchToolError);
    expect((error as NoSuchToolError).availableToolNames).toEqual(['toolA']);
    expect(toolA.invocations).toHaveLength(0);
  });

  it('answers a repeated call id with its own error and runs only the first call', async () => {
    const toolA = spyTool('toolA');
    const responses = await runBatch(
      [toolA],
      [toolCall('same', 'toolA'), toolCall('same', 'toolA'), toolCall('other', 'toolA')],
    );
    expect(toolA.invocations.map((invocation) => invocation.context?.toolCallId)).toEqual([
      'same',
      'other',
    ]);
    expect(responses[0]?.isError).toBeUndefined();
    expect(responses[1]).toEqual({
      id: 'same',
      name: 'toolA',
      responseData:
        "Tool call not executed: its id 'same' is already used by an earlier call in this response.",
      isError: true,
    });
    expect(responses[2]?.isError).toBeUndefined();
  });

  it.each([3, 12])(
    'answers every repeat of an id with an error in a batch of %i calls (small and large batches)',
    async (size) => {
      const toolA = spyTool('toolA');
      const calls = Array.from({ length: size }, (_, index) =>
        toolCall(index === size - 1 || index === 1 ? 'first' : `id-${index}`, 'toolA'),
      );
      calls[0] = toolCall('first', 'toolA');
      const responses = await runBatch([toolA], calls);
      const repeated = responses
        .map((response, index) => (response.isError === true ? index : -1))
        .filter((index) => index !== -1);
      expect(repeated).toEqual([1, size - 1]);
      expect(toolA.invocations).toHaveLength(size - 2);
    },
  );

  it('runs the valid calls of a batch mixed with hallucinated ones', async () => {
    const a = spyTool('a');
    const b = spyTool('b');
    const responses = await runBatch(
      [a, b],
      [
        toolCall('1', 'a'),
        toolCall('2', 'ghost'),
        toolCall('3', 'b'),
        toolCall('4', ''),
        toolCall('5', 'a', '{"x":'),
      ],
    );
    expect(responses.map((response) => response.isError === true)).toEqual([
      false,
      true,
      false,
      true,
      true,
    ]);
    expect(a.invocations).toHaveLength(1);
    expect(b.invocations).toHaveLength(1);
  });

  it('counts rejected calls toward later limits of the turn', async () => {
    const manager = createToolCallingManager({
      limits: { perTool: { ghost: 1 }, onLimitExceeded: 'RETURN_ERROR_RESPONSE' },
    });
    const first = await manager.executeToolCalls(
      promptWith([spyTool('a')]),
      toolCallResponse([toolCall('1', 'ghost')]),
    );
    const second = await manager.executeToolCalls(
      { messages: first.conversationHistory, options: { toolCallbacks: [spyTool('a')] } },
      toolCallResponse([toolCall('2', 'ghost')]),
    );
    expect(lastResponses(second.conversationHistory)[0]?.responseData).toContain(
      "Tool call limit (1) exceeded for tool 'ghost'",
    );
  });
});

describe('unattached tools under concurrency (T01)', () => {
  it('never runs a resolver-only tool in requests that do not attach it', async () => {
    const executedFor: string[] = [];
    const deleteAccount = spyTool('deleteAccount', {
      execute: async (_input, context) => {
        executedFor.push(String(context?.context.request));
        return 'deleted';
      },
    });
    const manager = createToolCallingManager({
      toolCallbackResolver: (name) => (name === 'deleteAccount' ? deleteAccount : undefined),
    });
    const requests = Array.from({ length: 100 }, (_, request) =>
      manager.executeToolCalls(
        promptWith(request % 2 === 0 ? [deleteAccount] : [spyTool('getWeather')], undefined, {
          request,
        }),
        toolCallResponse([toolCall(`c${request}`, 'deleteAccount')]),
      ),
    );
    const results = await Promise.all(requests);
    expect(executedFor.map(Number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, index) => index * 2),
    );
    results.forEach((result, request) => {
      const [response] = lastResponses(result.conversationHistory);
      if (request % 2 === 0) expect(response?.responseData).toBe('deleted');
      else {
        expect(response?.responseData).toBe(
          "Tool call not executed: there is no tool named 'deleteAccount'. Available tools: getWeather.",
        );
      }
    });
  });
});

describe('property: results stay matched to their calls whatever the timing (T19)', () => {
  it('keeps call order for tools finishing in random order, one of them throwing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 2, maxLength: 8 }),
        fc.nat(),
        fc.integer({ min: 1, max: 8 }),
        async (delays, throwingSeed, maxConcurrency) => {
          const throwing = throwingSeed % delays.length;
          const slow = spyTool('slow', {
            inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
            execute: async (input) => {
              const { n } = JSON.parse(input) as { n: number };
              await new Promise((resolve) => setTimeout(resolve, delays[n]));
              if (n === throwing) throw new Error(`failure ${n}`);
              return `answer ${n}`;
            },
          });
          const calls = delays.map((_, n) => toolCall(`id-${n}`, 'slow', { n }));
          const result = await createToolCallingManager({ maxConcurrency }).executeToolCalls(
            promptWith([slow]),
            toolCallResponse(calls),
          );
          const responses = lastResponses(result.conversationHistory);
          responses.forEach((response, n) => {
            expect(response.id).toBe(`id-${n}`);
            expect(response.responseData).toBe(n === throwing ? `failure ${n}` : `answer ${n}`);
            expect(response.isError === true).toBe(n === throwing);
          });
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('property: every call is answered exactly once, in call order', () => {
  const callArbitrary = fc.record({
    id: fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.uuid()),
    name: fc.constantFrom('ok', 'strict', 'thrower', 'ghost', ''),
    arguments: fc.oneof(
      fc.constant(''),
      fc.constant('{"city":"Paris"}'),
      fc.constant('{"city":1}'),
      fc.constant('{"__proto__":{"x":1}}'),
      fc.json(),
      fc.string(),
    ),
  });

  it('holds for random batches of valid and invalid names, arguments and throwing tools', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(callArbitrary, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        async (calls, maxConcurrency, truncated) => {
          const tools = [
            spyTool('ok', { execute: async () => 'fine' }),
            spyTool('strict', { inputSchema: citySchema }),
            spyTool('thrower', {
              execute: (input) => {
                if (input.length % 2 === 0) throw new Error('even');
                throw new ToolExecutionError({ toolName: 'thrower', message: 'odd' });
              },
            }),
          ];
          const result = await createToolCallingManager({
            maxConcurrency,
            limits: { maxCallsPerTool: 5, onLimitExceeded: 'RETURN_ERROR_RESPONSE' },
          }).executeToolCalls(
            promptWith(tools),
            toolCallResponse(calls, truncated ? 'length' : 'tool_calls'),
          );
          const responses = lastResponses(result.conversationHistory);
          expect(responses.map((response) => response.id)).toEqual(calls.map((call) => call.id));
          expect(responses.map((response) => response.name)).toEqual(
            calls.map((call) => call.name),
          );
          for (const response of responses) expect(typeof response.responseData).toBe('string');
          // 'ok' and 'strict' succeed whenever they run, 'thrower' never does, the rest never run.
          const successes = (name: string) =>
            responses.filter((response) => response.name === name && response.isError !== true)
              .length;
          expect(tools[0]?.invocations.length).toBe(successes('ok'));
          expect(tools[1]?.invocations.length).toBe(successes('strict'));
          expect(successes('thrower')).toBe(0);
          for (const response of responses) {
            if (response.name === 'ghost' || response.name === '')
              expect(response.isError).toBe(true);
          }
          expect(({} as Record<string, unknown>).x).toBeUndefined();
        },
      ),
      { numRuns: 300, seed: 20260510 },
    );
  });
});
