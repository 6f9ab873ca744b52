import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelError, IllegalStateError } from '../errors/index.js';
import { parseServerSentEvents, type ServerSentEvent } from '../internal/server-sent-events.js';
import type { ChatResponse } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import { ChatClient } from './chat-client.js';
import { toServerSentEventsResponse } from './server-sent-events.js';

async function readEvents(response: Response): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  if (!response.body) throw new Error('no body');
  for await (const event of parseServerSentEvents(
    response.body as unknown as AsyncIterable<Uint8Array>,
  ))
    events.push(event);
  return events;
}

async function* items<T>(...values: T[]): AsyncIterable<T> {
  for (const value of values) yield value;
}

describe('toServerSentEventsResponse', () => {
  it('sends each text delta as a JSON data event and ends with a done event', async () => {
    const response = toServerSentEventsResponse(items('Hel', 'lo\n', '"world"'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('no-cache');
    const events = await readEvents(response);
    expect(events.slice(0, 3).map((event) => JSON.parse(event.data))).toEqual([
      'Hel',
      'lo\n',
      '"world"',
    ]);
    expect(events.slice(0, 3).every((event) => event.event === undefined)).toBe(true);
    expect(events[3]).toMatchObject({ event: 'done', data: '[DONE]' });
    expect(events).toHaveLength(4);
  });

  it('forwards the tool-call-delta events of a turn as data frames', async () => {
    const model = new ScriptedChatModel(
      [
        toolCallResponse([{ id: 'c1', name: 'lookup', arguments: { q: 'toolloop' } }]),
        textResponse('Found it.'),
      ],
      { argumentChunks: 2 },
    );
    const lookup = tool({
      name: 'lookup',
      inputSchema: z.object({ q: z.string() }),
      execute: ({ q }) => `result for ${q}`,
    });
    const events = await readEvents(
      toServerSentEventsResponse(
        ChatClient.create(model).prompt('Look it up').tools(lookup).stream().events(),
      ),
    );
    const deltas = events
      .filter((event) => event.event === undefined)
      .map((event) => JSON.parse(event.data) as Record<string, unknown>)
      .filter((frame) => frame.type === 'tool-call-delta');
    expect(deltas.map((frame) => frame.argumentsDelta).join('')).toBe('{"q":"toolloop"}');
    expect(deltas[0]).toMatchObject({ toolCallId: 'c1', toolName: 'lookup', iteration: 1 });
  });

  it('round-trips ChatResponse chunks and honours status and headers', async () => {
    const chunks: ChatResponse[] = [textResponse('a'), textResponse('b', { id: 'x' })];
    const response = toServerSentEventsResponse(items(...chunks), {
      status: 201,
      headers: { 'x-request-id': 'r-1' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('r-1');
    const events = await readEvents(response);
    expect(events.slice(0, 2).map((event) => JSON.parse(event.data))).toEqual(chunks);
  });

  it('reports a failure as an error event, with the message only for toolloop errors', async () => {
    async function* failing(error: Error): AsyncIterable<string> {
      yield 'partial';
      throw error;
    }
    const own = await readEvents(
      toServerSentEventsResponse(failing(new IllegalStateError('No CallAdvisors'))),
    );
    expect(JSON.parse(own[0]?.data ?? '')).toBe('partial');
    expect(own[1]?.event).toBe('error');
    expect(JSON.parse(own[1]?.data ?? '')).toEqual({
      code: 'ILLEGAL_STATE',
      message: 'No CallAdvisors',
    });
    const foreign = await readEvents(
      toServerSentEventsResponse(failing(new Error('secret api key sk-123 rejected'))),
    );
    expect(foreign[1]?.data).not.toContain('sk-123');
    expect(JSON.parse(foreign[1]?.data ?? '')).toEqual({
      code: 'STREAM_FAILED',
      message: 'The stream failed',
    });
    const provider = await readEvents(
      toServerSentEventsResponse(
        failing(
          new ChatModelError({
            provider: 'openai',
            message: 'openai request failed with HTTP 401: account acme-prod at db-7.internal',
            status: 401,
            retryable: false,
          }),
        ),
      ),
    );
    expect(JSON.parse(provider[1]?.data ?? '')).toEqual({
      code: 'CHAT_MODEL_FAILED',
      message: 'The model provider failed',
    });
  });

  it('stops the iteration and aborts the controller when the body is cancelled', async () => {
    let finished = false;
    let produced = 0;
    async function* endless(): AsyncIterable<string> {
      try {
        for (;;) {
          produced++;
          yield `chunk ${produced}`;
        }
      } finally {
        finished = true;
      }
    }
    const abortController = new AbortController();
    const response = toServerSentEventsResponse(endless(), { abortController });
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: "chunk 1"\n\n');
    await reader.cancel('client went away');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(abortController.signal.aborted).toBe(true);
    expect(finished).toBe(true);
    expect(produced).toBeLessThan(5);
  });

  it('cancelling the body of a ChatClient stream aborts the running tool through the shared controller', async () => {
    let toolStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      toolStarted = resolve;
    });
    let toolSawAbort = false;
    const slow = tool({
      name: 'slow_lookup',
      description: 'A lookup that takes long',
      inputSchema: z.object({}),
      execute: (_input, context) =>
        new Promise((_resolve, reject) => {
          toolStarted();
          context.signal?.addEventListener('abort', () => {
            toolSawAbort = true;
            reject(context.signal?.reason);
          });
        }),
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'slow_lookup' }], { text: 'One moment. ' }),
      textResponse('never requested'),
    ]);
    const abortController = new AbortController();
    const stream = ChatClient.create(model, { tools: [slow] })
      .prompt('Look it up')
      .stream({ signal: abortController.signal })
      .content();
    const response = toServerSentEventsResponse(stream, { abortController });
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    const received: string[] = [];
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received.push(new TextDecoder().decode(value));
      }
    })();
    await started;
    await reader.cancel();
    await reading;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.join('')).toBe('data: "One "\n\ndata: "mome"\n\ndata: "nt. "\n\n');
    expect(toolSawAbort).toBe(true);
    expect(model.callCount).toBe(1);
    expect(model.remaining).toBe(1);
  });
  it('cancelling the body stops the turn even without a shared controller: the tool sees the abort, no further model call', async () => {
    let toolStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      toolStarted = resolve;
    });
    let toolSawAbort = false;
    const slow = tool({
      name: 'slow_lookup',
      description: 'A lookup that takes a while unless aborted',
      inputSchema: z.object({}),
      execute: (_input, context) =>
        new Promise((resolve, reject) => {
          toolStarted();
          const timer = setTimeout(() => resolve('found it'), 150);
          context.signal?.addEventListener('abort', () => {
            toolSawAbort = true;
            clearTimeout(timer);
            reject(context.signal?.reason);
          });
        }),
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'slow_lookup' }], { text: 'One moment. ' }),
      textResponse('a second, paid model call'),
    ]);
    const stream = ChatClient.create(model, { tools: [slow] })
      .prompt('Look it up')
      .stream()
      .content();
    const reader = toServerSentEventsResponse(stream).body?.getReader();
    if (!reader) throw new Error('no body');
    const reading = (async () => {
      for (;;) if ((await reader.read()).done) return;
    })();
    await started;
    await reader.cancel();
    await reading;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(toolSawAbort).toBe(true);
    expect(model.callCount).toBe(1);
  });
});
