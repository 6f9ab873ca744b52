import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isAbortError } from '../errors/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { ChatClient } from './chat-client.js';

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
