import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import { ChatClient } from './chat-client.js';

const ping = tool({ name: 'ping', description: 'Answers pong', execute: () => 'pong' });

describe('awaiting .call()', () => {
  it('runs the request and resolves to the full ChatClientResponse', async () => {
    const model = new ScriptedChatModel([textResponse('Hello')]);
    const response = await ChatClient.create(model).prompt('Hi').call();
    expect(model.callCount).toBe(1);
    expect(response.chatResponse?.results[0]?.output.text).toBe('Hello');
    expect(response.context).toBeTypeOf('object');
  });

  it('runs once however often it is awaited, shared with the accessors', async () => {
    const model = new ScriptedChatModel([textResponse('Once')]);
    const spec = ChatClient.create(model).prompt('Hi').call();
    const first = await spec;
    const second = await spec;
    expect(second).toBe(first);
    expect(await spec.content()).toBe('Once');
    expect(await spec.chatClientResponse()).toBe(first);
    expect(model.callCount).toBe(1);
  });

  it('sends nothing until awaited or read', async () => {
    const model = new ScriptedChatModel([textResponse('unused')]);
    ChatClient.create(model).prompt('Hi').call();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(model.callCount).toBe(0);
  });

  it('rejects the await with the run failure', async () => {
    const model = new ScriptedChatModel([new Error('provider down')]);
    await expect(ChatClient.create(model).prompt('Hi').call()).rejects.toThrow('provider down');
  });

  it('offers catch and finally, as a promise does, for code that chains instead of awaiting', async () => {
    const model = new ScriptedChatModel([new Error('provider down'), textResponse('fine')]);
    const client = ChatClient.create(model);
    let settled = 0;
    const caught = await client
      .prompt('Hi')
      .call()
      .catch((error: unknown) => (error as Error).message);
    expect(caught).toBe('provider down');
    const response = await client
      .prompt('Hi again')
      .call()
      .finally(() => {
        settled++;
      });
    expect(response.chatResponse?.results[0]?.output.text).toBe('fine');
    expect(settled).toBe(1);
    expect(model.callCount).toBe(2);
  });

  it('keeps entity() a request of its own', async () => {
    const model = new ScriptedChatModel([textResponse('plain'), textResponse('{"n":1}')]);
    const spec = ChatClient.create(model).prompt('Hi').call();
    await spec;
    expect(await spec.entity(z.object({ n: z.number() }))).toEqual({ n: 1 });
    expect(model.callCount).toBe(2);
  });
});

describe('awaiting .stream()', () => {
  it('consumes the stream and resolves to the aggregate of every round the caller saw', async () => {
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'ping', arguments: '{}' }]),
      textResponse('The answer is pong.'),
    ]);
    const response = await ChatClient.create(model, { tools: [ping] })
      .prompt('Ping?')
      .stream();
    expect(model.callCount).toBe(2);
    const generation = response.chatResponse?.results[0];
    expect(generation?.output.text).toBe('The answer is pong.');
    expect(generation?.output.toolCalls).toEqual([]);
    expect(generation?.metadata.finishReason).toBe('stop');
  });

  it('runs once however often it is awaited; each iteration still runs anew', async () => {
    const model = new ScriptedChatModel([textResponse('one'), textResponse('two')]);
    const spec = ChatClient.create(model).prompt('Hi').stream();
    const first = await spec;
    expect(await spec).toBe(first);
    expect(model.callCount).toBe(1);
    const deltas: string[] = [];
    for await (const delta of spec.content()) deltas.push(delta);
    expect(deltas.join('')).toBe('two');
    expect(model.callCount).toBe(2);
  });

  it('offers catch and finally on the stream too, sharing the one run', async () => {
    const failing = new ScriptedChatModel([new Error('stream broke')]);
    const caught = await ChatClient.create(failing)
      .prompt('Hi')
      .stream()
      .catch((error: unknown) => (error as Error).message);
    expect(caught).toBe('stream broke');
    const model = new ScriptedChatModel([textResponse('once')]);
    const spec = ChatClient.create(model).prompt('Hi').stream();
    let settled = 0;
    const first = await spec.finally(() => {
      settled++;
    });
    expect(await spec).toBe(first);
    expect(settled).toBe(1);
    expect(model.callCount).toBe(1);
  });

  it('rejects the await with the stream failure', async () => {
    const model = new ScriptedChatModel([new Error('stream broke')]);
    await expect(ChatClient.create(model).prompt('Hi').stream()).rejects.toThrow('stream broke');
  });
});
