import { describe, expect, it } from 'vitest';
import type { ChatClientRequest, ChatClientResponse } from '../advisors/index.js';
import { isAbortError } from '../errors/index.js';
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
  ChunkScriptModel,
  chatResponsesOf,
  clientRequest,
  collect,
  offeredDefinitions,
  RecordingToolCallingManager,
  recordingTool,
  streamChain,
} from './__tests__/tool-loop-harness.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';
import { ToolCallLimitExceededError } from './tool-call-limit-exceeded-error.js';
import { ToolCallingAdvisor } from './tool-calling-advisor.js';
import type { ToolExecutionResult } from './tool-calling-manager.js';
import type { ToolLoopContext } from './tool-loop-context.js';

const usage = (promptTokens: number, completionTokens: number, totalTokens: number): Usage => ({
  promptTokens,
  completionTokens,
  totalTokens,
});
const zero = usage(0, 0, 0);

/** A manager outcome that extends the prompt with the call's result, like the real manager. */
function executes(returnDirect = false, data = 'Tool result data') {
  return (prompt: { messages: Message[] }, response: ChatResponse): ToolExecutionResult => {
    const assistant = response.results[0]!.output;
    const call = assistant.toolCalls[0]!;
    return {
      conversationHistory: [
        ...prompt.messages,
        assistant,
        toolResponseMessage([toolResponse(call.id, call.name, data)]),
      ],
      returnDirect,
    };
  };
}

/** One streamed text delta, with usage when given. */
function delta(
  text: string,
  chunkUsage?: Usage,
  finishReason: FinishReason | null = null,
): ChatResponse {
  return {
    results: [{ output: { role: 'assistant', text, toolCalls: [] }, metadata: { finishReason } }],
    metadata: chunkUsage === undefined ? {} : { usage: chunkUsage },
  };
}

function textsOf(responses: readonly ChatClientResponse[]): (string | null | undefined)[] {
  return responses.map((response) => response.chatResponse?.results[0]?.output.text);
}

/** Records every hook call with what it received. */
class HookRecordingAdvisor extends ToolCallingAdvisor {
  readonly events: { hook: string; loop: ToolLoopContext; response?: ChatClientResponse }[] = [];

  count(hook: string): number {
    return this.events.filter((event) => event.hook === hook).length;
  }

  protected override async doInitializeLoop(request: ChatClientRequest, loop: ToolLoopContext) {
    this.events.push({ hook: 'init', loop });
    return request;
  }
  protected override doBeforeCall(request: ChatClientRequest, loop: ToolLoopContext) {
    this.events.push({ hook: 'before', loop });
    return request;
  }
  protected override doAfterCall(response: ChatClientResponse, loop: ToolLoopContext) {
    this.events.push({ hook: 'after', loop, response });
    return response;
  }
  protected override doFinalizeLoop(response: ChatClientResponse, loop: ToolLoopContext) {
    this.events.push({ hook: 'finalize', loop, response });
    return response;
  }
}

describe('ToolCallingAdvisor.adviseStream', () => {
  it('passes a prompt without an options object straight through, running no hook', async () => {
    const advisor = new HookRecordingAdvisor();
    const model = new ScriptedChatModel([toolCallResponse([{ name: 'weather' }])]);
    const request = {
      prompt: { messages: [userMessage('hi')] },
      context: {},
    } as unknown as ChatClientRequest;
    const emitted = await collect(advisor.adviseStream(request, streamChain(model, advisor)));
    expect(emitted).toHaveLength(1);
    expect(hasToolCalls(emitted[0]?.chatResponse)).toBe(true);
    expect(advisor.events).toEqual([]);
  });

  it('passes the chunks of an answer without tool calls through unchanged', async () => {
    const manager = new RecordingToolCallingManager([]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const model = new ScriptedChatModel([textResponse('Hello world!', { usage: usage(1, 2, 3) })]);
    const direct = await collect(
      new ScriptedChatModel([textResponse('Hello world!', { usage: usage(1, 2, 3) })]).stream({
        messages: [],
        options: {},
      }),
    );
    const emitted = await collect(
      advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
    );
    expect(chatResponsesOf(emitted)).toEqual(direct);
    expect(textsOf(emitted).join('')).toBe('Hello world!');
    expect(model.callCount).toBe(1);
    expect(manager.calls).toEqual([]);
  });

  it('withholds the tool-call chunk and emits only the final answer: 2 model calls', async () => {
    const manager = new RecordingToolCallingManager([executes()]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const model = new ScriptedChatModel(
      [toolCallResponse([{ name: 'weather' }]), textResponse('done')],
      { textChunks: 1 },
    );
    const emitted = await collect(
      advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
    );
    expect(emitted).toHaveLength(1);
    expect(emitted[0]?.chatResponse?.results).toHaveLength(1);
    expect(textsOf(emitted)).toEqual(['done']);
    expect(model.callCount).toBe(2);
    expect(manager.calls).toHaveLength(1);
  });

  it('emits the tool-call chunk and runs nothing when the checker says no', async () => {
    const manager = new RecordingToolCallingManager([]);
    const advisor = new ToolCallingAdvisor({
      toolCallingManager: manager,
      toolExecutionEligibilityChecker: () => false,
    });
    const model = new ScriptedChatModel([toolCallResponse([{ name: 'weather' }])]);
    const emitted = await collect(
      advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
    );
    expect(emitted).toHaveLength(1);
    expect(hasToolCalls(emitted[0]?.chatResponse)).toBe(true);
    expect(manager.calls).toEqual([]);
  });

  describe('usage', () => {
    it('adds earlier rounds only to the chunks that carry usage', async () => {
      const advisor = new ToolCallingAdvisor({
        toolCallingManager: new RecordingToolCallingManager([executes()]),
      });
      const model = new ChunkScriptModel([
        [toolCallResponse([{ name: 'weather' }], { usage: usage(10, 20, 30) })],
        [delta('Hello ', zero), delta('world', usage(1, 2, 3)), delta('!', zero, 'stop')],
      ]);
      const emitted = await collect(
        advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
      );
      expect(textsOf(emitted)).toEqual(['Hello ', 'world', '!']);
      expect(emitted.map((response) => response.chatResponse?.metadata.usage)).toEqual([
        zero,
        usage(11, 22, 33),
        zero,
      ]);
    });

    it('adds a trailing usage-only response when the final round reports none', async () => {
      const advisor = new ToolCallingAdvisor({
        toolCallingManager: new RecordingToolCallingManager([executes()]),
      });
      const model = new ChunkScriptModel([
        [toolCallResponse([{ name: 'weather' }], { usage: usage(10, 20, 30) })],
        [delta('content', zero, 'stop')],
      ]);
      const emitted = await collect(
        advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
      );
      expect(emitted).toHaveLength(2);
      expect(emitted[0]?.chatResponse?.metadata.usage).toEqual(zero);
      expect(textsOf(emitted.slice(0, 1))).toEqual(['content']);
      expect(emitted[1]?.chatResponse?.results).toEqual([]);
      expect(emitted[1]?.chatResponse?.metadata.usage).toEqual(usage(10, 20, 30));
    });

    it('gives two iterations of the same stream independent, identical totals', async () => {
      const manager = new RecordingToolCallingManager([executes(), executes()]);
      const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
      const model = new ScriptedChatModel(
        [
          toolCallResponse([{ name: 'weather' }], { usage: usage(10, 20, 30) }),
          textResponse('done', { usage: usage(1, 2, 3) }),
          toolCallResponse([{ name: 'weather' }], { usage: usage(10, 20, 30) }),
          textResponse('done', { usage: usage(1, 2, 3) }),
        ],
        { textChunks: 1 },
      );
      const stream = advisor.adviseStream(
        clientRequest([userMessage('hi')]),
        streamChain(model, advisor),
      );
      const first = await collect(stream);
      const second = await collect(stream);
      expect(first.at(-1)?.chatResponse?.metadata.usage).toEqual(usage(11, 22, 33));
      expect(second.at(-1)?.chatResponse?.metadata.usage).toEqual(usage(11, 22, 33));
      expect(model.callCount).toBe(4);
      expect(manager.calls).toHaveLength(2);
    });
  });

  it('ends a returnDirect round with one response carrying the results and the turn usage', async () => {
    const manager = new RecordingToolCallingManager([executes(), executes(true)]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather' }], { usage: usage(10, 20, 30) }),
      toolCallResponse([{ name: 'weather' }], { usage: usage(1, 2, 3) }),
    ]);
    const emitted = await collect(
      advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
    );
    expect(emitted).toHaveLength(1);
    expect(emitted[0]?.chatResponse?.metadata.usage).toEqual(usage(11, 22, 33));
    expect(textsOf(emitted)).toEqual(['Tool result data']);
    expect(emitted[0]?.chatResponse?.results[0]?.metadata.finishReason).toBe('returnDirect');
  });

  it('returnDirect with the real manager makes one model call', async () => {
    const lookup = recordingTool('lookup', {
      metadata: { returnDirect: true },
      execute: () => '{"status":"shipped"}',
    });
    const advisor = new ToolCallingAdvisor();
    const model = new ScriptedChatModel([toolCallResponse([{ id: 'c1', name: 'lookup' }])]);
    const emitted = await collect(
      advisor.adviseStream(
        clientRequest([userMessage('where?')], { toolCallbacks: [lookup] }),
        streamChain(model, advisor),
      ),
    );
    expect(model.callCount).toBe(1);
    expect(chatResponsesOf(emitted)).toEqual([
      {
        results: [
          {
            output: { role: 'assistant', text: '{"status":"shipped"}', toolCalls: [] },
            metadata: {
              finishReason: FinishReason.RETURN_DIRECT,
              toolId: 'c1',
              toolName: 'lookup',
            },
          },
        ],
        metadata: {},
      },
    ]);
  });

  it('ends a limit breach with one response holding the breach generation', async () => {
    const success = toolResponse('c1', 'testTool', 'ok');
    const breach = toolResponse('c2', 'testTool', 'limit reached for testTool');
    const manager = new RecordingToolCallingManager([
      new ToolCallLimitExceededError({
        toolName: 'testTool',
        limit: 1,
        partialResult: {
          conversationHistory: [toolResponseMessage([success, breach])],
          returnDirect: false,
        },
      }),
    ]);
    const advisor = new ToolCallingAdvisor({ toolCallingManager: manager });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'testTool' }, { name: 'testTool' }]),
    ]);
    const emitted = await collect(
      advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
    );
    expect(manager.calls).toHaveLength(1);
    expect(emitted).toHaveLength(1);
    expect(emitted[0]?.chatResponse?.results).toEqual([
      {
        output: { role: 'assistant', text: breach.responseData, toolCalls: [] },
        metadata: { finishReason: 'toolCallLimitExceeded', partialToolResponses: [success] },
      },
    ]);
  });

  it('with history disabled sends [system, tool results]; the manager sees the whole turn', async () => {
    const weather = recordingTool('weather');
    const manager = new RecordingToolCallingManager(createToolCallingManager());
    const advisor = new ToolCallingAdvisor({
      toolCallingManager: manager,
    }).disableInternalConversationHistory();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'weather' }]),
      toolCallResponse([{ id: 'c2', name: 'weather' }]),
      textResponse('final'),
    ]);
    const system = systemMessage('Be brief.');
    const emitted = await collect(
      advisor.adviseStream(
        clientRequest([system, userMessage('hi')], { toolCallbacks: [weather] }),
        streamChain(model, advisor),
      ),
    );
    expect(textsOf(emitted).join('')).toBe('final');
    const result1 = toolResponseMessage([
      toolResponse('c1', 'weather', '{"tool":"weather","ok":true}'),
    ]);
    expect(model.prompts[1]?.messages).toEqual([system, result1]);
    expect(manager.calls[1]?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    expect(manager.calls[1]?.messages[3]).toEqual(result1);
  });

  describe('hooks', () => {
    it('run once each without tools, in stream mode', async () => {
      const advisor = new HookRecordingAdvisor();
      const chain = streamChain(new ScriptedChatModel([textResponse('hi')]), advisor);
      await collect(advisor.adviseStream(clientRequest([userMessage('hi')]), chain));
      expect(advisor.events.map((event) => event.hook)).toEqual([
        'init',
        'before',
        'after',
        'finalize',
      ]);
      expect(advisor.events.every((event) => event.loop.mode === 'stream')).toBe(true);
      expect(advisor.events[0]?.loop.chain).toBe(chain);
    });

    it('see each round aggregated, and finalize sees the answer with the turn usage', async () => {
      const advisor = new HookRecordingAdvisor({
        toolCallingManager: new RecordingToolCallingManager([executes()]),
      });
      const model = new ScriptedChatModel([
        toolCallResponse([{ id: 'w', name: 'weather' }], {
          text: 'Let me check.',
          usage: usage(10, 20, 30),
        }),
        textResponse('It is sunny today.', { usage: usage(1, 2, 3) }),
      ]);
      await collect(
        advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
      );
      expect(advisor.events.map((event) => `${event.hook}:${event.loop.iteration}`)).toEqual([
        'init:0',
        'before:1',
        'after:1',
        'before:2',
        'after:2',
        'finalize:2',
      ]);
      const firstAfter = advisor.events[2]?.response?.chatResponse;
      expect(firstAfter?.results[0]?.output.text).toBe('Let me check.');
      expect(firstAfter?.results[0]?.output.toolCalls.map((call) => call.id)).toEqual(['w']);
      const finalized = advisor.events[5]?.response?.chatResponse;
      expect(finalized?.results[0]?.output.text).toBe('It is sunny today.');
      expect(finalized?.metadata.usage).toEqual(usage(11, 22, 33));
    });

    it('finalize runs on a returnDirect ending and what it returns is emitted', async () => {
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
      const emitted = await collect(
        advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
      );
      expect(advisor.count('finalize')).toBe(1);
      expect(emitted).toHaveLength(1);
      expect(emitted[0]?.context.finalized).toBe(true);
    });

    it('a tool injected in doBeforeCall is executed', async () => {
      const injected = recordingTool('injected');
      class Injecting extends ToolCallingAdvisor {
        protected override doBeforeCall(request: ChatClientRequest) {
          const options = { ...request.prompt.options, toolCallbacks: [injected] };
          return { ...request, prompt: { ...request.prompt, options } };
        }
      }
      const manager = new RecordingToolCallingManager(createToolCallingManager());
      const advisor = new Injecting({ toolCallingManager: manager });
      const model = new ScriptedChatModel([
        toolCallResponse([{ name: 'injected' }]),
        textResponse('done'),
      ]);
      await collect(
        advisor.adviseStream(clientRequest([userMessage('hi')]), streamChain(model, advisor)),
      );
      expect(manager.calls[0]?.options.toolCallbacks).toEqual([injected]);
      expect(injected.invocations).toHaveLength(1);
    });
  });

  it('streams the text of a tool-call round to the caller before the tools run', async () => {
    const events: string[] = [];
    const weather = recordingTool('weather', {
      execute: () => {
        events.push('tool');
        return '{"temp":21}';
      },
    });
    const advisor = new ToolCallingAdvisor();
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather' }], { text: 'Let me check the weather.' }),
      textResponse('It is 21 degrees.'),
    ]);
    for await (const response of advisor.adviseStream(
      clientRequest([userMessage('weather?')], { toolCallbacks: [weather] }),
      streamChain(model, advisor),
    )) {
      expect(hasToolCalls(response.chatResponse)).toBe(false);
      events.push(`text:${response.chatResponse?.results[0]?.output.text}`);
    }
    const toolIndex = events.indexOf('tool');
    const before = events.slice(0, toolIndex).map((event) => event.slice('text:'.length));
    const after = events.slice(toolIndex + 1).map((event) => event.slice('text:'.length));
    expect(before.length).toBeGreaterThan(1);
    expect(before.join('')).toBe('Let me check the weather.');
    expect(after.join('')).toBe('It is 21 degrees.');
  });

  it('ends a runaway stream with one tools-off call marked maxIterations', async () => {
    const weather = recordingTool('weather');
    const advisor = new ToolCallingAdvisor({ maxIterations: 1 });
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'weather' }]),
      toolCallResponse([{ id: 'c2', name: 'weather' }], { text: 'Final words.' }),
    ]);
    const emitted = await collect(
      advisor.adviseStream(
        clientRequest([userMessage('hi')], { toolCallbacks: [weather] }),
        streamChain(model, advisor),
      ),
    );
    expect(model.callCount).toBe(2);
    expect(offeredDefinitions(model.prompts[1])).toEqual([weather.definition]);
    expect(model.prompts[1]?.options.toolChoice).toBe('none');
    expect(weather.invocations).toHaveLength(1);
    expect(textsOf(emitted).join('')).toBe('Final words.');
    expect(emitted.some((response) => hasToolCalls(response.chatResponse))).toBe(false);
    expect(emitted.at(-1)?.chatResponse?.results[0]?.metadata.finishReason).toBe(
      FinishReason.MAX_ITERATIONS,
    );
  });

  it('makes no model call after an abort, and the running tool sees the signal', async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const slow = recordingTool('slow', {
      execute: (_input, context) =>
        new Promise<string>((resolve) => {
          toolSignal = context?.signal;
          context?.signal?.addEventListener('abort', () => resolve('late'));
          controller.abort();
        }),
    });
    const advisor = new ToolCallingAdvisor();
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'slow' }]),
      textResponse('never'),
    ]);
    const stream = advisor.adviseStream(
      clientRequest([userMessage('hi')], { toolCallbacks: [slow] }, { signal: controller.signal }),
      streamChain(model, advisor),
    );
    const error = await collect(stream).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(isAbortError(error)).toBe(true);
    expect(model.callCount).toBe(1);
    expect(toolSignal?.aborted).toBe(true);
  });

  it('stops the loop when the caller stops reading', async () => {
    const weather = recordingTool('weather');
    const advisor = new ToolCallingAdvisor();
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather' }], { text: 'Let me check the weather.' }),
      textResponse('never'),
    ]);
    for await (const _response of advisor.adviseStream(
      clientRequest([userMessage('hi')], { toolCallbacks: [weather] }),
      streamChain(model, advisor),
    )) {
      break;
    }
    expect(model.callCount).toBe(1);
    expect(weather.invocations).toEqual([]);
  });
});
