import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AbortError, isAbortError } from '../errors/index.js';
import type { ChatModel, ChatResponse } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { ChatClient } from './chat-client.js';

/** A streamed text delta `"<index> "`, as a model that ignores its signal yields it. */
function numberDelta(index: number): ChatResponse {
  return {
    results: [
      {
        output: { role: 'assistant', text: `${index} `, toolCalls: [] },
        metadata: { finishReason: null },
      },
    ],
    metadata: {},
  };
}

/** Tools that block until their signal aborts, reporting when they start and what they saw. */
function blockingTools(names: string[]) {
  const started: string[] = [];
  const sawAbort: string[] = [];
  let allStarted: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    allStarted = resolve;
  });
  const tools: ToolCallback[] = names.map((name) =>
    tool({
      name,
      description: `Blocks until aborted (${name})`,
      inputSchema: z.object({}),
      execute: (_input, context) =>
        new Promise((_resolve, reject) => {
          started.push(name);
          if (started.length === names.length) allStarted();
          context.signal?.addEventListener('abort', () => {
            sawAbort.push(name);
            reject(context.signal?.reason);
          });
        }),
    }),
  );
  return { tools, started, sawAbort, ready };
}

function script() {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'slow_a' }, { name: 'slow_b' }]),
    textResponse('must never be requested'),
  ]);
}

describe('ChatClient abort', () => {
  it('call: aborting during the tool batch reaches every pending tool and makes no further model call', async () => {
    const model = script();
    const { tools, sawAbort, ready } = blockingTools(['slow_a', 'slow_b']);
    const controller = new AbortController();
    const answer = ChatClient.create(model)
      .prompt('go')
      .tools(tools)
      .call({ signal: controller.signal })
      .content();
    await ready;
    controller.abort();
    const error = await answer.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAbortError(error)).toBe(true);
    expect(sawAbort.sort()).toEqual(['slow_a', 'slow_b']);
    expect(model.callCount).toBe(1);
    expect(model.remaining).toBe(1);
  });

  it('stream: aborting during the tool batch reaches every pending tool and makes no further model call', async () => {
    const model = script();
    const { tools, sawAbort, ready } = blockingTools(['slow_a', 'slow_b']);
    const controller = new AbortController();
    const consume = (async () => {
      const deltas: string[] = [];
      for await (const delta of ChatClient.create(model)
        .prompt('go')
        .tools(tools)
        .stream({ signal: controller.signal })
        .content()) {
        deltas.push(delta);
      }
      return deltas;
    })();
    await ready;
    controller.abort();
    const error = await consume.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAbortError(error)).toBe(true);
    expect(sawAbort.sort()).toEqual(['slow_a', 'slow_b']);
    expect(model.callCount).toBe(1);
  });

  it('stream: aborting while the answer streams closes the model stream and fails the reader', async () => {
    let closed = false;
    let completed = false;
    const model: ChatModel = {
      call: () => Promise.reject(new Error('streams only')),
      async *stream() {
        try {
          for (let index = 0; index < 100; index++) {
            yield numberDelta(index);
          }
          completed = true;
        } finally {
          closed = true;
        }
      },
    };
    const controller = new AbortController();
    const deltas: string[] = [];
    const error = await (async () => {
      for await (const delta of ChatClient.create(model)
        .prompt('go')
        .stream({ signal: controller.signal })
        .content()) {
        deltas.push(delta);
        controller.abort();
      }
    })().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(isAbortError(error)).toBe(true);
    expect(deltas).toEqual(['0 ']);
    expect(closed).toBe(true);
    expect(completed).toBe(false);
  });

  it('stream: a read still waiting for its chunk when the stream is stopped ends the iteration', async () => {
    let closed = false;
    const model: ChatModel = {
      call: () => Promise.reject(new Error('streams only')),
      async *stream() {
        try {
          for (let index = 0; index < 5; index++) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            yield numberDelta(index);
          }
        } finally {
          closed = true;
        }
      },
    };
    const iterator = ChatClient.create(model)
      .prompt('go')
      .stream()
      .content()
      [Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: '0 ' });
    const waiting = iterator.next();
    const stopped = iterator.return?.();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(await stopped).toEqual({ done: true, value: undefined });
    expect(closed).toBe(true);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('an already aborted signal makes no model call at all', async () => {
    const model = script();
    const controller = new AbortController();
    controller.abort();
    const spec = ChatClient.create(model).prompt('go');
    await expect(spec.call({ signal: controller.signal }).content()).rejects.toSatisfy(
      isAbortError,
    );
    await expect(async () => {
      for await (const _ of spec.stream({ signal: controller.signal }).content()) {
        // never reached
      }
    }).rejects.toSatisfy(isAbortError);
    expect(model.callCount).toBe(0);
  });
});

describe('a tool that cancels its own sub-request', () => {
  // A server that accepts requests and never answers, like a backend that hangs.
  let server: Server;
  let url: string;
  const hanging = new Set<ServerResponse>();
  beforeAll(async () => {
    server = createServer((_request, response) => {
      hanging.add(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rates`;
  });
  afterAll(async () => {
    for (const response of hanging) response.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Gives up on the backend after 30 ms with its own AbortController: fetch throws AbortError. */
  function ratesTool() {
    let attempts = 0;
    const rates = tool({
      name: 'exchangeRates',
      description: 'Current exchange rates',
      execute: async () => {
        attempts++;
        const own = new AbortController();
        const timer = setTimeout(() => own.abort(), 30);
        try {
          const response = await fetch(url, { signal: own.signal });
          return await response.text();
        } finally {
          clearTimeout(timer);
        }
      },
    });
    return { rates, attempts: () => attempts };
  }

  it.each(['call', 'stream'] as const)(
    '%s: the abort is a tool error the model sees, not the end of the request',
    async (mode) => {
      const model = new ScriptedChatModel([
        toolCallResponse([{ id: 'r1', name: 'exchangeRates' }]),
        textResponse('The rates service is not answering right now.'),
      ]);
      const { rates, attempts } = ratesTool();
      const controller = new AbortController();
      const spec = ChatClient.create(model).prompt('Rates?').tools(rates);
      let answer = '';
      if (mode === 'call')
        answer = (await spec.call({ signal: controller.signal }).content()) ?? '';
      else
        for await (const delta of spec.stream({ signal: controller.signal }).content())
          answer += delta;
      expect(answer).toBe('The rates service is not answering right now.');
      expect(attempts()).toBe(1);
      const result = model.prompts[1]?.messages.at(-1);
      expect(result).toMatchObject({
        role: 'tool',
        responses: [{ id: 'r1', name: 'exchangeRates', isError: true }],
      });
      expect(controller.signal.aborted).toBe(false);
    },
  );
});

describe('an abort before the turn starts', () => {
  it('rejects call and stream with toolloop AbortError, the signal reason as its cause, like an abort mid-turn', async () => {
    const reason = new Error('user left');
    const model = new ScriptedChatModel([textResponse('never')]);
    const client = ChatClient.create(model);
    const called = client
      .prompt('x')
      .call({ signal: AbortSignal.abort(reason) })
      .content();
    await expect(called).rejects.toBeInstanceOf(AbortError);
    await expect(called).rejects.toMatchObject({ code: 'ABORTED', cause: reason });
    const streamed = client
      .prompt('x')
      .stream({ signal: AbortSignal.abort(reason) })
      .content();
    const collect = async () => {
      for await (const _chunk of streamed) {
        // nothing arrives
      }
    };
    await expect(collect()).rejects.toBeInstanceOf(AbortError);
    expect(model.callCount).toBe(0);
  });
});
