import {
  createServer,
  get,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatModelError } from '../errors/index.js';
import { parseServerSentEvents, type ServerSentEvent } from '../internal/server-sent-events.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import { ChatClient } from './chat-client.js';
import { pipeServerSentEvents } from './pipe-server-sent-events.js';
import { toServerSentEventsResponse } from './server-sent-events.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: (res: ServerResponse) => void | Promise<void>): Promise<string> {
  const server = createServer((_req, res) => void handler(res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function request(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, resolve).on('error', reject));
}

async function readAll(response: IncomingMessage): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of parseServerSentEvents(response as AsyncIterable<Uint8Array>))
    events.push(event);
  return events;
}

/** Reads until the first data frame arrives, then disconnects like a closed browser tab. */
async function readFirstFrameThenLeave(response: IncomingMessage): Promise<string> {
  const first = await new Promise<string>((resolve) =>
    response.once('data', (chunk) => resolve(String(chunk))),
  );
  response.destroy();
  return first;
}

/** A tool that runs for a long time unless its signal aborts, recording what it saw. */
function slowTool() {
  const seen = { started: false, aborted: false, finished: false };
  let onStart: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    onStart = resolve;
  });
  const lookup = tool({
    name: 'slow_lookup',
    description: 'Looks something up, slowly',
    inputSchema: z.object({}),
    execute: (_input, context) =>
      new Promise((resolve, reject) => {
        seen.started = true;
        onStart();
        const timer = setTimeout(() => {
          seen.finished = true;
          resolve('found it');
        }, 1_000);
        context.signal?.addEventListener('abort', () => {
          seen.aborted = true;
          clearTimeout(timer);
          reject(context.signal?.reason);
        });
      }),
  });
  return { lookup, seen, started };
}

/** A model whose first call streams a tool call after a pause, and whose second call is paid. */
function slowModel() {
  return new ScriptedChatModel([
    async (_prompt, { signal }) => {
      await delay(30, undefined, { signal });
      return toolCallResponse([{ name: 'slow_lookup' }], { text: 'Let me look. ' });
    },
    textResponse('a second, paid model call'),
  ]);
}

describe('pipeServerSentEvents', () => {
  it('streams a turn as data frames and ends with the done frame', async () => {
    const model = new ScriptedChatModel([textResponse('Hello there')]);
    let piped: Promise<void> = Promise.resolve();
    const url = await serve((res) => {
      piped = pipeServerSentEvents(ChatClient.create(model).prompt('hi').stream(), res, {
        headers: { 'x-request-id': 'r-7' },
      });
    });
    const response = await request(url);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['x-request-id']).toBe('r-7');
    const events = await readAll(response);
    await piped;
    expect(
      events
        .filter((event) => event.event === undefined)
        .map((event) => JSON.parse(event.data))
        .join(''),
    ).toBe('Hello there');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: '[DONE]' });
  });

  it('forwards the tool-call-delta events of spec.events() as data frames, in order', async () => {
    const weather = tool({
      name: 'weather',
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => `Sunny in ${city}`,
    });
    const model = new ScriptedChatModel(
      [
        toolCallResponse([{ id: 'c1', name: 'weather', arguments: { city: 'Oslo' } }]),
        textResponse('Sunny.'),
      ],
      { argumentChunks: 3 },
    );
    let piped: Promise<void> = Promise.resolve();
    const url = await serve((res) => {
      piped = pipeServerSentEvents(
        ChatClient.create(model).prompt('Weather?').tools(weather).stream().events(),
        res,
      );
    });
    const frames = (await readAll(await request(url)))
      .filter((event) => event.event === undefined)
      .map((event) => JSON.parse(event.data) as { type: string; [key: string]: unknown });
    await piped;
    const deltas = frames.filter((frame) => frame.type === 'tool-call-delta');
    expect(deltas.map((frame) => [frame.toolCallId, frame.toolName, frame.argumentsDelta])).toEqual(
      [
        ['c1', 'weather', '{"cit'],
        ['c1', undefined, 'y":"O'],
        ['c1', undefined, 'slo"}'],
      ],
    );
    const callAt = frames.findIndex((frame) => frame.type === 'tool-call');
    expect(frames.indexOf(deltas.at(-1) as (typeof frames)[number])).toBeLessThan(callAt);
  });

  it('a client that disconnects mid-turn aborts the running tool, and no further model call happens', async () => {
    const model = slowModel();
    const { lookup, seen, started } = slowTool();
    const controller = new AbortController();
    let piped: Promise<void> = Promise.resolve();
    const url = await serve((res) => {
      const stream = ChatClient.create(model, { tools: [lookup] })
        .prompt('look it up')
        .stream();
      piped = pipeServerSentEvents(stream, res, { abortController: controller });
    });
    const response = await request(url);
    const first = await readFirstFrameThenLeave(response);
    expect(first).toContain('data: ');
    await started;
    await piped;
    await delay(1_200);
    expect(seen.aborted).toBe(true);
    expect(seen.finished).toBe(false);
    expect(controller.signal.aborted).toBe(true);
    expect(model.callCount).toBe(1);
  });

  it('a client that disconnects during a slow model call stops that call', async () => {
    let modelSawAbort = false;
    let callStarted: () => void = () => {};
    const calling = new Promise<void>((resolve) => {
      callStarted = resolve;
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'quick' }], { text: 'Checking. ' }),
      async (_prompt, { signal }) => {
        callStarted();
        try {
          await delay(2_000, undefined, { signal });
        } catch (error) {
          modelSawAbort = true;
          throw error;
        }
        return textResponse('too late');
      },
      textResponse('a third call'),
    ]);
    const quick = tool({
      name: 'quick',
      description: 'Quick',
      inputSchema: z.object({}),
      execute: () => 'ok',
    });
    let piped: Promise<void> = Promise.resolve();
    const url = await serve((res) => {
      piped = pipeServerSentEvents(
        ChatClient.create(model, { tools: [quick] })
          .prompt('go')
          .stream(),
        res,
      );
    });
    const response = await request(url);
    await new Promise((resolve) => response.once('data', resolve));
    await calling;
    response.destroy();
    await piped;
    await delay(50);
    expect(modelSawAbort).toBe(true);
    expect(model.callCount).toBe(2);
  });

  it('sends a provider failure as an error frame without the provider words', async () => {
    const model = new ScriptedChatModel([
      new ChatModelError({
        provider: 'openai',
        message: 'HTTP 500 at db-7.internal',
        status: 500,
        retryable: false,
      }),
    ]);
    const url = await serve((res) =>
      pipeServerSentEvents(ChatClient.create(model).prompt('hi').stream(), res),
    );
    const events = await readAll(await request(url));
    expect(events.at(-1)?.event).toBe('error');
    expect(JSON.parse(events.at(-1)?.data ?? '')).toEqual({
      code: 'CHAT_MODEL_FAILED',
      message: 'The model provider failed',
    });
    expect(JSON.stringify(events)).not.toContain('db-7');
  });

  it('writes any async iterable of items, waiting for the client to drain', async () => {
    const big = 'x'.repeat(64 * 1024);
    async function* many() {
      for (let i = 0; i < 64; i++) yield `${i}:${big}`;
    }
    const url = await serve((res) => pipeServerSentEvents(many(), res));
    const events = await readAll(await request(url));
    expect(events.filter((event) => event.event === undefined)).toHaveLength(64);
    expect(events.at(-1)?.event).toBe('done');
  });
});

describe('the web Response helper on node:http', () => {
  it('stream.pipeline(Readable.fromWeb(body), res) stops the turn when the client leaves', async () => {
    const model = slowModel();
    const { lookup, seen, started } = slowTool();
    const url = await serve((res) => {
      const stream = ChatClient.create(model, { tools: [lookup] })
        .prompt('look it up')
        .stream()
        .content();
      const body = toServerSentEventsResponse(stream).body;
      if (!body) throw new Error('no body');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      pipeline(Readable.fromWeb(body as never), res, () => {});
    });
    const response = await request(url);
    await readFirstFrameThenLeave(response);
    await started;
    await delay(1_200);
    expect(seen.aborted).toBe(true);
    expect(model.callCount).toBe(1);
  });
});
