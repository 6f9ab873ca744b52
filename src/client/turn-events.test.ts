import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  CONVERSATION_ID,
  InMemoryChatMemoryRepository,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
} from '../memory/index.js';
import type { TurnEvent } from '../observability/turn-event.js';
import { createTurnEventEmitter } from '../observability/turn-event-emitter.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { createToolCallingManager } from '../tool-calling/create-tool-calling-manager.js';
import { ToolCallingAdvisor } from '../tool-calling/tool-calling-advisor.js';
import { tool } from '../tools/tool.js';
import { ChatClient } from './chat-client.js';
import type { ChatClientRequestSpec } from './chat-client-request-spec.js';

const weather = tool({
  name: 'weather',
  description: 'Current weather',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => `Sunny in ${city}`,
});

/** Runs the request in the mode under test and waits for the turn to end. */
async function run(spec: ChatClientRequestSpec, mode: 'call' | 'stream'): Promise<string> {
  if (mode === 'call') return (await spec.call().content()) ?? '';
  let text = '';
  for await (const delta of spec.stream().content()) text += delta;
  return text;
}

/** A tool that waits until its signal aborts, and a model that calls it once. */
function waitingTurn() {
  let toolSignal: AbortSignal | undefined;
  const waiting = tool({
    name: 'waiting',
    inputSchema: z.object({}),
    execute: (_input, { signal }) => {
      toolSignal = signal;
      return new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
  });
  const model = new ScriptedChatModel([
    toolCallResponse([{ id: 'w1', name: 'waiting', arguments: {} }]),
    textResponse('never'),
  ]);
  return { waiting, model, toolSignal: () => toolSignal };
}

function recorder(): { events: TurnEvent[]; listener: (event: TurnEvent) => void } {
  const events: TurnEvent[] = [];
  return { events, listener: (event) => events.push(event) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(['call', 'stream'] as const)('turn events (%s)', (mode) => {
  it('reports a tool round and the answer in order, with one turn id and matching call ids', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }], {
        usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 },
      }),
      textResponse('It is sunny.', {
        usage: { promptTokens: 9, completionTokens: 4, totalTokens: 13 },
      }),
    ]);
    const { events, listener } = recorder();
    const answer = await run(
      ChatClient.create(model).prompt('Weather in Oslo?').tools(weather).listener(listener),
      mode,
    );
    expect(answer).toBe('It is sunny.');

    const types = events.map((event) => event.type).filter((type) => type !== 'text-delta');
    expect(types).toEqual([
      'turn-start',
      'model-call-start',
      'model-call-end',
      'tool-call',
      'tool-execution-start',
      'tool-result',
      'step-finish',
      'model-call-start',
      'model-call-end',
      'step-finish',
      'turn-finish',
    ]);
    expect(new Set(events.map((event) => event.turnId)).size).toBe(1);
    const byType = <T extends TurnEvent['type']>(type: T) =>
      events.filter((event): event is Extract<TurnEvent, { type: T }> => event.type === type);
    expect(byType('turn-start')[0]?.mode).toBe(mode);
    expect(byType('model-call-start').map((event) => event.iteration)).toEqual([1, 2]);
    expect(byType('model-call-start')[0]?.toolNames).toEqual(['weather']);
    expect(byType('model-call-end')[0]).toMatchObject({
      iteration: 1,
      finishReason: 'tool_calls',
      usage: { totalTokens: 7 },
    });
    expect(byType('tool-call')[0]?.toolCall).toMatchObject({ id: 'c1', name: 'weather' });
    expect(byType('tool-execution-start')[0]).toMatchObject({ toolCallId: 'c1', iteration: 1 });
    expect(byType('tool-result')[0]).toMatchObject({
      toolCallId: 'c1',
      toolName: 'weather',
      outcome: 'ok',
      result: '"Sunny in Oslo"',
      isError: false,
    });
    expect(byType('step-finish').map((event) => event.toolCalls.length)).toEqual([1, 0]);
    expect(byType('turn-finish')[0]).toMatchObject({
      finishReason: 'stop',
      text: mode === 'call' ? 'It is sunny.' : expect.any(String),
      usage: { totalTokens: 20 },
    });
    if (mode === 'stream') {
      const deltas = byType('text-delta');
      expect(deltas.map((event) => event.text).join('')).toBe('It is sunny.');
      expect(deltas.every((event) => event.iteration === 2)).toBe(true);
      // Text deltas arrive inside the model call that streams them.
      const index = events.indexOf(deltas[0] as TurnEvent);
      expect(events.slice(0, index).filter((e) => e.type === 'model-call-start')).toHaveLength(2);
      expect(events.slice(0, index).filter((e) => e.type === 'model-call-end')).toHaveLength(1);
    }
  });

  it('reports every outcome: ok, error, timeout and not executed (unknown name, invalid arguments)', async () => {
    const failing = tool({
      name: 'failing',
      inputSchema: z.object({}),
      execute: () => {
        throw new Error('backend down');
      },
    });
    const slow = tool({
      name: 'slow',
      inputSchema: z.object({}),
      timeoutMs: 20,
      execute: (_input, { signal }) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    });
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'ok', name: 'weather', arguments: { city: 'Rome' } },
        { id: 'err', name: 'failing', arguments: {} },
        { id: 'late', name: 'slow', arguments: {} },
        { id: 'ghost', name: 'ghost', arguments: {} },
        { id: 'bad', name: 'weather', arguments: { city: 7 } },
      ]),
      textResponse('done'),
    ]);
    const { events, listener } = recorder();
    await run(
      ChatClient.create(model, { listeners: [listener] })
        .prompt('go')
        .tools(weather, failing, slow),
      mode,
    );
    const results = events.filter((event) => event.type === 'tool-result');
    const outcomes = Object.fromEntries(results.map((event) => [event.toolCallId, event.outcome]));
    expect(outcomes).toEqual({
      ok: 'ok',
      err: 'error',
      late: 'timeout',
      ghost: 'not-executed',
      bad: 'not-executed',
    });
    const started = events.filter((event) => event.type === 'tool-execution-start');
    expect(started.map((event) => event.toolCallId).sort()).toEqual(['err', 'late', 'ok']);
    const failed = results.find((event) => event.toolCallId === 'err');
    expect(failed).toMatchObject({ isError: true, errorType: 'ToolExecutionError' });
    expect(results.find((event) => event.toolCallId === 'ghost')).toMatchObject({
      durationMs: 0,
      isError: true,
    });
  });

  it('reports a limit breach and the iteration cap', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'a', name: 'weather', arguments: { city: 'A' } },
        { id: 'b', name: 'weather', arguments: { city: 'B' } },
      ]),
      toolCallResponse([{ id: 'c', name: 'weather', arguments: { city: 'C' } }]),
      textResponse('capped answer'),
    ]);
    const advisor = new ToolCallingAdvisor({
      maxIterations: 1,
      toolCallingManager: createToolCallingManager({
        limits: { maxCallsPerTool: 1, onLimitExceeded: 'RETURN_ERROR_RESPONSE' },
      }),
    });
    const { events, listener } = recorder();
    await run(
      ChatClient.create(model, { toolCallingAdvisor: advisor })
        .prompt('go')
        .tools(weather)
        .listener(listener),
      mode,
    );
    expect(events.find((event) => event.type === 'limit-exceeded')).toMatchObject({
      iteration: 1,
      toolName: 'weather',
      limit: 1,
      scope: 'per-tool',
    });
    const cap = events.find((event) => event.type === 'iteration-cap');
    expect(cap).toMatchObject({ iteration: 2, maxIterations: 1 });
    // The cap is reported before the tools-off call it causes.
    const capIndex = events.indexOf(cap as TurnEvent);
    expect(events[capIndex + 1]).toMatchObject({ type: 'model-call-start', iteration: 2 });
    expect(events.at(-1)).toMatchObject({ type: 'turn-finish', finishReason: 'maxIterations' });
  });

  it('reports a failing model call and the turn error', async () => {
    const model = new ScriptedChatModel([new Error('provider exploded')]);
    const { events, listener } = recorder();
    await expect(
      run(ChatClient.create(model).prompt('go').listener(listener), mode),
    ).rejects.toThrow('provider exploded');
    expect(events.map((event) => event.type)).toEqual([
      'turn-start',
      'model-call-start',
      'model-call-end',
      'turn-error',
    ]);
    expect(events[2]).toMatchObject({ error: { message: 'provider exploded' } });
    expect(events[3]).toMatchObject({ error: { type: 'Error', message: 'provider exploded' } });
  });

  it('a listener that throws changes nothing and is reported once', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const throwing = () => {
      throw new Error('listener bug');
    };
    const { events, listener } = recorder();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }]),
      textResponse('It is sunny.'),
    ]);
    const answer = await run(
      ChatClient.create(model, { listeners: [throwing] })
        .prompt('Weather?')
        .tools(weather)
        .listener(listener),
      mode,
    );
    expect(answer).toBe('It is sunny.');
    expect(events.at(-1)?.type).toBe('turn-finish');
    expect(errors).toHaveBeenCalledTimes(1);
  });

  it('delivers progress of an async-generator tool as events, never to the model', async () => {
    const download = tool({
      name: 'download',
      inputSchema: z.object({ file: z.string() }),
      execute: async function* ({ file }) {
        yield { percent: 50 };
        yield { percent: 100 };
        return `${file} saved`;
      },
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'd1', name: 'download', arguments: { file: 'a.txt' } }]),
      textResponse('saved'),
    ]);
    const { events, listener } = recorder();
    await run(ChatClient.create(model).prompt('get it').tools(download).listener(listener), mode);
    const progress = events.filter((event) => event.type === 'tool-progress');
    expect(progress.map((event) => event.value)).toEqual([{ percent: 50 }, { percent: 100 }]);
    expect(progress.every((event) => event.toolCallId === 'd1')).toBe(true);
    const sentBack = JSON.stringify(model.prompts[1]?.messages.at(-1));
    expect(sentBack).toContain('a.txt saved');
    expect(sentBack).not.toContain('percent');
  });

  it('never puts the tool context into an event', async () => {
    const sentinel = 'SENTINEL-7f3a-tool-context';
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }]),
      textResponse('It is sunny.'),
    ]);
    const { events, listener } = recorder();
    await run(
      ChatClient.create(model, { toolContext: { apiKey: sentinel } })
        .prompt('Weather?')
        .tools(weather)
        .toolContext({ tenant: sentinel })
        .listener(listener),
      mode,
    );
    expect(events.length).toBeGreaterThan(5);
    expect(JSON.stringify(events)).not.toContain(sentinel);
  });
});

describe('listeners', () => {
  it('client listeners, onStepFinish and request listeners all see the turn', async () => {
    const model = new ScriptedChatModel([textResponse('hi')]);
    const client = recorder();
    const request = recorder();
    const steps: unknown[] = [];
    await ChatClient.create(model, {
      listeners: [client.listener],
      onStepFinish: (e) => steps.push(e),
    })
      .prompt('hello')
      .listener(request.listener)
      .call()
      .content();
    expect(client.events.map((e) => e.type)).toEqual(request.events.map((e) => e.type));
    expect(steps).toEqual([expect.objectContaining({ type: 'step-finish', iteration: 1 })]);
  });

  it('a request listener does not leak to other requests of the same client', async () => {
    const model = new ScriptedChatModel([textResponse('one'), textResponse('two')]);
    const client = ChatClient.create(model);
    const first = recorder();
    await client.prompt('a').listener(first.listener).call().content();
    const count = first.events.length;
    await client.prompt('b').call().content();
    expect(first.events.length).toBe(count);
  });

  it('without listeners the loop builds no emitter (and so no event)', () => {
    expect(createTurnEventEmitter('t', undefined)).toBeUndefined();
    expect(createTurnEventEmitter('t', [])).toBeUndefined();
  });

  it('rejects a listener that is not a function', () => {
    const model = new ScriptedChatModel([]);
    expect(() =>
      ChatClient.create(model)
        .prompt('x')
        .listener('nope' as never),
    ).toThrow('must be a function');
  });
});

describe('.stream().events()', () => {
  it('yields the whole turn, tool round included, ending with turn-finish', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }]),
      textResponse('It is sunny.'),
    ]);
    const types: string[] = [];
    let text = '';
    for await (const event of ChatClient.create(model)
      .prompt('Weather?')
      .tools(weather)
      .stream()
      .events()) {
      types.push(event.type);
      if (event.type === 'text-delta') text += event.text;
    }
    expect(text).toBe('It is sunny.');
    expect(types[0]).toBe('turn-start');
    expect(types).toContain('tool-call');
    expect(types).toContain('tool-result');
    expect(types.filter((type) => type === 'step-finish')).toHaveLength(2);
    expect(types.at(-1)).toBe('turn-finish');
  });

  it('yields tool-call-delta events of streamed calls before their tool-call, adding up to their arguments', async () => {
    const calls = [
      { id: 'c1', name: 'weather', arguments: { city: 'Oslo', unit: 'celsius' } },
      { id: 'c2', name: 'weather', arguments: { city: 'Bergen', unit: 'celsius' } },
    ];
    const model = new ScriptedChatModel(
      [toolCallResponse(calls, { text: 'Checking.' }), textResponse('Sunny in both.')],
      { argumentChunks: 4 },
    );
    const events: TurnEvent[] = [];
    for await (const event of ChatClient.create(model)
      .prompt('Weather?')
      .tools(weather)
      .stream()
      .events())
      events.push(event);
    const deltas = events.filter((event) => event.type === 'tool-call-delta');
    expect(deltas.length).toBe(8);
    for (const call of calls) {
      const own = deltas.filter((event) => event.toolCallId === call.id);
      expect(own.map((event) => event.toolName)).toEqual([
        'weather',
        undefined,
        undefined,
        undefined,
      ]);
      expect(own.map((event) => event.argumentsDelta).join('')).toBe(
        JSON.stringify(call.arguments),
      );
      expect(own.every((event) => event.iteration === 1)).toBe(true);
      const toolCallAt = events.findIndex(
        (event) => event.type === 'tool-call' && event.toolCall.id === call.id,
      );
      expect(toolCallAt).toBeGreaterThan(events.lastIndexOf(own.at(-1) as TurnEvent));
    }
  });

  it('reports no tool-call-delta in the tools-off round after the iteration cap (its calls are dropped)', async () => {
    const model = new ScriptedChatModel(
      [
        toolCallResponse([{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }]),
        // A model that ignores the tools-off request and writes a call anyway.
        toolCallResponse([{ id: 'c2', name: 'weather', arguments: { city: 'Rome' } }], {
          text: 'Capped.',
        }),
      ],
      { argumentChunks: 2 },
    );
    const advisor = new ToolCallingAdvisor({ maxIterations: 1 });
    const events: TurnEvent[] = [];
    for await (const event of ChatClient.create(model, { toolCallingAdvisor: advisor })
      .prompt('Weather?')
      .tools(weather)
      .stream()
      .events())
      events.push(event);
    const deltas = events.filter((event) => event.type === 'tool-call-delta');
    expect(deltas.map((event) => [event.toolCallId, event.iteration])).toEqual([
      ['c1', 1],
      ['c1', 1],
    ]);
    expect(events.some((event) => event.type === 'iteration-cap')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'turn-finish', text: 'Capped.' });
  });

  it('streamed argument pieces change nothing of the answer, the messages sent back or memory', async () => {
    async function converse(argumentChunks: number) {
      const repository = new InMemoryChatMemoryRepository();
      const memory = new MessageChatMemoryAdvisor({
        chatMemory: new MessageWindowChatMemory({ repository }),
      });
      const model = new ScriptedChatModel(
        [
          toolCallResponse([{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }]),
          textResponse('It is sunny.'),
        ],
        { argumentChunks },
      );
      const spec = ChatClient.create(model, { advisors: [memory] })
        .prompt('Weather?')
        .tools(weather)
        .advisors((a) => a.param(CONVERSATION_ID, 'conv-1'))
        .stream();
      const response = await spec;
      return {
        response: response.chatResponse,
        stored: await repository.findByConversationId('conv-1'),
        secondPrompt: model.prompts[1]?.messages,
      };
    }
    const plain = await converse(0);
    const streamed = await converse(5);
    expect(streamed).toEqual(plain);
    expect(plain.secondPrompt?.some((message) => message.role === 'tool')).toBe(true);
    expect(plain.stored.at(-1)).toMatchObject({ role: 'assistant', text: 'It is sunny.' });
  });

  it('breaking out aborts the running tool and makes no further model call', async () => {
    const { waiting, model, toolSignal } = waitingTurn();
    for await (const event of ChatClient.create(model)
      .prompt('go')
      .tools(waiting)
      .stream()
      .events()) {
      if (event.type === 'tool-execution-start') break;
    }
    expect(toolSignal()?.aborted).toBe(true);
    expect(model.callCount).toBe(1);
  });

  it('breaking out during the model stream aborts the model call', async () => {
    let modelSignal: AbortSignal | undefined;
    const model = new ScriptedChatModel(
      [
        (_prompt, info) => {
          modelSignal = info.signal;
          return textResponse('one two three four five six', {});
        },
      ],
      { textChunks: 6 },
    );
    for await (const event of ChatClient.create(model).prompt('go').stream().events()) {
      if (event.type === 'text-delta') break;
    }
    expect(modelSignal?.aborted).toBe(true);
  });

  it("the caller's signal aborts the running tool and ends the events with a turn-error", async () => {
    const { waiting, model, toolSignal } = waitingTurn();
    const controller = new AbortController();
    const types: string[] = [];
    for await (const event of ChatClient.create(model)
      .prompt('go')
      .tools(waiting)
      .stream({ signal: controller.signal })
      .events()) {
      types.push(event.type);
      if (event.type === 'tool-execution-start') controller.abort();
    }
    expect(toolSignal()?.aborted).toBe(true);
    expect(types.at(-1)).toBe('turn-error');
    expect(model.callCount).toBe(1);
  });

  it('an events iteration runs nothing until its first next, and stays done after its end', async () => {
    const model = new ScriptedChatModel([textResponse('hi'), textResponse('again')]);
    const events = ChatClient.create(model).prompt('go').stream().events();
    const unread = events[Symbol.asyncIterator]();
    expect(await unread.return?.()).toEqual({ done: true, value: undefined });
    expect(await unread.next()).toEqual({ done: true, value: undefined });
    expect(model.callCount).toBe(0);

    const iterator = events[Symbol.asyncIterator]();
    const types: string[] = [];
    for (let result = await iterator.next(); !result.done; result = await iterator.next()) {
      types.push(result.value.type);
    }
    expect(types[0]).toBe('turn-start');
    expect(types.at(-1)).toBe('turn-finish');
    expect(types).toContain('text-delta');
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(await iterator.return?.()).toEqual({ done: true, value: undefined });
    expect(model.callCount).toBe(1);
  });

  it('a failure before the turn begins is thrown', async () => {
    const model = new ScriptedChatModel([]);
    const duplicate = [weather, weather];
    const iterate = async () => {
      for await (const _event of ChatClient.create(model)
        .prompt('x')
        .tools(...duplicate)
        .stream()
        .events()) {
        // nothing
      }
    };
    await expect(iterate()).rejects.toThrow(/weather/);
  });
});
