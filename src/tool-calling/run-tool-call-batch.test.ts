import { describe, expect, it } from 'vitest';
import { AbortError, isAbortError, ToolExecutionError } from '../errors/index.js';
import type { Message, ToolResponse, ToolResponseMessage } from '../messages/index.js';
import { toolCall } from '../messages/index.js';
import {
  type Deferred,
  deferred,
  flushMicrotasks,
  nextTick,
  promptWith,
  type SpyTool,
  spyTool,
  toolCallResponse,
} from './__tests__/spy-tool.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';
import type { ToolCallEndEvent, ToolCallStartEvent } from './tool-call-observer.js';

function lastResponses(history: Message[]): ToolResponse[] {
  return (history[history.length - 1] as ToolResponseMessage).responses;
}

/** Tools whose calls wait on a deferred each, recording what runs at the same time. */
function gatedTools() {
  const gates = new Map<string, Deferred<string>>();
  const running = new Set<string>();
  const started: string[] = [];
  const overlaps: Array<{ id: string; runningAtStart: string[] }> = [];
  let maxInFlight = 0;
  const signals = new Map<string, AbortSignal | undefined>();
  const make = (name: string, metadata = {}): SpyTool =>
    spyTool(name, {
      metadata,
      execute: async (_input, context) => {
        const id = context?.toolCallId as string;
        overlaps.push({ id, runningAtStart: [...running] });
        running.add(id);
        started.push(id);
        signals.set(id, context?.signal);
        maxInFlight = Math.max(maxInFlight, running.size);
        const gate = deferred<string>();
        gates.set(id, gate);
        try {
          return await gate.promise;
        } finally {
          running.delete(id);
        }
      },
    });
  return {
    make,
    started,
    overlaps,
    signals,
    running,
    maxInFlight: () => maxInFlight,
    release: async (id: string, value = `result ${id}`) => {
      const gate = gates.get(id);
      if (gate === undefined) throw new Error(`call ${id} has not started`);
      gate.resolve(value);
      await flushMicrotasks(20);
    },
  };
}

function activeTimeouts(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

describe('concurrency', () => {
  it('never runs more than maxConcurrency calls at once and keeps results in call order', async () => {
    const gated = gatedTools();
    const tool = gated.make('work');
    const ids = Array.from({ length: 10 }, (_, index) => `c${index}`);
    const promise = createToolCallingManager({ maxConcurrency: 3 }).executeToolCalls(
      promptWith([tool]),
      toolCallResponse(ids.map((id) => toolCall(id, 'work'))),
    );
    await flushMicrotasks(20);
    expect(gated.started).toEqual(['c0', 'c1', 'c2']);
    // Release out of order: results must still be listed in call order.
    for (const id of ['c2', 'c0', 'c1', 'c5', 'c4', 'c3', 'c8', 'c7', 'c6', 'c9']) {
      await gated.release(id);
      expect(gated.running.size).toBeLessThanOrEqual(3);
    }
    const result = await promise;
    expect(gated.maxInFlight()).toBe(3);
    expect(gated.started).toEqual(ids);
    expect(lastResponses(result.conversationHistory)).toEqual(
      ids.map((id) => ({ id, name: 'work', responseData: `result ${id}` })),
    );
  });

  it('runs up to 8 calls at once by default', async () => {
    const gated = gatedTools();
    const tool = gated.make('work');
    const ids = Array.from({ length: 12 }, (_, index) => `c${index}`);
    const promise = createToolCallingManager().executeToolCalls(
      promptWith([tool]),
      toolCallResponse(ids.map((id) => toolCall(id, 'work'))),
    );
    await flushMicrotasks(20);
    expect(gated.started).toHaveLength(8);
    for (const id of ids) await gated.release(id);
    await promise;
    expect(gated.maxInFlight()).toBe(8);
  });

  it('runs a sequential tool alone: it waits for the running calls and holds back the later ones', async () => {
    const gated = gatedTools();
    const parallel = gated.make('parallel');
    const alone = gated.make('alone', { sequential: true });
    const promise = createToolCallingManager().executeToolCalls(
      promptWith([parallel, alone]),
      toolCallResponse([
        toolCall('p1', 'parallel'),
        toolCall('p2', 'parallel'),
        toolCall('s', 'alone'),
        toolCall('p3', 'parallel'),
        toolCall('p4', 'parallel'),
      ]),
    );
    await flushMicrotasks(20);
    expect(gated.started).toEqual(['p1', 'p2']);
    await gated.release('p1');
    expect(gated.started).toEqual(['p1', 'p2']);
    await gated.release('p2');
    expect(gated.started).toEqual(['p1', 'p2', 's']);
    await gated.release('s');
    expect(gated.started).toEqual(['p1', 'p2', 's', 'p3', 'p4']);
    await gated.release('p3');
    await gated.release('p4');
    await promise;
    expect(gated.overlaps.find((entry) => entry.id === 's')?.runningAtStart).toEqual([]);
    expect(gated.overlaps.find((entry) => entry.id === 'p3')?.runningAtStart).toEqual([]);
  });
});

describe('timeouts', () => {
  it('answers a tool that never settles with a timeout error and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const hanging = spyTool('hanging', {
      metadata: { timeoutMs: 20 },
      execute: (_input, context) => {
        signal = context?.signal;
        return new Promise(() => {});
      },
    });
    const started = Date.now();
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([hanging]),
      toolCallResponse([toolCall('1', 'hanging')]),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(lastResponses(result.conversationHistory)).toEqual([
      {
        id: '1',
        name: 'hanging',
        responseData: "Tool 'hanging' timed out after 20 ms",
        isError: true,
      },
    ]);
    expect(signal?.aborted).toBe(true);
    expect(isAbortError(signal?.reason)).toBe(true);
  });

  it('applies defaultTimeoutMs to tools without their own, and a per-tool timeout wins over it', async () => {
    const never = () => new Promise<string>(() => {});
    const result = await createToolCallingManager({ defaultTimeoutMs: 15 }).executeToolCalls(
      promptWith([
        spyTool('usesDefault', { execute: never }),
        spyTool('ownTimeout', { metadata: { timeoutMs: 25 }, execute: never }),
        spyTool('quick', { execute: () => 'done' }),
      ]),
      toolCallResponse([
        toolCall('1', 'usesDefault'),
        toolCall('2', 'ownTimeout'),
        toolCall('3', 'quick'),
      ]),
    );
    expect(
      lastResponses(result.conversationHistory).map((response) => response.responseData),
    ).toEqual([
      "Tool 'usesDefault' timed out after 15 ms",
      "Tool 'ownTimeout' timed out after 25 ms",
      'done',
    ]);
  });

  // Node fires a setTimeout of 2^31 ms or more (about 24.8 days), or Infinity, after 1 ms: a
  // tool given a month would time out at once.
  it.each([
    ['2^31 ms', 2 ** 31],
    ['30 days', 30 * 86_400_000],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('a timeout of %s (own or default) means long: a 40 ms tool finishes', async (_name, ms) => {
    const slow = (name: string, metadata = {}) =>
      spyTool(name, {
        metadata,
        execute: async () => {
          await new Promise((resolve) => setTimeout(resolve, 40));
          return `${name} done`;
        },
      });
    const own = await createToolCallingManager().executeToolCalls(
      promptWith([slow('own', { timeoutMs: ms })]),
      toolCallResponse([toolCall('1', 'own')]),
    );
    const byDefault = await createToolCallingManager({ defaultTimeoutMs: ms }).executeToolCalls(
      promptWith([slow('byDefault')]),
      toolCallResponse([toolCall('1', 'byDefault')]),
    );
    expect(lastResponses(own.conversationHistory)[0]?.responseData).toBe('own done');
    expect(lastResponses(byDefault.conversationHistory)[0]?.responseData).toBe('byDefault done');
  });

  it('discards the late result of a tool that ignores its signal', async () => {
    const late = deferred<string>();
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([spyTool('slow', { metadata: { timeoutMs: 10 }, execute: () => late.promise })]),
      toolCallResponse([toolCall('1', 'slow')]),
    );
    late.resolve('too late');
    await flushMicrotasks();
    expect(lastResponses(result.conversationHistory)[0]?.responseData).toBe(
      "Tool 'slow' timed out after 10 ms",
    );
  });

  it('leaves no timer behind when tools finish before their timeout', async () => {
    const before = activeTimeouts();
    await createToolCallingManager({ defaultTimeoutMs: 60_000 }).executeToolCalls(
      promptWith([spyTool('fast', { execute: async () => 'ok' })]),
      toolCallResponse([toolCall('1', 'fast'), toolCall('2', 'fast')]),
    );
    expect(activeTimeouts()).toBe(before);
  });

  it('treats a tool error before the timeout as a tool error', async () => {
    const result = await createToolCallingManager({ defaultTimeoutMs: 60_000 }).executeToolCalls(
      promptWith([spyTool('bad', { execute: () => Promise.reject(new Error('broken')) })]),
      toolCallResponse([toolCall('1', 'bad')]),
    );
    expect(lastResponses(result.conversationHistory)[0]).toEqual({
      id: '1',
      name: 'bad',
      responseData: 'broken',
      isError: true,
    });
  });
});

describe('caller abort', () => {
  it('stops queued calls from starting, aborts the running one and rejects with an AbortError', async () => {
    const gated = gatedTools();
    const tool = gated.make('work');
    const controller = new AbortController();
    const promise = createToolCallingManager({ maxConcurrency: 1 }).executeToolCalls(
      promptWith([tool]),
      toolCallResponse(['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => toolCall(id, 'work'))),
      { signal: controller.signal },
    );
    const outcome = promise.then(
      () => undefined,
      (error: unknown) => error,
    );
    await flushMicrotasks(20);
    await gated.release('c1');
    expect(gated.started).toEqual(['c1', 'c2']);
    controller.abort();
    const error = await outcome;
    expect(error).toBeInstanceOf(AbortError);
    expect(isAbortError(error)).toBe(true);
    expect(gated.signals.get('c2')?.aborted).toBe(true);
    await nextTick();
    expect(gated.started).toEqual(['c1', 'c2']);
  });

  it('aborts every running call, also those with their own timeout', async () => {
    const gated = gatedTools();
    const plain = gated.make('plain');
    const timed = gated.make('timed', { timeoutMs: 60_000 });
    const controller = new AbortController();
    const before = activeTimeouts();
    const promise = createToolCallingManager().executeToolCalls(
      promptWith([plain, timed]),
      toolCallResponse([toolCall('a', 'plain'), toolCall('b', 'timed'), toolCall('c', 'plain')]),
      { signal: controller.signal },
    );
    await flushMicrotasks(20);
    expect(gated.started).toEqual(['a', 'b', 'c']);
    controller.abort(new Error('user left'));
    const error = await promise.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toEqual(new Error('user left'));
    for (const id of ['a', 'b', 'c']) expect(gated.signals.get(id)?.aborted).toBe(true);
    await flushMicrotasks(20);
    expect(activeTimeouts()).toBe(before);
  });

  it('rejects at once for a signal that is already aborted, running nothing', async () => {
    const tool = spyTool('work');
    const controller = new AbortController();
    controller.abort();
    await expect(
      createToolCallingManager().executeToolCalls(
        promptWith([tool]),
        toolCallResponse([toolCall('1', 'work')]),
        { signal: controller.signal },
      ),
    ).rejects.toBeInstanceOf(AbortError);
    expect(tool.invocations).toHaveLength(0);
  });

  it('rejects promptly even when the running tool ignores its signal', async () => {
    const controller = new AbortController();
    const promise = createToolCallingManager().executeToolCalls(
      promptWith([spyTool('stubborn', { execute: () => new Promise(() => {}) })]),
      toolCallResponse([toolCall('1', 'stubborn')]),
      { signal: controller.signal },
    );
    await flushMicrotasks();
    controller.abort();
    await expect(promise).rejects.toBeInstanceOf(AbortError);
  });

  it('removes its abort listener when the batch completes', async () => {
    const controller = new AbortController();
    const listeners: unknown[] = [];
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((
      type: string,
      listener: EventListener,
      options?: AddEventListenerOptions,
    ) => {
      listeners.push(listener);
      add(type, listener, options);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, listener: EventListener) => {
      listeners.splice(listeners.indexOf(listener), 1);
      remove(type, listener);
    }) as typeof signal.removeEventListener;
    await createToolCallingManager().executeToolCalls(
      promptWith([spyTool('work')]),
      toolCallResponse([toolCall('1', 'work')]),
      { signal },
    );
    expect(listeners).toEqual([]);
  });
});

describe('signals', () => {
  it("gives a lone call without a timeout the caller's own signal, or none", async () => {
    const tool = spyTool('work');
    const controller = new AbortController();
    const manager = createToolCallingManager();
    await manager.executeToolCalls(promptWith([tool]), toolCallResponse([toolCall('1', 'work')]), {
      signal: controller.signal,
    });
    await manager.executeToolCalls(promptWith([tool]), toolCallResponse([toolCall('2', 'work')]));
    expect(tool.invocations[0]?.context?.signal).toBe(controller.signal);
    expect(tool.invocations[1]?.context?.signal).toBeUndefined();
  });

  it('gives the calls of a multi-call batch one shared signal of the batch', async () => {
    const tool = spyTool('work');
    const controller = new AbortController();
    await createToolCallingManager().executeToolCalls(
      promptWith([tool]),
      toolCallResponse([toolCall('1', 'work'), toolCall('2', 'work')]),
      { signal: controller.signal },
    );
    const [first, second] = tool.invocations.map((invocation) => invocation.context?.signal);
    expect(first).toBeInstanceOf(AbortSignal);
    expect(first).toBe(second);
    expect(first).not.toBe(controller.signal);
  });

  it('gives a call with a timeout its own signal', async () => {
    const tool = spyTool('work', { metadata: { timeoutMs: 60_000 } });
    const controller = new AbortController();
    await createToolCallingManager().executeToolCalls(
      promptWith([tool]),
      toolCallResponse([toolCall('1', 'work')]),
      { signal: controller.signal },
    );
    const signal = tool.invocations[0]?.context?.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal).not.toBe(controller.signal);
  });
});

describe('observer', () => {
  function recordingObserver(includeContent?: boolean) {
    const starts: ToolCallStartEvent[] = [];
    const ends: ToolCallEndEvent[] = [];
    return {
      starts,
      ends,
      observer: {
        ...(includeContent === undefined ? {} : { includeContent }),
        onToolCallStart: (event: ToolCallStartEvent) => starts.push(event),
        onToolCallEnd: (event: ToolCallEndEvent) => ends.push(event),
      },
    };
  }

  it('reports each executed call with name, id, duration and outcome, and never the context', async () => {
    const recorder = recordingObserver();
    const ok = spyTool('ok', { execute: () => 'fine' });
    const failing = spyTool('failing', {
      execute: () => {
        throw new ToolExecutionError({ toolName: 'failing', cause: new TypeError('nope') });
      },
    });
    const hanging = spyTool('hanging', {
      metadata: { timeoutMs: 5 },
      execute: () => new Promise(() => {}),
    });
    await createToolCallingManager({ observer: recorder.observer }).executeToolCalls(
      promptWith([ok, failing, hanging], undefined, { secret: 'ctx-SECRET-123' }),
      toolCallResponse([
        toolCall('1', 'ok', '{"q":"arg-SENTINEL"}'),
        toolCall('2', 'failing'),
        toolCall('3', 'hanging'),
        toolCall('4', 'ghost'),
        toolCall('5', 'ok', '{bad json'),
      ]),
    );
    expect(recorder.starts.map((event) => [event.toolCallId, event.toolName])).toEqual([
      ['1', 'ok'],
      ['2', 'failing'],
      ['3', 'hanging'],
    ]);
    const byId = new Map(recorder.ends.map((event) => [event.toolCallId, event]));
    expect(recorder.ends).toHaveLength(3);
    expect(byId.get('1')).toMatchObject({ outcome: 'success', isError: false, toolName: 'ok' });
    expect(byId.get('2')).toMatchObject({
      outcome: 'tool-error',
      isError: true,
      errorType: 'ToolExecutionError',
    });
    expect(byId.get('3')).toMatchObject({ outcome: 'timeout', isError: true });
    for (const event of recorder.ends) {
      expect(event.durationMs).toBeGreaterThanOrEqual(0);
      expect(event.definition.name).toBe(event.toolName);
      expect(event.arguments).toBeUndefined();
      expect(event.result).toBeUndefined();
    }
    const serialized = JSON.stringify([recorder.starts, recorder.ends]);
    expect(serialized).not.toContain('ctx-SECRET-123');
    expect(serialized).not.toContain('arg-SENTINEL');
  });

  it('includes arguments and results only with includeContent', async () => {
    const recorder = recordingObserver(true);
    await createToolCallingManager({ observer: recorder.observer }).executeToolCalls(
      promptWith([spyTool('ok', { execute: () => 'the result' })]),
      toolCallResponse([toolCall('1', 'ok', '{"q":1}')]),
    );
    expect(recorder.starts[0]?.arguments).toBe('{"q":1}');
    expect(recorder.ends[0]).toMatchObject({ arguments: '{"q":1}', result: 'the result' });
  });

  it("reports 'failed' for an error that ends the request and 'aborted' for calls cut short by it", async () => {
    const recorder = recordingObserver();
    const gate = deferred<string>();
    const promise = createToolCallingManager({
      observer: recorder.observer,
      throwExceptionOnError: true,
    }).executeToolCalls(
      promptWith([
        spyTool('slow', { metadata: { timeoutMs: 60_000 }, execute: () => gate.promise }),
        spyTool('bad', { execute: () => Promise.reject(new Error('x')) }),
      ]),
      toolCallResponse([toolCall('1', 'slow'), toolCall('2', 'bad')]),
    );
    await expect(promise).rejects.toBeInstanceOf(ToolExecutionError);
    await flushMicrotasks(20);
    const byId = new Map(recorder.ends.map((event) => [event.toolCallId, event.outcome]));
    expect(byId.get('2')).toBe('failed');
    expect(byId.get('1')).toBe('aborted');
  });
});
