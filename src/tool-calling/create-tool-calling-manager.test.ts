import { describe, expect, it } from 'vitest';
import {
  AbortError,
  IllegalStateError,
  InvalidArgumentError,
  NoSuchToolError,
  ToolDefinitionError,
  ToolExecutionError,
} from '../errors/index.js';
import type { Message, ToolResponse, ToolResponseMessage } from '../messages/index.js';
import { toolCall, toolResponse, toolResponseMessage, userMessage } from '../messages/index.js';
import type { ChatResponse } from '../model/index.js';
import { tool } from '../tools/tool.js';
import { deferred, promptWith, spyTool, toolCallResponse } from './__tests__/spy-tool.js';
import {
  createToolCallingManager,
  DEFAULT_MAX_TOOL_RESULT_BYTES,
} from './create-tool-calling-manager.js';
import { ToolCallLimitExceededError } from './tool-call-limit-exceeded-error.js';
import { buildToolExecutionGenerations } from './tool-execution-result.js';

function lastResponses(history: Message[]): ToolResponse[] {
  const last = history[history.length - 1] as ToolResponseMessage;
  expect(last.role).toBe('tool');
  return last.responses;
}

function priorResponses(name: string, count: number): ToolResponseMessage {
  return toolResponseMessage(
    Array.from({ length: count }, (_, index) => toolResponse(`${name}-prior-${index}`, name, 'ok')),
  );
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('createToolCallingManager: options', () => {
  it('validates the limits it is given', () => {
    expect(() => createToolCallingManager({ limits: { maxCallsPerTool: 0 } })).toThrow(
      'maxCallsPerTool must be greater than 0',
    );
    expect(() => createToolCallingManager({ limits: { maxTotalToolCalls: -1 } })).toThrow(
      'maxTotalToolCalls must be greater than 0',
    );
  });

  it('validates concurrency, timeout, argument size and unknown-tool behaviour', () => {
    expect(() => createToolCallingManager({ maxConcurrency: 0 })).toThrow(
      'maxConcurrency must be a positive integer or Infinity',
    );
    expect(() => createToolCallingManager({ maxConcurrency: 2.5 })).toThrow('maxConcurrency');
    expect(() =>
      createToolCallingManager({ maxConcurrency: Number.POSITIVE_INFINITY }),
    ).not.toThrow();
    expect(() => createToolCallingManager({ defaultTimeoutMs: 0 })).toThrow(
      'defaultTimeoutMs must be greater than 0',
    );
    expect(() => createToolCallingManager({ maxArgumentBytes: -1 })).toThrow(
      'maxArgumentBytes must be greater than 0',
    );
    expect(() =>
      createToolCallingManager({ onUnknownTool: 'ignore' as unknown as 'throw' }),
    ).toThrow("onUnknownTool must be 'error-response' or 'throw'");
    for (const bad of [0, -1, 255, 1000.5, Number.NaN, '4096']) {
      expect(() => createToolCallingManager({ maxResultBytes: bad as number })).toThrow(
        new InvalidArgumentError(
          'maxResultBytes must be an integer of at least 256 (room for the truncation notice) or Infinity',
        ),
      );
    }
    expect(() => createToolCallingManager({ maxResultBytes: 256 })).not.toThrow();
    expect(() =>
      createToolCallingManager({ maxResultBytes: Number.POSITIVE_INFINITY }),
    ).not.toThrow();
  });

  it('refuses throwExceptionOnError together with a custom processor', () => {
    expect(() =>
      createToolCallingManager({ exceptionProcessor: () => 'x', throwExceptionOnError: true }),
    ).toThrow('cannot be combined with exceptionProcessor');
  });
});

describe('resolveToolDefinitions', () => {
  it('returns the attached definitions in order and never consults the resolver', () => {
    const resolverOnly = spyTool('resolverOnly');
    const manager = createToolCallingManager({
      toolCallbackResolver: () => resolverOnly,
      resolutionFallbackEnabled: true,
    });
    const a = spyTool('toolA');
    const b = spyTool('toolB');
    expect(manager.resolveToolDefinitions({ toolCallbacks: [a, b] })).toEqual([
      a.definition,
      b.definition,
    ]);
    expect(manager.resolveToolDefinitions({})).toEqual([]);
  });
});

describe('executeToolCalls: reference scenarios (spec §19.3)', () => {
  it('fails when no generation requests a tool call', async () => {
    const manager = createToolCallingManager();
    const empty: ChatResponse = { results: [], metadata: {} };
    await expect(manager.executeToolCalls(promptWith([]), empty)).rejects.toThrow(
      new IllegalStateError('No tool call requested by the chat model'),
    );
    await expect(
      manager.executeToolCalls(promptWith([]), toolCallResponse([])),
    ).rejects.toBeInstanceOf(IllegalStateError);
  });

  it('executes a single call and appends the assistant message and one tool message', async () => {
    const toolA = spyTool('toolA');
    const prompt = promptWith([toolA]);
    const response = toolCallResponse([toolCall('toolA', 'toolA', '{}')]);
    const result = await createToolCallingManager().executeToolCalls(prompt, response);
    expect(result.conversationHistory).toEqual([
      userMessage('go'),
      response.results[0]?.output,
      toolResponseMessage([toolResponse('toolA', 'toolA', 'Mission accomplished!')]),
    ]);
    expect(result.conversationHistory[1]).toBe(response.results[0]?.output);
    expect(result.returnDirect).toBe(false);
    expect(toolA.invocations).toHaveLength(1);
  });

  it('never mutates the prompt or its messages', async () => {
    const prompt = promptWith([spyTool('toolA')]);
    const before = JSON.stringify(prompt.messages);
    const messages = prompt.messages;
    await createToolCallingManager().executeToolCalls(
      prompt,
      toolCallResponse([toolCall('1', 'toolA')]),
    );
    expect(prompt.messages).toBe(messages);
    expect(JSON.stringify(prompt.messages)).toBe(before);
    expect(prompt.messages).toHaveLength(1);
  });

  it('answers two different tools in one tool message, in call order', async () => {
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([spyTool('toolA'), spyTool('toolB', { execute: () => 'B' })]),
      toolCallResponse([toolCall('1', 'toolB'), toolCall('2', 'toolA')]),
    );
    expect(lastResponses(result.conversationHistory)).toEqual([
      toolResponse('1', 'toolB', 'B'),
      toolResponse('2', 'toolA', 'Mission accomplished!'),
    ]);
  });

  it('sets returnDirect only when every executed call is returnDirect', async () => {
    const manager = createToolCallingManager();
    const direct = spyTool('direct', { metadata: { returnDirect: true } });
    const direct2 = spyTool('direct2', { metadata: { returnDirect: true } });
    const normal = spyTool('normal');
    const tools = [direct, direct2, normal];
    const run = (names: string[]) =>
      manager.executeToolCalls(
        promptWith(tools),
        toolCallResponse(names.map((name, index) => toolCall(String(index), name))),
      );
    expect((await run(['direct'])).returnDirect).toBe(true);
    expect((await run(['direct', 'direct2'])).returnDirect).toBe(true);
    expect((await run(['direct', 'normal'])).returnDirect).toBe(false);
    expect((await run(['normal', 'direct'])).returnDirect).toBe(false);
  });

  it.each([
    ['an unknown tool', [toolCall('2', 'unknown')], {}],
    ['invalid arguments', [toolCall('2', 'strictDirect', '{"city":1}')], {}],
    ['arguments that are not JSON', [toolCall('2', 'direct', '{"x":')], {}],
    ['a repeated id', [toolCall('1', 'direct')], {}],
    ['a truncated call', [{ ...toolCall('2', 'direct'), metadata: { truncated: true } }], {}],
    [
      'a call over its limit',
      [toolCall('2', 'direct')],
      { limits: { perTool: { direct: 1 }, onLimitExceeded: 'RETURN_ERROR_RESPONSE' as const } },
    ],
    ['a call that times out', [toolCall('2', 'slowDirect')], { defaultTimeoutMs: 5 }],
    ['a call whose tool throws', [toolCall('2', 'failingDirect')], {}],
  ])(
    'never returns directly when a returnDirect batch holds %s: the model sees every result',
    async (_label, extra, options) => {
      const direct = spyTool('direct', { metadata: { returnDirect: true }, execute: () => 'ok' });
      const tools = [
        direct,
        spyTool('strictDirect', {
          metadata: { returnDirect: true },
          inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
        }),
        spyTool('slowDirect', {
          metadata: { returnDirect: true },
          execute: () => new Promise((resolve) => setTimeout(() => resolve('late'), 1000)),
        }),
        spyTool('failingDirect', {
          metadata: { returnDirect: true },
          execute: () => Promise.reject(new Error('backend down')),
        }),
      ];
      const result = await createToolCallingManager(options).executeToolCalls(
        promptWith(tools),
        toolCallResponse([toolCall('1', 'direct'), ...extra]),
      );
      expect(direct.invocations).toHaveLength(1);
      const responses = lastResponses(result.conversationHistory);
      expect(responses[0]).toEqual(toolResponse('1', 'direct', 'ok'));
      expect(responses[1]?.isError).toBe(true);
      expect(result.returnDirect).toBe(false);
    },
  );

  it('never returns directly when nothing was executed', async () => {
    const direct = spyTool('direct', { metadata: { returnDirect: true } });
    const none = await createToolCallingManager().executeToolCalls(
      promptWith([direct]),
      toolCallResponse([toolCall('1', 'unknown')]),
    );
    expect(none.returnDirect).toBe(false);
  });

  it('sends the message of a ToolExecutionError to the model as an error result', async () => {
    const failing = spyTool('toolA', {
      execute: () => {
        throw new ToolExecutionError({
          toolName: 'toolA',
          cause: new Error('You failed this city!'),
        });
      },
    });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([failing]),
      toolCallResponse([toolCall('1', 'toolA')]),
    );
    expect(lastResponses(result.conversationHistory)).toEqual([
      { id: '1', name: 'toolA', responseData: 'You failed this city!', isError: true },
    ]);
  });

  it('rejects a tool known only to the resolver while the fallback is off', async () => {
    const resolverOnly = spyTool('resolverOnlyTool');
    const manager = createToolCallingManager({
      toolCallbackResolver: (name) => (name === 'resolverOnlyTool' ? resolverOnly : undefined),
      onUnknownTool: 'throw',
    });
    const error = await rejectionOf(
      manager.executeToolCalls(
        promptWith([]),
        toolCallResponse([toolCall('1', 'resolverOnlyTool')]),
      ),
    );
    expect(error).toBeInstanceOf(NoSuchToolError);
    expect((error as Error).message).toBe('No ToolCallback found for tool name: resolverOnlyTool');
    expect(resolverOnly.invocations).toHaveLength(0);
  });

  it('runs a resolver-only tool when the fallback is enabled', async () => {
    const resolverOnly = spyTool('resolverOnlyTool', { execute: () => 'resolved' });
    const manager = createToolCallingManager({
      toolCallbackResolver: (name) => (name === 'resolverOnlyTool' ? resolverOnly : undefined),
      resolutionFallbackEnabled: true,
    });
    const result = await manager.executeToolCalls(
      promptWith([]),
      toolCallResponse([toolCall('1', 'resolverOnlyTool')]),
    );
    expect(lastResponses(result.conversationHistory)).toEqual([
      toolResponse('1', 'resolverOnlyTool', 'resolved'),
    ]);
  });

  it('prefers an attached tool over the resolver', async () => {
    const attached = spyTool('toolA', { execute: () => 'attached' });
    const resolved = spyTool('toolA', { execute: () => 'resolved' });
    const manager = createToolCallingManager({
      toolCallbackResolver: () => resolved,
      resolutionFallbackEnabled: true,
    });
    const result = await manager.executeToolCalls(
      promptWith([attached]),
      toolCallResponse([toolCall('1', 'toolA')]),
    );
    expect(lastResponses(result.conversationHistory)[0]?.responseData).toBe('attached');
    expect(resolved.invocations).toHaveLength(0);
  });

  it('gives the first attached tool of a name precedence', async () => {
    const first = spyTool('toolA', { execute: () => 'first' });
    const second = spyTool('toolA', { execute: () => 'second' });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([first, second]),
      toolCallResponse([toolCall('1', 'toolA')]),
    );
    expect(lastResponses(result.conversationHistory)[0]?.responseData).toBe('first');
  });

  it('passes "{}" to the tool for empty arguments', async () => {
    const toolA = spyTool('toolA');
    await createToolCallingManager().executeToolCalls(
      promptWith([toolA]),
      toolCallResponse([toolCall('1', 'toolA', ''), toolCall('2', 'toolA', '   ')]),
    );
    expect(toolA.invocations.map((invocation) => invocation.input)).toEqual(['{}', '{}']);
  });

  it('passes complex JSON arguments through unchanged', async () => {
    const args = '{"query":"x","filters":{"tags":["a","b"],"range":{"from":1,"to":2}},"flag":true}';
    const toolA = spyTool('toolA', {
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
    });
    await createToolCallingManager().executeToolCalls(
      promptWith([toolA]),
      toolCallResponse([toolCall('1', 'toolA', args)]),
    );
    expect(toolA.invocations[0]?.input).toBe(args);
  });

  it('reads undefined from a hand-written callback as "Done", as tool() reads a void execute', async () => {
    const voidTool = tool({ name: 'voidTool', execute: () => undefined });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([spyTool('handWritten', { execute: () => undefined }), voidTool]),
      toolCallResponse([toolCall('1', 'handWritten'), toolCall('2', 'voidTool')]),
    );
    expect(lastResponses(result.conversationHistory)).toEqual([
      toolResponse('1', 'handWritten', '"Done"'),
      toolResponse('2', 'voidTool', '"Done"'),
    ]);
    expect(await voidTool.call('{}')).toBe('"Done"');
  });

  const circular: Record<string, unknown> = {};
  circular.self = circular;
  it.each([
    ['a bigint', 5n, 'a bigint'],
    ['a circular object', circular, 'an object'],
    ['a symbol', Symbol('secret'), 'a symbol'],
    ['a number', 42, 'a number'],
    ['null', null, 'null'],
    ['an object', { ok: true }, 'an object'],
    ['an array', ['a'], 'an array'],
    ['a function', () => 'source code', 'a function'],
  ])(
    'answers a hand-written callback resolving to %s with an error result; the batch goes on',
    async (_label, value, described) => {
      const result = await createToolCallingManager().executeToolCalls(
        promptWith([spyTool('odd', { execute: () => value }), spyTool('fine')]),
        toolCallResponse([toolCall('1', 'odd'), toolCall('2', 'fine')]),
      );
      expect(lastResponses(result.conversationHistory)).toEqual([
        {
          id: '1',
          name: 'odd',
          responseData: `Tool 'odd' returned ${described} instead of text: a ToolCallback resolves to a string or a ToolResult.`,
          isError: true,
        },
        toolResponse('2', 'fine', 'Mission accomplished!'),
      ]);
    },
  );

  it('hands a non-text result to the exception processor like any tool failure', async () => {
    const manager = createToolCallingManager({ throwExceptionOnError: true });
    const error = await rejectionOf(
      manager.executeToolCalls(
        promptWith([spyTool('odd', { execute: () => 5n })]),
        toolCallResponse([toolCall('c1', 'odd')]),
      ),
    );
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as ToolExecutionError).toolCallId).toBe('c1');
  });

  it('executes only the first generation that has tool calls', async () => {
    const toolA = spyTool('toolA');
    const toolB = spyTool('toolB');
    const response: ChatResponse = {
      results: [
        {
          output: { role: 'assistant', text: 'no tools', toolCalls: [] },
          metadata: { finishReason: 'stop' },
        },
        {
          output: { role: 'assistant', text: null, toolCalls: [toolCall('1', 'toolA')] },
          metadata: { finishReason: 'tool_calls' },
        },
        {
          output: { role: 'assistant', text: null, toolCalls: [toolCall('2', 'toolB')] },
          metadata: { finishReason: 'tool_calls' },
        },
      ],
      metadata: {},
    };
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([toolA, toolB]),
      response,
    );
    expect(toolA.invocations).toHaveLength(1);
    expect(toolB.invocations).toHaveLength(0);
    expect(result.conversationHistory[1]).toBe(response.results[1]?.output);
    expect(lastResponses(result.conversationHistory).map((r) => r.id)).toEqual(['1']);
  });
});

describe('executeToolCalls: tool context', () => {
  it('gives each call a frozen copy of the caller context, its call id, the messages and a signal', async () => {
    const callerContext = { tenantId: 'acme' };
    const toolA = spyTool('toolA');
    const prompt = promptWith([toolA], [userMessage('go')], callerContext);
    const response = toolCallResponse([toolCall('c1', 'toolA'), toolCall('c2', 'toolA')]);
    await createToolCallingManager().executeToolCalls(prompt, response);
    const [first, second] = toolA.invocations;
    expect(first?.context?.context).toEqual({ tenantId: 'acme' });
    expect(first?.context?.context).not.toBe(callerContext);
    expect(Object.isFrozen(first?.context?.context)).toBe(true);
    expect(first?.context?.context).toBe(second?.context?.context);
    expect(first?.context?.toolCallId).toBe('c1');
    expect(second?.context?.toolCallId).toBe('c2');
    expect(first?.context?.messages).toEqual([userMessage('go'), response.results[0]?.output]);
    expect(first?.context?.signal).toBeInstanceOf(AbortSignal);
    expect(first?.context?.signal?.aborted).toBe(false);
  });

  it('gives a fresh copy per batch, so a changed caller map is seen by the next batch only', async () => {
    const callerContext: Record<string, unknown> = { step: 1 };
    const seen: unknown[] = [];
    const toolA = spyTool('toolA', {
      execute: (_input, context) => {
        seen.push(context?.context.step);
        return 'ok';
      },
    });
    const manager = createToolCallingManager();
    const prompt = promptWith([toolA], [userMessage('go')], callerContext);
    await manager.executeToolCalls(prompt, toolCallResponse([toolCall('1', 'toolA')]));
    callerContext.step = 2;
    await manager.executeToolCalls(prompt, toolCallResponse([toolCall('2', 'toolA')]));
    expect(seen).toEqual([1, 2]);
  });

  it('gives an empty context when the caller has none', async () => {
    const toolA = spyTool('toolA');
    await createToolCallingManager().executeToolCalls(
      promptWith([toolA]),
      toolCallResponse([toolCall('1', 'toolA')]),
    );
    expect(toolA.invocations[0]?.context?.context).toEqual({});
  });
});

describe('executeToolCalls: limits (spec §19.3)', () => {
  const callA = toolCallResponse([toolCall('new', 'toolA')]);

  it('throws with the tool name, limit and partial result when a per-tool limit breaks', async () => {
    const toolA = spyTool('toolA');
    const manager = createToolCallingManager({ limits: { perTool: { toolA: 1 } } });
    const error = await rejectionOf(
      manager.executeToolCalls(
        promptWith([toolA], [userMessage('u'), priorResponses('toolA', 1)]),
        callA,
      ),
    );
    expect(error).toBeInstanceOf(ToolCallLimitExceededError);
    const limitError = error as ToolCallLimitExceededError;
    expect(limitError.toolName).toBe('toolA');
    expect(limitError.limit).toBe(1);
    expect(limitError.scope).toBe('per-tool');
    expect(limitError.partialResult).toBeDefined();
    expect(lastResponses(limitError.partialResult.conversationHistory)).toEqual([
      {
        id: 'new',
        name: 'toolA',
        responseData:
          "Tool call limit (1) exceeded for tool 'toolA'. No further calls to this tool are allowed in this turn.",
        isError: true,
      },
    ]);
    expect(toolA.invocations).toHaveLength(0);
  });

  it('answers the model instead with RETURN_ERROR_RESPONSE', async () => {
    const toolA = spyTool('toolA');
    const manager = createToolCallingManager({
      limits: { perTool: { toolA: 1 }, onLimitExceeded: 'RETURN_ERROR_RESPONSE' },
    });
    const result = await manager.executeToolCalls(
      promptWith([toolA], [userMessage('u'), priorResponses('toolA', 1)]),
      callA,
    );
    const responses = lastResponses(result.conversationHistory);
    expect(responses).toHaveLength(1);
    expect(responses[0]?.name).toBe('toolA');
    expect(responses[0]?.responseData).toContain('limit');
    expect(responses[0]?.responseData).not.toContain('Mission accomplished!');
    expect(responses[0]?.isError).toBe(true);
    expect(toolA.invocations).toHaveLength(0);
    expect(result.returnDirect).toBe(false);
  });

  it('goes on with the batch after a RETURN_ERROR_RESPONSE breach', async () => {
    const toolA = spyTool('toolA');
    const toolB = spyTool('toolB', { execute: () => 'B' });
    const manager = createToolCallingManager({
      limits: { perTool: { toolA: 1 }, onLimitExceeded: 'RETURN_ERROR_RESPONSE' },
    });
    const result = await manager.executeToolCalls(
      promptWith([toolA, toolB]),
      toolCallResponse([toolCall('1', 'toolA'), toolCall('2', 'toolA'), toolCall('3', 'toolB')]),
    );
    const responses = lastResponses(result.conversationHistory);
    expect(responses.map((r) => [r.id, r.isError === true])).toEqual([
      ['1', false],
      ['2', true],
      ['3', false],
    ]);
    expect(toolA.invocations).toHaveLength(1);
    expect(toolB.invocations).toHaveLength(1);
  });

  it('executes tools excluded from the per-tool limit', async () => {
    const toolA = spyTool('toolA');
    const manager = createToolCallingManager({
      limits: { maxCallsPerTool: 1, excludedTools: ['toolA'] },
    });
    await manager.executeToolCalls(
      promptWith([toolA], [userMessage('u'), priorResponses('toolA', 3)]),
      callA,
    );
    expect(toolA.invocations).toHaveLength(1);
  });

  it('throws with a null tool name when the total limit breaks', async () => {
    const manager = createToolCallingManager({ limits: { maxTotalToolCalls: 1 } });
    const error = (await rejectionOf(
      manager.executeToolCalls(
        promptWith([spyTool('toolA')], [userMessage('u'), priorResponses('toolB', 1)]),
        callA,
      ),
    )) as ToolCallLimitExceededError;
    expect(error).toBeInstanceOf(ToolCallLimitExceededError);
    expect(error.toolName).toBeNull();
    expect(error.limit).toBe(1);
    expect(error.scope).toBe('total');
  });

  it('applies the defaults: 40 per tool and 150 in total', async () => {
    const manager = createToolCallingManager();
    const perTool = (await rejectionOf(
      manager.executeToolCalls(
        promptWith([spyTool('toolA')], [userMessage('u'), priorResponses('toolA', 40)]),
        callA,
      ),
    )) as ToolCallLimitExceededError;
    expect([perTool.toolName, perTool.limit]).toEqual(['toolA', 40]);
    const total = (await rejectionOf(
      manager.executeToolCalls(
        promptWith([spyTool('toolA')], [userMessage('u'), priorResponses('toolB', 150)]),
        callA,
      ),
    )) as ToolCallLimitExceededError;
    expect([total.toolName, total.limit]).toEqual([null, 150]);
  });

  it('executes with unlimited per-tool and total caps', async () => {
    const toolA = spyTool('toolA');
    await createToolCallingManager({ limits: { maxCallsPerTool: 'unlimited' } }).executeToolCalls(
      promptWith([toolA], [userMessage('u'), priorResponses('toolA', 45)]),
      callA,
    );
    await createToolCallingManager({
      limits: { maxCallsPerTool: 'unlimited', maxTotalToolCalls: 'unlimited' },
    }).executeToolCalls(
      promptWith([toolA], [userMessage('u'), priorResponses('toolB', 155)]),
      callA,
    );
    expect(toolA.invocations).toHaveLength(2);
  });

  it('counts only the current turn', async () => {
    const toolA = spyTool('toolA');
    await createToolCallingManager({ limits: { perTool: { toolA: 1 } } }).executeToolCalls(
      promptWith([toolA], [userMessage('u1'), priorResponses('toolA', 1), userMessage('u2')]),
      callA,
    );
    await createToolCallingManager({ limits: { maxTotalToolCalls: 1 } }).executeToolCalls(
      promptWith([toolA], [userMessage('u1'), priorResponses('toolB', 10), userMessage('u2')]),
      callA,
    );
    expect(toolA.invocations).toHaveLength(2);
    const error = await rejectionOf(
      createToolCallingManager({ limits: { perTool: { toolA: 1 } } }).executeToolCalls(
        promptWith(
          [toolA],
          [
            userMessage('u1'),
            priorResponses('toolB', 1),
            userMessage('u2'),
            priorResponses('toolA', 1),
          ],
        ),
        callA,
      ),
    );
    expect((error as ToolCallLimitExceededError).toolName).toBe('toolA');
  });

  it('reports the limit, not an unknown tool, when an unknown tool breaks a limit', async () => {
    const manager = createToolCallingManager({
      limits: { maxTotalToolCalls: 1 },
      onUnknownTool: 'throw',
    });
    const error = await rejectionOf(
      manager.executeToolCalls(
        promptWith([], [userMessage('u'), priorResponses('toolB', 1)]),
        toolCallResponse([toolCall('1', 'nowhere')]),
      ),
    );
    expect(error).toBeInstanceOf(ToolCallLimitExceededError);
  });

  it('on THROW, executes the calls before the breach and answers the calls after it without running them', async () => {
    const toolA = spyTool('toolA', { metadata: { returnDirect: true } });
    const toolB = spyTool('toolB', { execute: () => 'B' });
    const manager = createToolCallingManager({ limits: { perTool: { toolA: 1 } } });
    const response = toolCallResponse([
      toolCall('1', 'toolA'),
      toolCall('2', 'toolA'),
      toolCall('3', 'toolB'),
    ]);
    const error = (await rejectionOf(
      manager.executeToolCalls(promptWith([toolA, toolB]), response),
    )) as ToolCallLimitExceededError;
    expect(toolA.invocations).toHaveLength(1);
    expect(toolB.invocations).toHaveLength(0);
    const history = error.partialResult.conversationHistory;
    expect(history[1]).toBe(response.results[0]?.output);
    const responses = lastResponses(history);
    expect(responses.map((r) => r.id)).toEqual(['1', '2', '3']);
    expect(responses[0]).toEqual(toolResponse('1', 'toolA', 'Mission accomplished!'));
    expect(responses[1]?.responseData).toContain("Tool call limit (1) exceeded for tool 'toolA'");
    expect(responses[2]).toEqual({
      id: '3',
      name: 'toolB',
      responseData: 'Tool call not executed: a tool call limit was reached earlier in this batch.',
      isError: true,
    });
    // Calls of the batch did not run: the batch is no returnDirect batch.
    expect(error.partialResult.returnDirect).toBe(false);
    const generation = error.buildGeneration();
    expect(generation.output.text).toBe(responses[1]?.responseData);
    expect(generation.metadata.finishReason).toBe('toolCallLimitExceeded');
    expect(generation.metadata.partialToolResponses).toEqual([responses[0]]);
  });

  it('keeps no state: a shared manager serves concurrent turns without cross-talk', async () => {
    const toolA = spyTool('toolA', { execute: async () => 'ok' });
    const manager = createToolCallingManager({ limits: { perTool: { toolA: 2 } } });
    const turns = Array.from({ length: 50 }, (_, turn) =>
      manager.executeToolCalls(
        promptWith([toolA], [userMessage(`turn ${turn}`), priorResponses('toolA', turn % 2)]),
        toolCallResponse([toolCall(`t${turn}`, 'toolA')]),
      ),
    );
    const results = await Promise.all(turns);
    expect(results).toHaveLength(50);
    expect(toolA.invocations).toHaveLength(50);
  });
});

describe('executeToolCalls: exception processing', () => {
  it('wraps any other error a tool throws and tells the model (departure: no checked/unchecked split)', async () => {
    const failing = spyTool('toolA', {
      execute: () => {
        throw new TypeError('bad thing');
      },
    });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([failing]),
      toolCallResponse([toolCall('1', 'toolA')]),
    );
    expect(lastResponses(result.conversationHistory)).toEqual([
      { id: '1', name: 'toolA', responseData: 'bad thing', isError: true },
    ]);
  });

  it('handles a synchronous throw from call() like an async one', async () => {
    const toolA = spyTool('toolA');
    const syncThrower = {
      ...toolA,
      call: () => {
        throw new Error('sync failure');
      },
    };
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([syncThrower]),
      toolCallResponse([toolCall('1', 'toolA')]),
    );
    expect(lastResponses(result.conversationHistory)[0]?.responseData).toBe('sync failure');
  });

  it('hands the processor a ToolExecutionError naming the tool and the call', async () => {
    const seen: ToolExecutionError[] = [];
    const cause = new RangeError('');
    const manager = createToolCallingManager({
      exceptionProcessor: (error) => {
        seen.push(error);
        return 'custom text';
      },
    });
    const result = await manager.executeToolCalls(
      promptWith([spyTool('toolA', { execute: () => Promise.reject(cause) })]),
      toolCallResponse([toolCall('c9', 'toolA')]),
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(ToolExecutionError);
    expect(seen[0]?.toolName).toBe('toolA');
    expect(seen[0]?.toolCallId).toBe('c9');
    expect(seen[0]?.cause).toBe(cause);
    expect(lastResponses(result.conversationHistory)[0]).toEqual({
      id: 'c9',
      name: 'toolA',
      responseData: 'custom text',
      isError: true,
    });
  });

  it('answers with the default error text when a custom processor returns no text', async () => {
    for (const returned of [undefined, null, 5n, { text: 'x' }]) {
      const manager = createToolCallingManager({
        exceptionProcessor: () => returned as unknown as string,
      });
      const result = await manager.executeToolCalls(
        promptWith([
          spyTool('toolA', { execute: () => Promise.reject(new Error('x')) }),
          spyTool('toolB', { execute: () => Promise.reject(new TypeError('')) }),
        ]),
        toolCallResponse([toolCall('1', 'toolA'), toolCall('2', 'toolB')]),
      );
      expect(lastResponses(result.conversationHistory)).toEqual([
        { id: '1', name: 'toolA', responseData: 'x', isError: true },
        {
          id: '2',
          name: 'toolB',
          responseData: 'Exception occurred in tool: toolB (TypeError)',
          isError: true,
        },
      ]);
    }
  });

  it('fails the request when a tool input schema cannot be compiled', async () => {
    const broken = spyTool('broken', {
      inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
    });
    const error = await rejectionOf(
      createToolCallingManager().executeToolCalls(
        promptWith([broken]),
        toolCallResponse([toolCall('1', 'broken', '{"a":1}')]),
      ),
    );
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect(broken.invocations).toHaveLength(0);
  });

  it('propagates what the processor throws', async () => {
    const failure = new Error('stop everything');
    const manager = createToolCallingManager({
      exceptionProcessor: () => {
        throw failure;
      },
    });
    await expect(
      manager.executeToolCalls(
        promptWith([spyTool('toolA', { execute: () => Promise.reject(new Error('x')) })]),
        toolCallResponse([toolCall('1', 'toolA')]),
      ),
    ).rejects.toBe(failure);
  });

  it('rethrows the ToolExecutionError with throwExceptionOnError', async () => {
    const manager = createToolCallingManager({ throwExceptionOnError: true });
    const error = await rejectionOf(
      manager.executeToolCalls(
        promptWith([spyTool('toolA', { execute: () => Promise.reject(new Error('x')) })]),
        toolCallResponse([toolCall('1', 'toolA')]),
      ),
    );
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as ToolExecutionError).toolName).toBe('toolA');
  });

  it.each([
    ['a DOMException', () => new DOMException('The operation was aborted.', 'AbortError')],
    ["toolloop's AbortError", () => new AbortError('sub-request cancelled')],
    ['a plain object', () => ({ name: 'AbortError', message: 'cancelled' })],
  ])(
    "treats an abort error of a tool's own (%s) as a tool error, with or without a caller signal",
    async (_label, makeError) => {
      const processed: ToolExecutionError[] = [];
      const manager = createToolCallingManager({
        exceptionProcessor: (error) => {
          processed.push(error);
          return `failed: ${error.toolName}`;
        },
      });
      const controller = new AbortController();
      for (const signal of [undefined, controller.signal]) {
        const result = await manager.executeToolCalls(
          promptWith([
            spyTool('fetcher', { execute: () => Promise.reject(makeError()) }),
            spyTool('other', { execute: () => 'fine' }),
          ]),
          toolCallResponse([toolCall('1', 'fetcher'), toolCall('2', 'other')]),
          signal === undefined ? {} : { signal },
        );
        expect(lastResponses(result.conversationHistory)).toEqual([
          { id: '1', name: 'fetcher', responseData: 'failed: fetcher', isError: true },
          toolResponse('2', 'other', 'fine'),
        ]);
      }
      expect(processed).toHaveLength(2);
      expect(processed[0]?.toolCallId).toBe('1');
      expect(processed[0]?.cause).toMatchObject({ name: 'AbortError' });
    },
  );

  it('ends the request with an AbortError when the caller aborted, whatever the tool throws', async () => {
    const controller = new AbortController();
    const running = deferred<void>();
    const promise = createToolCallingManager().executeToolCalls(
      promptWith([
        spyTool('fetcher', {
          execute: (_input, context) =>
            new Promise((_resolve, reject) => {
              running.resolve();
              context?.signal?.addEventListener('abort', () =>
                reject(new DOMException('The operation was aborted.', 'AbortError')),
              );
            }),
        }),
      ]),
      toolCallResponse([toolCall('1', 'fetcher')]),
      { signal: controller.signal },
    );
    await running.promise;
    controller.abort(new Error('user left'));
    const error = await rejectionOf(promise);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toEqual(new Error('user left'));
  });

  it('aborts the other running calls when one call fails the batch', async () => {
    let sibling: AbortSignal | undefined;
    const slow = spyTool('slow', {
      execute: (_input, context) =>
        new Promise((resolve) => {
          sibling = context?.signal;
          context?.signal?.addEventListener('abort', () => resolve('late'));
        }),
    });
    const manager = createToolCallingManager({ throwExceptionOnError: true });
    await expect(
      manager.executeToolCalls(
        promptWith([slow, spyTool('bad', { execute: () => Promise.reject(new Error('x')) })]),
        toolCallResponse([toolCall('1', 'slow'), toolCall('2', 'bad')]),
      ),
    ).rejects.toBeInstanceOf(ToolExecutionError);
    expect(sibling?.aborted).toBe(true);
  });

  it('answers with the InvalidToolInputError a tool throws, and does not call it executed', async () => {
    const { InvalidToolInputError } = await import('../errors/index.js');
    const picky = spyTool('picky', {
      metadata: { returnDirect: true },
      execute: () => {
        throw new InvalidToolInputError({
          toolName: 'picky',
          issues: [{ path: '/city', message: 'is required' }],
        });
      },
    });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([picky]),
      toolCallResponse([toolCall('1', 'picky')]),
    );
    const [response] = lastResponses(result.conversationHistory);
    expect(response?.isError).toBe(true);
    expect(response?.responseData).toContain('/city: is required');
    expect(result.returnDirect).toBe(false);
  });
});

describe('buildToolExecutionGenerations with a manager result', () => {
  it('turns a returnDirect batch into one generation per response', async () => {
    const direct = spyTool('direct', { metadata: { returnDirect: true }, execute: () => 'final' });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([direct]),
      toolCallResponse([toolCall('1', 'direct'), toolCall('2', 'direct')]),
    );
    expect(result.returnDirect).toBe(true);
    const generations = buildToolExecutionGenerations(result);
    expect(
      generations.map((generation) => [generation.output.text, generation.metadata.toolId]),
    ).toEqual([
      ['final', '1'],
      ['final', '2'],
    ]);
  });
});

describe('result size cap', () => {
  const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

  async function answerOf(
    execute: () => unknown,
    options: Parameters<typeof createToolCallingManager>[0] = {},
  ): Promise<ToolResponse> {
    const result = await createToolCallingManager(options).executeToolCalls(
      promptWith([spyTool('big', { execute })]),
      toolCallResponse([toolCall('1', 'big')]),
    );
    return lastResponses(result.conversationHistory)[0] as ToolResponse;
  }

  it('cuts a 50 MB result to the default 1 MiB and says so at the end', async () => {
    expect(DEFAULT_MAX_TOOL_RESULT_BYTES).toBe(1024 * 1024);
    const huge = 'x'.repeat(50 * 1024 * 1024);
    const answer = await answerOf(() => huge);
    expect(byteLength(answer.responseData)).toBeLessThanOrEqual(DEFAULT_MAX_TOOL_RESULT_BYTES);
    expect(answer.responseData.startsWith('xxxx')).toBe(true);
    expect(answer.responseData).toMatch(
      /\n\[toolloop: result truncated: the tool returned 52428800 bytes; the first \d+ are shown\]$/,
    );
    expect(answer.isError).toBeUndefined();
  });

  it('cuts error texts too: a thrown message, an invalid-input message', async () => {
    const thrown = await answerOf(() => Promise.reject(new Error('e'.repeat(3_000_000))));
    expect(thrown.isError).toBe(true);
    expect(byteLength(thrown.responseData)).toBeLessThanOrEqual(DEFAULT_MAX_TOOL_RESULT_BYTES);
    expect(thrown.responseData).toContain('result truncated: the tool returned 3000000 bytes');
    const { InvalidToolInputError } = await import('../errors/index.js');
    const invalid = await answerOf(
      () => {
        throw new InvalidToolInputError({
          toolName: 'big',
          issues: [{ path: '/q', message: 'q'.repeat(2000) }],
        });
      },
      { maxResultBytes: 1000 },
    );
    expect(invalid.isError).toBe(true);
    expect(byteLength(invalid.responseData)).toBeLessThanOrEqual(1000);
    expect(invalid.responseData).toContain('[toolloop: result truncated');
  });

  it('measures UTF-8 bytes and never splits a character', async () => {
    const emoji = '😀'.repeat(1000); // 4 bytes each
    const answer = await answerOf(() => emoji, { maxResultBytes: 1000 });
    expect(byteLength(answer.responseData)).toBeLessThanOrEqual(1000);
    const kept = answer.responseData.slice(0, answer.responseData.indexOf('\n[toolloop:'));
    expect(kept.length % 2).toBe(0);
    expect(kept).toBe('😀'.repeat(kept.length / 2));
    expect(answer.responseData).toContain('the tool returned 4000 bytes');
  });

  it('leaves results within the cap untouched, also at exactly the cap', async () => {
    const exact = 'é'.repeat(500); // 1000 bytes
    expect((await answerOf(() => exact, { maxResultBytes: 1000 })).responseData).toBe(exact);
    const unlimited = await answerOf(() => 'x'.repeat(2_000_000), {
      maxResultBytes: Number.POSITIVE_INFINITY,
    });
    expect(unlimited.responseData.length).toBe(2_000_000);
  });
});
