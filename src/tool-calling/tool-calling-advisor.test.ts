import { describe, expect, it } from 'vitest';
import {
  type CallAdvisor,
  type ChatClientRequest,
  type ChatClientResponse,
  DEFAULT_TOOL_CALLING_ADVISOR_ORDER,
  HIGHEST_PRECEDENCE,
  isToolAdvisor,
  LOWEST_PRECEDENCE,
  TOOL_LOOP_TURN_ID,
} from '../advisors/index.js';
import { InvalidArgumentError, isAbortError, NoSuchToolError } from '../errors/index.js';
import {
  type Message,
  systemMessage,
  toolResponse,
  toolResponseMessage,
  userMessage,
} from '../messages/index.js';
import { type ChatResponse, FinishReason, hasToolCalls, type Usage } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import {
  callChain,
  clientRequest,
  offeredDefinitions,
  RecordingToolCallingManager,
  recordingTool,
} from './__tests__/tool-loop-harness.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';
import { ToolCallLimitExceededError } from './tool-call-limit-exceeded-error.js';
import { ToolCallingAdvisor, type ToolCallingAdvisorOptions } from './tool-calling-advisor.js';
import type { ToolExecutionResult } from './tool-calling-manager.js';
import type { ToolLoopContext } from './tool-loop-context.js';

const usage = (promptTokens: number, completionTokens: number, totalTokens: number): Usage => ({
  promptTokens,
  completionTokens,
  totalTokens,
});

/** A history as the real manager builds it for one call of `name` answered with `data`. */
function historyAfterToolCall(
  prompt: Message[],
  response: ChatResponse,
  data = 'Tool result data',
): ToolExecutionResult['conversationHistory'] {
  const assistant = response.results[0]!.output;
  const call = assistant.toolCalls[0]!;
  return [...prompt, assistant, toolResponseMessage([toolResponse(call.id, call.name, data)])];
}

/** A manager outcome that extends the given prompt like the real manager does. */
function executes(returnDirect = false, data = 'Tool result data') {
  return (prompt: { messages: Message[] }, response: ChatResponse): ToolExecutionResult => ({
    conversationHistory: historyAfterToolCall(prompt.messages, response, data),
    returnDirect,
  });
}

/** Records every hook call with the loop context it received. */
class HookRecordingAdvisor extends ToolCallingAdvisor {
  readonly events: { hook: string; loop: ToolLoopContext }[] = [];

  count(hook: string): number {
    return this.events.filter((event) => event.hook === hook).length;
  }

  protected override doInitializeLoop(request: ChatClientRequest, loop: ToolLoopContext) {
    this.events.push({ hook: 'init', loop });
    return request;
  }
  protected override doBeforeCall(request: ChatClientRequest, loop: ToolLoopContext) {
    this.events.push({ hook: 'before', loop });
    return request;
  }
  protected override async doAfterCall(response: ChatClientResponse, loop: ToolLoopContext) {
    this.events.push({ hook: 'after', loop });
    return response;
  }
  protected override doFinalizeLoop(response: ChatClientResponse, loop: ToolLoopContext) {
    this.events.push({ hook: 'finalize', loop });
    return response;
  }
}

describe('ToolCallingAdvisor options', () => {
  it('accepts only orders strictly between HIGHEST_PRECEDENCE and LOWEST_PRECEDENCE', () => {
    const message = 'advisorOrder must be between HIGHEST_PRECEDENCE and LOWEST_PRECEDENCE';
    expect(() => new ToolCallingAdvisor({ order: HIGHEST_PRECEDENCE })).toThrow(message);
    expect(() => new ToolCallingAdvisor({ order: LOWEST_PRECEDENCE })).toThrow(message);
    expect(() => new ToolCallingAdvisor({ order: Number.NaN })).toThrow(InvalidArgumentError);
    expect(new ToolCallingAdvisor({ order: HIGHEST_PRECEDENCE + 1 }).order).toBe(
      HIGHEST_PRECEDENCE + 1,
    );
  });

  it('takes a custom order and keeps its name', () => {
    const advisor = new ToolCallingAdvisor({ order: HIGHEST_PRECEDENCE + 500 });
    expect(advisor.order).toBe(HIGHEST_PRECEDENCE + 500);
    expect(advisor.name).toBe('Tool Calling Advisor');
  });

  it('has the reference defaults and is a tool advisor', () => {
    const advisor = new ToolCallingAdvisor();
    expect(advisor.order).toBe(-2147483348);
    expect(ToolCallingAdvisor.DEFAULT_ORDER).toBe(DEFAULT_TOOL_CALLING_ADVISOR_ORDER);
    expect(advisor.name).toBe('Tool Calling Advisor');
    expect(advisor.conversationHistoryEnabled).toBe(true);
    expect(advisor.maxIterations).toBe(50);
    expect(isToolAdvisor(advisor)).toBe(true);
  });

  it('rejects a maxIterations that is not a positive integer', () => {
    expect(() => new ToolCallingAdvisor({ maxIterations: 0 })).toThrow(
      'maxIterations must be a positive integer',
    );
    expect(() => new ToolCallingAdvisor({ maxIterations: 1.5 })).toThrow(InvalidArgumentError);
  });

  it('copies keep the subclass, the manager and the options not overridden', async () => {
    const manager = new RecordingToolCallingManager([executes()]);
    const original = new HookRecordingAdvisor({
      toolCallingManager: manager,
      order: HIGHEST_PRECEDENCE + 700,
      maxIterations: 7,
    });
    const copy = original.disableInternalConversationHistory();
    expect(copy).toBeInstanceOf(HookRecordingAdvisor);
    expect(copy).not.toBe(original);
    expect(copy.conversationHistoryEnabled).toBe(false);
    expect(original.conversationHistoryEnabled).toBe(true);
    expect(copy.order).toBe(HIGHEST_PRECEDENCE + 700);
    expect(copy.maxIterations).toBe(7);
    expect(copy.copy({ order: HIGHEST_PRECEDENCE + 900 }).order).toBe(HIGHEST_PRECEDENCE + 900);

    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather' }]),
      textResponse('done'),
    ]);
    await copy.adviseCall(clientRequest([userMessage('hi')]), callChain(model, copy));
    expect(manager.calls).toHaveLength(1);
    expect(copy.count('init')).toBe(1);
    expect(original.events).toEqual([]);
  });
});

describe('ToolCallingAdvisor.adviseCall', () => {
  it('passes a prompt without an options object straight through, running no hook', async () => {
    const advisor = new HookRecordingAdvisor();
    const model = new ScriptedChatModel([toolCallResponse([{ name: 'weather' }])]);
    const request = {
      prompt: { messages: [userMessage('hi')] },
      context: {},
    } as unknown as ChatClientRequest;
    const response = await advisor.adviseCall(request, callChain(model, advisor));
    expect(hasToolCalls(response.chatResponse)).toBe(true);
    expect(model.callCount).toBe(1);
    expect(advisor.events).toEqual([]);
  });

  it('returns an answer without tool calls after one model call, without the manager', async () => {
    const manager = new RecordingToolCallingManager([]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const answer = textResponse('Sunny.', { id: 'r1' });
    const model = new ScriptedChatModel([answer]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('weather?')], { toolCallbacks: [recordingTool('weather')] }),
      callChain(model, advisor),
    );
    expect(response.chatResponse).toEqual(answer);
    expect(model.callCount).toBe(1);
    expect(manager.calls).toEqual([]);
  });

  it('returns a null chat response as is, without the manager', async () => {
    const manager = new RecordingToolCallingManager([]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    let downstreamCalls = 0;
    const silent: CallAdvisor = {
      name: 'silent',
      order: 0,
      async adviseCall(request) {
        downstreamCalls++;
        return { chatResponse: null, context: { ...request.context } };
      },
    };
    const model = new ScriptedChatModel();
    const response = await advisor.adviseCall(
      clientRequest([userMessage('hi')]),
      callChain(model, advisor, silent),
    );
    expect(response.chatResponse).toBeNull();
    expect(downstreamCalls).toBe(1);
    expect(manager.calls).toEqual([]);
  });

  it('returns a tool-call response as is when the checker says no', async () => {
    const manager = new RecordingToolCallingManager([]);
    const weather = recordingTool('weather');
    const advisor = new ToolCallingAdvisor({
      toolCallingManager: manager,
      toolExecutionEligibilityChecker: () => false,
    });
    const toolCall = toolCallResponse([{ name: 'weather' }]);
    const model = new ScriptedChatModel([toolCall]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('hi')], { toolCallbacks: [weather] }),
      callChain(model, advisor),
    );
    expect(response.chatResponse).toEqual(toolCall);
    expect(manager.calls).toEqual([]);
    expect(weather.invocations).toEqual([]);
  });

  it('executes when the checker says yes even without tool calls, then stops when it says no', async () => {
    let checks = 0;
    const manager = new RecordingToolCallingManager([
      (prompt) => ({
        conversationHistory: [...prompt.messages, toolResponseMessage([])],
        returnDirect: false,
      }),
    ]);
    const advisor = new ToolCallingAdvisor({
      toolCallingManager: manager,
      toolExecutionEligibilityChecker: () => ++checks === 1,
    });
    const second = textResponse('second');
    const model = new ScriptedChatModel([textResponse('first'), second]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('hi')]),
      callChain(model, advisor),
    );
    expect(model.callCount).toBe(2);
    expect(manager.calls).toHaveLength(1);
    expect(response.chatResponse).toEqual(second);
  });

  it('runs a tool round trip with the real manager: 2 model calls, the result sent back', async () => {
    const weather = recordingTool('weather', {
      execute: (input, context) =>
        JSON.stringify({ city: JSON.parse(input).city, tenant: context?.context.tenant, temp: 21 }),
    });
    const advisor = new ToolCallingAdvisor();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'weather', arguments: { city: 'Paris' } }]),
      textResponse('21 degrees in Paris.'),
    ]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('Weather in Paris?')], {
        toolCallbacks: [weather],
        toolContext: { tenant: 'acme' },
      }),
      callChain(model, advisor),
    );
    expect(response.chatResponse?.results[0]?.output.text).toBe('21 degrees in Paris.');
    expect(model.callCount).toBe(2);
    expect(weather.invocations.map((invocation) => invocation.input)).toEqual(['{"city":"Paris"}']);
    expect(model.prompts[1]?.messages).toEqual([
      userMessage('Weather in Paris?'),
      {
        role: 'assistant',
        text: null,
        toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Paris"}' }],
      },
      toolResponseMessage([
        toolResponse('c1', 'weather', '{"city":"Paris","tenant":"acme","temp":21}'),
      ]),
    ]);
  });

  it('loops over two tool rounds before the final answer: 3 model calls, 2 executions', async () => {
    const manager = new RecordingToolCallingManager([executes(), executes()]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather' }]),
      toolCallResponse([{ name: 'weather' }]),
      textResponse('final'),
    ]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('hi')]),
      callChain(model, advisor),
    );
    expect(model.callCount).toBe(3);
    expect(manager.calls).toHaveLength(2);
    expect(response.chatResponse?.results[0]?.output.text).toBe('final');
    // Round 2's manager prompt is round 1's whole history.
    expect(manager.calls[1]?.messages).toHaveLength(3);
  });

  it('sums the usage of all rounds onto the final response, generations unchanged', async () => {
    const manager = new RecordingToolCallingManager([executes()]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const final = textResponse('final', { usage: usage(1, 2, 3), id: 'r2' });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather' }], { usage: usage(10, 20, 30) }),
      final,
    ]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('hi')]),
      callChain(model, advisor),
    );
    expect(response.chatResponse?.metadata.usage).toEqual(usage(11, 22, 33));
    expect(response.chatResponse?.metadata.id).toBe('r2');
    expect(response.chatResponse?.results).toEqual(final.results);
  });

  it('sums cache tokens and drops provider extras of the rounds', async () => {
    const manager = new RecordingToolCallingManager([executes()]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const first = {
      ...usage(10, 20, 30),
      cacheReadTokens: 100,
      cacheWriteTokens: 5,
      nativeUsage: { raw: 1 },
    } as Usage;
    const second = { ...usage(1, 2, 3), cacheReadTokens: 200, cacheWriteTokens: 0 };
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather' }], { usage: first }),
      textResponse('final', { usage: second }),
    ]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('hi')]),
      callChain(model, advisor),
    );
    expect(response.chatResponse?.metadata.usage).toEqual({
      ...usage(11, 22, 33),
      cacheReadTokens: 300,
      cacheWriteTokens: 5,
    });
  });

  it('leaves the usage of a single round unchanged', async () => {
    const advisor = new ToolCallingAdvisor({
      toolCallingManager: new RecordingToolCallingManager([]),
    });
    const model = new ScriptedChatModel([textResponse('hi', { usage: usage(1, 2, 3) })]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('hi')]),
      callChain(model, advisor),
    );
    expect(response.chatResponse?.metadata.usage).toEqual(usage(1, 2, 3));
  });

  it('ends with the tool results on returnDirect after one model call (real manager)', async () => {
    const lookup = recordingTool('lookup', {
      metadata: { returnDirect: true },
      execute: () => '{"order":42,"status":"shipped"}',
    });
    const advisor = new ToolCallingAdvisor();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c7', name: 'lookup' }], { id: 'resp-1', usage: usage(4, 5, 9) }),
    ]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('where is my order?')], { toolCallbacks: [lookup] }),
      callChain(model, advisor),
    );
    expect(model.callCount).toBe(1);
    expect(lookup.invocations).toHaveLength(1);
    expect(response.chatResponse).toEqual({
      results: [
        {
          output: { role: 'assistant', text: '{"order":42,"status":"shipped"}', toolCalls: [] },
          metadata: { finishReason: FinishReason.RETURN_DIRECT, toolId: 'c7', toolName: 'lookup' },
        },
      ],
      metadata: { id: 'resp-1', usage: usage(4, 5, 9) },
    });
  });

  it('sums usage over rounds when the second round is returnDirect', async () => {
    const manager = new RecordingToolCallingManager([executes(), executes(true)]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather' }], { usage: usage(10, 20, 30) }),
      toolCallResponse([{ name: 'weather' }], { usage: usage(1, 2, 3) }),
    ]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('hi')]),
      callChain(model, advisor),
    );
    expect(model.callCount).toBe(2);
    expect(response.chatResponse?.metadata.usage).toEqual(usage(11, 22, 33));
    expect(response.chatResponse?.results.map((generation) => generation.output.text)).toEqual([
      'Tool result data',
    ]);
  });

  it('ends with the breach generation when the manager throws a limit error', async () => {
    const success = toolResponse('c1', 'testTool', 'ok');
    const breach = toolResponse('c2', 'testTool', 'Tool call limit (1) exceeded for tool testTool');
    const partial: ToolExecutionResult = {
      conversationHistory: [userMessage('hi'), toolResponseMessage([success, breach])],
      returnDirect: false,
    };
    const manager = new RecordingToolCallingManager([
      new ToolCallLimitExceededError({ toolName: 'testTool', limit: 1, partialResult: partial }),
    ]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'testTool' }, { name: 'testTool' }], { id: 'r1' }),
    ]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('hi')]),
      callChain(model, advisor),
    );
    expect(manager.calls).toHaveLength(1);
    expect(response.chatResponse?.metadata.id).toBe('r1');
    expect(response.chatResponse?.results).toEqual([
      {
        output: { role: 'assistant', text: breach.responseData, toolCalls: [] },
        metadata: {
          finishReason: ToolCallLimitExceededError.FINISH_REASON,
          partialToolResponses: [success],
        },
      },
    ]);
  });

  it('ends a real limit breach after one model call with the partial responses kept', async () => {
    const search = recordingTool('search');
    const advisor = new ToolCallingAdvisor({
      toolCallingManager: createToolCallingManager({ limits: { maxCallsPerTool: 1 } }),
    });
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'a', name: 'search' },
        { id: 'b', name: 'search' },
      ]),
      textResponse('never sent'),
    ]);
    const response = await advisor.adviseCall(
      clientRequest([userMessage('find it')], { toolCallbacks: [search] }),
      callChain(model, advisor),
    );
    expect(model.callCount).toBe(1);
    expect(search.invocations).toHaveLength(1);
    const generations = response.chatResponse?.results ?? [];
    expect(generations).toHaveLength(1);
    expect(generations[0]?.metadata.finishReason).toBe('toolCallLimitExceeded');
    expect(generations[0]?.output.text).toContain('Tool call limit (1) exceeded');
    expect(generations[0]?.metadata.partialToolResponses).toEqual([
      toolResponse('a', 'search', '{"tool":"search","ok":true}'),
    ]);
  });

  it('propagates other manager errors', async () => {
    const advisor = new ToolCallingAdvisor({
      toolCallingManager: createToolCallingManager({ onUnknownTool: 'throw' }),
    });
    const model = new ScriptedChatModel([toolCallResponse([{ name: 'nope' }])]);
    await expect(
      advisor.adviseCall(clientRequest([userMessage('hi')]), callChain(model, advisor)),
    ).rejects.toBeInstanceOf(NoSuchToolError);
  });

  describe('internal conversation history', () => {
    async function runDisabled(messages: Message[], options: ToolCallingAdvisorOptions = {}) {
      const weather = recordingTool('weather');
      const manager = new RecordingToolCallingManager(createToolCallingManager());
      const advisor = new ToolCallingAdvisor({
        toolCallingManager: manager,
        ...options,
      }).disableInternalConversationHistory();
      const model = new ScriptedChatModel([
        toolCallResponse([{ id: 'c1', name: 'weather' }]),
        toolCallResponse([{ id: 'c2', name: 'weather' }]),
        textResponse('final'),
      ]);
      const response = await advisor.adviseCall(
        clientRequest(messages, { toolCallbacks: [weather] }),
        callChain(model, advisor),
      );
      return { response, model, manager };
    }

    it('sends only the system message and the latest tool results, the manager the whole turn', async () => {
      const system = systemMessage('You are helpful.');
      const { response, model, manager } = await runDisabled([system, userMessage('hi')]);
      expect(response.chatResponse?.results[0]?.output.text).toBe('final');
      const tool1 = toolResponseMessage([
        toolResponse('c1', 'weather', '{"tool":"weather","ok":true}'),
      ]);
      const tool2 = toolResponseMessage([
        toolResponse('c2', 'weather', '{"tool":"weather","ok":true}'),
      ]);
      expect(model.prompts[1]?.messages).toEqual([system, tool1]);
      expect(model.prompts[2]?.messages).toEqual([system, tool2]);
      // The manager's round-2 prompt is round 1's complete history.
      expect(manager.calls[1]?.messages).toEqual([
        system,
        userMessage('hi'),
        expect.objectContaining({
          role: 'assistant',
          toolCalls: [expect.objectContaining({ id: 'c1' })],
        }),
        tool1,
      ]);
    });

    it('uses an empty system message when the prompt has none', async () => {
      const { model, manager } = await runDisabled([userMessage('hi')]);
      expect(model.prompts[1]?.messages[0]).toEqual({ role: 'system', text: '' });
      expect(model.prompts[1]?.messages[1]?.role).toBe('tool');
      expect(manager.calls[1]?.messages.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
      ]);
    });

    it('also turns off with the option, and the loop still ends with the final answer', async () => {
      const weather = recordingTool('weather');
      const advisor = new ToolCallingAdvisor({ conversationHistoryEnabled: false });
      const model = new ScriptedChatModel([
        toolCallResponse([{ name: 'weather' }]),
        textResponse('final'),
      ]);
      const response = await advisor.adviseCall(
        clientRequest([userMessage('hi')], { toolCallbacks: [weather] }),
        callChain(model, advisor),
      );
      expect(response.chatResponse?.results[0]?.output.text).toBe('final');
      expect(model.prompts[1]?.messages.map((message) => message.role)).toEqual(['system', 'tool']);
    });
  });

  describe('hooks', () => {
    it('run init, before and after once each, and finalize once, without tools', async () => {
      const advisor = new HookRecordingAdvisor();
      const chain = callChain(new ScriptedChatModel([textResponse('hi')]), advisor);
      await advisor.adviseCall(clientRequest([userMessage('hi')]), chain);
      expect(advisor.events.map((event) => event.hook)).toEqual([
        'init',
        'before',
        'after',
        'finalize',
      ]);
      expect(advisor.events.every((event) => event.loop.mode === 'call')).toBe(true);
      expect(advisor.events[0]?.loop.chain).toBe(chain);
    });

    it('run before and after once per round, and tell the round number', async () => {
      const advisor = new HookRecordingAdvisor({
        toolCallingManager: new RecordingToolCallingManager([executes()]),
      });
      const model = new ScriptedChatModel([
        toolCallResponse([{ name: 'weather' }]),
        textResponse('done'),
      ]);
      await advisor.adviseCall(clientRequest([userMessage('hi')]), callChain(model, advisor));
      expect(advisor.events.map((event) => `${event.hook}:${event.loop.iteration}`)).toEqual([
        'init:0',
        'before:1',
        'after:1',
        'before:2',
        'after:2',
        'finalize:2',
      ]);
      expect(advisor.events[3]?.loop.conversationHistory).toHaveLength(3);
    });

    it('finalize runs once on a returnDirect ending and its result is returned', async () => {
      class Finalizing extends HookRecordingAdvisor {
        protected override doFinalizeLoop(response: ChatClientResponse, loop: ToolLoopContext) {
          super.doFinalizeLoop(response, loop);
          return { ...response, context: { ...response.context, finalized: true } };
        }
      }
      const advisor = new Finalizing({
        toolCallingManager: new RecordingToolCallingManager([executes(true)]),
      });
      const model = new ScriptedChatModel([toolCallResponse([{ name: 'weather' }])]);
      const response = await advisor.adviseCall(
        clientRequest([userMessage('hi')]),
        callChain(model, advisor),
      );
      expect(advisor.count('finalize')).toBe(1);
      expect(response.context.finalized).toBe(true);
    });

    it('a tool injected in doBeforeCall is executed, and its options carry to the next round', async () => {
      const injected = recordingTool('injected', { execute: () => 'from the injected tool' });
      class Injecting extends ToolCallingAdvisor {
        protected override doBeforeCall(request: ChatClientRequest) {
          const options = request.prompt.options;
          if (options.toolCallbacks?.some((tool) => tool.definition.name === 'injected')) {
            return request;
          }
          const toolCallbacks = [...(options.toolCallbacks ?? []), injected];
          return {
            ...request,
            prompt: { ...request.prompt, options: { ...options, toolCallbacks } },
          };
        }
      }
      const manager = new RecordingToolCallingManager(createToolCallingManager());
      const advisor = new Injecting({ toolCallingManager: manager });
      const model = new ScriptedChatModel([
        toolCallResponse([{ id: 'i1', name: 'injected' }]),
        textResponse('done'),
      ]);
      await advisor.adviseCall(clientRequest([userMessage('hi')]), callChain(model, advisor));
      expect(manager.calls[0]?.options.toolCallbacks).toContain(injected);
      expect(injected.invocations).toHaveLength(1);
      expect(offeredDefinitions(model.prompts[0])).toEqual([injected.definition]);
      expect(offeredDefinitions(model.prompts[1])).toEqual([injected.definition]);
      expect(model.prompts[1]?.messages[2]).toEqual(
        toolResponseMessage([toolResponse('i1', 'injected', 'from the injected tool')]),
      );
    });

    it('values set in doInitializeLoop reach every round with the turn id; keys added downstream do not carry', async () => {
      class Initializing extends ToolCallingAdvisor {
        protected override doInitializeLoop(request: ChatClientRequest) {
          return { ...request, context: { ...request.context, session: 's-1' } };
        }
      }
      const seen: Record<string, unknown>[] = [];
      const downstream: CallAdvisor = {
        name: 'downstream',
        order: 0,
        adviseCall(request, chain) {
          seen.push({ ...request.context });
          request.context.scratch = seen.length;
          return chain.nextCall(request);
        },
      };
      const advisor = new Initializing({
        toolCallingManager: new RecordingToolCallingManager([executes()]),
      });
      const model = new ScriptedChatModel([
        toolCallResponse([{ name: 'weather' }]),
        textResponse('done'),
      ]);
      await advisor.adviseCall(
        clientRequest([userMessage('hi')], {}, { context: { user: 'u' } }),
        callChain(model, advisor, downstream),
      );
      const turnId = seen[0]?.[TOOL_LOOP_TURN_ID];
      expect(turnId).toEqual(expect.any(String));
      expect(seen).toEqual([
        { user: 'u', session: 's-1', [TOOL_LOOP_TURN_ID]: turnId },
        { user: 'u', session: 's-1', [TOOL_LOOP_TURN_ID]: turnId },
      ]);
    });

    it('doGetNextInstructions decides what the next round sends', async () => {
      class LastTwo extends ToolCallingAdvisor {
        protected override doGetNextInstructions(
          _request: ChatClientRequest,
          _response: ChatClientResponse,
          result: ToolExecutionResult,
        ) {
          return result.conversationHistory.slice(-2);
        }
      }
      const advisor = new LastTwo({
        toolCallingManager: new RecordingToolCallingManager([executes()]),
      });
      const model = new ScriptedChatModel([
        toolCallResponse([{ name: 'weather' }]),
        textResponse('done'),
      ]);
      await advisor.adviseCall(
        clientRequest([systemMessage('s'), userMessage('hi')]),
        callChain(model, advisor),
      );
      expect(model.prompts[1]?.messages.map((message) => message.role)).toEqual([
        'assistant',
        'tool',
      ]);
    });
  });

  describe('iteration cap', () => {
    it('makes one tools-off call after maxIterations tool rounds and marks its finish reason', async () => {
      const weather = recordingTool('weather');
      const advisor = new HookRecordingAdvisor({ maxIterations: 2 });
      const model = new ScriptedChatModel([
        toolCallResponse([{ id: 'c1', name: 'weather' }]),
        toolCallResponse([{ id: 'c2', name: 'weather' }]),
        toolCallResponse([{ id: 'c3', name: 'weather' }], {
          text: 'It is 21 degrees.',
          usage: usage(1, 1, 2),
        }),
        textResponse('never sent'),
      ]);
      const response = await advisor.adviseCall(
        clientRequest([userMessage('hi')], { toolCallbacks: [weather], toolChoice: 'auto' }),
        callChain(model, advisor),
      );
      expect(model.callCount).toBe(3);
      expect(weather.invocations).toHaveLength(2);
      const last = model.prompts[2]!;
      expect(offeredDefinitions(last)).toEqual([weather.definition]);
      expect(last.options.toolChoice).toBe('none');
      expect(last.messages.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
      ]);
      // Earlier rounds kept their tools.
      expect(offeredDefinitions(model.prompts[1])).toEqual([weather.definition]);
      expect(response.chatResponse?.results).toEqual([
        {
          output: { role: 'assistant', text: 'It is 21 degrees.', toolCalls: [] },
          metadata: { finishReason: FinishReason.MAX_ITERATIONS },
        },
      ]);
      const before = advisor.events.filter((event) => event.hook === 'before');
      expect(before.map((event) => event.loop.finalAnswer)).toEqual([false, false, true]);
      expect(advisor.count('finalize')).toBe(1);
    });

    it('a hook cannot turn tools back on for the final call', async () => {
      const weather = recordingTool('weather');
      class AlwaysTools extends ToolCallingAdvisor {
        protected override doBeforeCall(request: ChatClientRequest) {
          const options = {
            ...request.prompt.options,
            toolCallbacks: [weather],
            toolChoice: 'auto' as const,
          };
          return { ...request, prompt: { ...request.prompt, options } };
        }
      }
      const advisor = new AlwaysTools({ maxIterations: 1 });
      const model = new ScriptedChatModel([
        toolCallResponse([{ name: 'weather' }]),
        textResponse('answer'),
      ]);
      const response = await advisor.adviseCall(
        clientRequest([userMessage('hi')]),
        callChain(model, advisor),
      );
      expect(model.callCount).toBe(2);
      expect(model.prompts[1]?.options.toolChoice).toBe('none');
      expect(response.chatResponse?.results[0]?.metadata.finishReason).toBe('maxIterations');
    });
  });

  describe('abort', () => {
    it('makes no model call after the abort, and the running tool sees the signal', async () => {
      const controller = new AbortController();
      let toolSignal: AbortSignal | undefined;
      const slow = recordingTool('slow', {
        execute: (_input, context) =>
          new Promise<string>((resolve) => {
            toolSignal = context?.signal;
            context?.signal?.addEventListener('abort', () => resolve('aborted'));
            controller.abort();
          }),
      });
      const advisor = new ToolCallingAdvisor();
      const model = new ScriptedChatModel([
        toolCallResponse([{ name: 'slow' }]),
        textResponse('never'),
      ]);
      const error = await advisor
        .adviseCall(
          clientRequest(
            [userMessage('hi')],
            { toolCallbacks: [slow] },
            { signal: controller.signal },
          ),
          callChain(model, advisor),
        )
        .then(
          () => undefined,
          (reason: unknown) => reason,
        );
      expect(isAbortError(error)).toBe(true);
      expect(model.callCount).toBe(1);
      expect(toolSignal?.aborted).toBe(true);
    });

    it('runs no tool batch when the abort comes during the model call', async () => {
      const controller = new AbortController();
      const weather = recordingTool('weather');
      const advisor = new ToolCallingAdvisor();
      const model = new ScriptedChatModel([
        () => {
          controller.abort();
          return toolCallResponse([{ name: 'weather' }]);
        },
        textResponse('never'),
      ]);
      await expect(
        advisor.adviseCall(
          clientRequest(
            [userMessage('hi')],
            { toolCallbacks: [weather] },
            { signal: controller.signal },
          ),
          callChain(model, advisor),
        ),
      ).rejects.toSatisfy(isAbortError);
      expect(weather.invocations).toEqual([]);
      expect(model.callCount).toBe(1);
    });

    it('makes no model call at all when already aborted', async () => {
      const advisor = new HookRecordingAdvisor();
      const model = new ScriptedChatModel([textResponse('never')]);
      await expect(
        advisor.adviseCall(
          clientRequest([userMessage('hi')], {}, { signal: AbortSignal.abort() }),
          callChain(model, advisor),
        ),
      ).rejects.toSatisfy(isAbortError);
      expect(model.callCount).toBe(0);
      expect(advisor.count('finalize')).toBe(0);
    });
  });

  it('keeps 200 concurrent conversations through one advisor apart', async () => {
    const echo = recordingTool('whoami', {
      execute: (_input, context) => `user=${String(context?.context.user)}`,
    });
    const turn = (prompt: { messages: Message[] }) => {
      const last = prompt.messages[prompt.messages.length - 1]!;
      if (last.role === 'user')
        return toolCallResponse([{ id: `id-${last.text}`, name: 'whoami' }]);
      if (last.role === 'tool') return textResponse(`answer ${last.responses[0]!.responseData}`);
      throw new Error('unexpected prompt');
    };
    const model = new ScriptedChatModel(Array.from({ length: 400 }, () => turn));
    const advisor = new ToolCallingAdvisor();
    const chain = callChain(model, advisor);
    const users = Array.from({ length: 200 }, (_, index) => `u${index}`);
    const responses = await Promise.all(
      users.map((user) =>
        advisor.adviseCall(
          clientRequest([userMessage(user)], { toolCallbacks: [echo], toolContext: { user } }),
          chain,
        ),
      ),
    );
    expect(responses.map((response) => response.chatResponse?.results[0]?.output.text)).toEqual(
      users.map((user) => `answer user=${user}`),
    );
    expect(echo.invocations).toHaveLength(200);
  });
});
