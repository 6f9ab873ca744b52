import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { ChatModelError, isAbortError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { userMessage } from '../../src/messages/index.js';
import type { ChatModel, ChatResponse, Prompt } from '../../src/model/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import {
  FixtureHttpServer,
  sendBody,
  sendEvents,
  sendJson,
} from './support/fixture-http-server.js';
import { fixtureText } from './support/provider-fixtures.js';

const API_KEY = 'sk-fault-test-SECRET-0123456789abcdef';
const prompt: Prompt = { messages: [userMessage('Hi')], options: {} };

/** A successful answer of each provider, streamed and whole. */
const PROVIDERS = {
  openai: {
    create: (baseUrl: string, options: Record<string, unknown> = {}) =>
      new OpenAiChatModel({
        baseUrl: `${baseUrl}/v1`,
        apiKey: API_KEY,
        retryDelay: { initialMs: 1 },
        ...options,
      }),
    body: {
      id: 'chatcmpl-1',
      model: 'gpt-test',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Hello there' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    },
    events: (texts: string[]) =>
      [
        ...texts.map(
          (text) =>
            `data: ${JSON.stringify({ id: 'c1', model: 'gpt-test', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`,
        ),
        `data: ${JSON.stringify({ id: 'c1', model: 'gpt-test', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
        'data: [DONE]\n\n',
      ].join(''),
    firstEvent: (text: string) =>
      `data: ${JSON.stringify({ id: 'c1', model: 'gpt-test', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`,
  },
  anthropic: {
    create: (baseUrl: string, options: Record<string, unknown> = {}) =>
      new AnthropicChatModel({
        baseUrl,
        apiKey: API_KEY,
        retryDelay: { initialMs: 1 },
        ...options,
      }),
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Hello there' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 3, output_tokens: 2 },
    },
    events: (texts: string[]) =>
      [
        anthropicEvent({
          type: 'message_start',
          message: {
            id: 'msg_1',
            model: 'claude-test',
            usage: { input_tokens: 3, output_tokens: 1 },
          },
        }),
        anthropicEvent({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'text', text: '' },
        }),
        ...texts.map((text) =>
          anthropicEvent({
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text },
          }),
        ),
        anthropicEvent({ type: 'content_block_stop', index: 0 }),
        anthropicEvent({
          type: 'message_delta',
          delta: { stop_reason: 'end_turn' },
          usage: { output_tokens: 2 },
        }),
        anthropicEvent({ type: 'message_stop' }),
      ].join(''),
    firstEvent: (text: string) =>
      anthropicEvent({
        type: 'message_start',
        message: { id: 'msg_1', model: 'claude-test', usage: { input_tokens: 3 } },
      }) +
      anthropicEvent({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      }) +
      anthropicEvent({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      }),
  },
  'openai-responses': {
    create: (baseUrl: string, options: Record<string, unknown> = {}) =>
      new OpenAiResponsesChatModel({
        baseUrl: `${baseUrl}/v1`,
        apiKey: API_KEY,
        retryDelay: { initialMs: 1 },
        ...options,
      }),
    body: {
      id: 'resp_1',
      model: 'gpt-test',
      status: 'completed',
      output: [
        { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text: 'Hello there' }] },
      ],
      usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
    },
    events: (texts: string[]) =>
      [
        responsesStart(),
        ...texts.map((text) => responsesDelta(text)),
        dataEvent({
          type: 'response.output_item.done',
          output_index: 0,
          item: {
            type: 'message',
            id: 'msg_1',
            content: [{ type: 'output_text', text: texts.join('') }],
          },
        }),
        dataEvent({
          type: 'response.completed',
          response: {
            id: 'resp_1',
            status: 'completed',
            usage: { input_tokens: 3, output_tokens: 2 },
          },
        }),
      ].join(''),
    firstEvent: (text: string) => responsesStart() + responsesDelta(text),
  },
  google: {
    create: (baseUrl: string, options: Record<string, unknown> = {}) =>
      new GoogleChatModel({ baseUrl, apiKey: API_KEY, retryDelay: { initialMs: 1 }, ...options }),
    body: {
      candidates: [
        { content: { role: 'model', parts: [{ text: 'Hello there' }] }, finishReason: 'STOP' },
      ],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
      responseId: 'r1',
    },
    events: (texts: string[]) =>
      [
        ...texts.map((text) => googleText(text)),
        dataEvent({
          candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }],
          usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
        }),
      ].join(''),
    firstEvent: (text: string) => googleText(text),
  },
} as const;

/** The path each adapter posts a call to. */
const CALL_PATHS = {
  openai: '/v1/chat/completions',
  anthropic: '/v1/messages',
  'openai-responses': '/v1/responses',
  google: '/v1beta/models/gemini-2.5-flash:generateContent',
} as const;

function dataEvent(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

function responsesStart(): string {
  return (
    dataEvent({ type: 'response.created', response: { id: 'resp_1', model: 'gpt-test' } }) +
    dataEvent({
      type: 'response.output_item.added',
      output_index: 0,
      item: { type: 'message', id: 'msg_1', content: [] },
    })
  );
}

function responsesDelta(text: string): string {
  return dataEvent({ type: 'response.output_text.delta', output_index: 0, delta: text });
}

function googleText(text: string): string {
  return dataEvent({
    candidates: [{ content: { role: 'model', parts: [{ text }] } }],
    responseId: 'r1',
  });
}

function anthropicEvent(payload: { type: string; [key: string]: unknown }): string {
  return `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
}

async function collectTexts(stream: AsyncIterable<ChatResponse>): Promise<string[]> {
  const texts: string[] = [];
  for await (const chunk of stream) {
    const text = chunk.results[0]?.output.text;
    if (text) texts.push(text);
  }
  return texts;
}

async function failure(promise: Promise<unknown>): Promise<ChatModelError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChatModelError);
  const typed = error as ChatModelError;
  expect(typed.message).not.toContain(API_KEY);
  expect(String(typed)).not.toContain(API_KEY);
  return typed;
}

/**
 * Writes `first`, then `prefix`, then `repeat` every `everyMs` until the client goes away: a
 * server that keeps a connection alive with comments, pings or a trickle of bytes.
 */
function keepOpen(first: string, repeat: string, everyMs: number, prefix = '') {
  return (_request: unknown, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(first + prefix);
    const timer = setInterval(() => {
      if (!response.destroyed) response.write(repeat);
    }, everyMs);
    response.on('close', () => clearInterval(timer));
  };
}

/** Writes the events, then keeps the response open until the client goes away. */
function openStream(events: string) {
  return (_request: unknown, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(events);
  };
}

describe.each(['openai', 'anthropic', 'openai-responses', 'google'] as const)(
  '%s adapter under provider faults',
  (name) => {
    const provider = PROVIDERS[name];
    let server: FixtureHttpServer;

    beforeEach(async () => {
      server = new FixtureHttpServer();
      await server.start();
    });
    afterEach(() => server.stop());

    it('retries a 429 after the retry-after delay, then succeeds', async () => {
      server.reply(
        sendJson({ error: { type: 'rate_limit_error', message: 'slow down' } }, 429, {
          'retry-after': '0.3',
        }),
        sendJson(provider.body),
      );
      const model = provider.create(server.baseUrl, { retryDelay: { initialMs: 0 } });
      const started = performance.now();
      const response = await model.call(prompt);
      expect(performance.now() - started).toBeGreaterThanOrEqual(280);
      expect(response.results[0]?.output.text).toBe('Hello there');
      expect(server.requests).toHaveLength(2);
    });

    it('honours retry-after-ms on a streamed request', async () => {
      server.reply(
        sendJson({ error: { message: 'slow down' } }, 429, { 'retry-after-ms': '250' }),
        sendEvents(provider.events(['Hel', 'lo'])),
      );
      const model = provider.create(server.baseUrl, { retryDelay: { initialMs: 0 } });
      const started = performance.now();
      expect(await collectTexts(model.stream!(prompt))).toEqual(['Hel', 'lo']);
      expect(performance.now() - started).toBeGreaterThanOrEqual(230);
      expect(server.requests).toHaveLength(2);
    });

    it('retries a 500, then succeeds', async () => {
      server.reply(sendJson({ error: { message: 'internal' } }, 500), sendJson(provider.body));
      const response = await provider.create(server.baseUrl).call(prompt);
      expect(response.results[0]?.output.text).toBe('Hello there');
      expect(server.requests).toHaveLength(2);
    });

    it('gives up after maxRetries with a retryable typed error', async () => {
      const unavailable = () => sendJson({ error: { message: 'unavailable' } }, 503);
      server.reply(unavailable(), unavailable(), unavailable(), sendJson(provider.body));
      const error = await failure(provider.create(server.baseUrl, { maxRetries: 2 }).call(prompt));
      // The Responses API model is OpenAI's: its errors name that provider.
      const errorProvider = name === 'openai-responses' ? 'openai' : name;
      expect(error).toMatchObject({ provider: errorProvider, status: 503, retryable: true });
      expect(server.requests).toHaveLength(3);
    });

    it('does not retry a 400 and does not retry when x-should-retry says false', async () => {
      server.reply(
        sendJson({ error: { message: 'bad' } }, 400),
        sendJson({ error: { message: 'no' } }, 500, { 'x-should-retry': 'false' }),
      );
      const model = provider.create(server.baseUrl);
      expect(await failure(model.call(prompt))).toMatchObject({ status: 400, retryable: false });
      expect(await failure(model.call(prompt))).toMatchObject({ status: 500, retryable: false });
      expect(server.requests).toHaveLength(2);
    });

    it('turns an HTML error page into a readable error with the status', async () => {
      const page =
        '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502</h1><p>nginx</p></body></html>';
      server.reply(async (_request, response) => {
        response.writeHead(502, { 'content-type': 'text/html' }).end(page);
      });
      const error = await failure(provider.create(server.baseUrl, { maxRetries: 0 }).call(prompt));
      expect(error).toMatchObject({ status: 502, retryable: true });
      expect(error.message).toContain('HTTP 502');
      expect(error.message).toContain('HTML page ("502 Bad Gateway")');
      expect(error.message).not.toContain('<body>');
    });

    it('never puts the API key in an error, even when the provider echoes it', async () => {
      server.reply(
        sendJson(
          {
            error: {
              type: 'authentication_error',
              message: `Incorrect API key provided: ${API_KEY}.`,
            },
          },
          401,
        ),
      );
      const error = await failure(provider.create(server.baseUrl).call(prompt));
      expect(error).toMatchObject({ status: 401, retryable: false });
      expect(error.message).toContain('[redacted]');
    });

    it('refuses a redirect: the credentials never reach the other address', async () => {
      const target = new FixtureHttpServer();
      await target.start();
      try {
        target.reply(sendJson(provider.body));
        server.reply(async (_request, response) => {
          response.writeHead(307, { location: `${target.baseUrl}/latest/meta-data` }).end();
        });
        const error = await failure(provider.create(server.baseUrl).call(prompt));
        expect(error).toMatchObject({ status: 307, retryable: false });
        expect(target.requests).toHaveLength(0);
      } finally {
        await target.stop();
      }
    });

    it('caps a 100 MB body without buffering it (served as a slow stream)', async () => {
      let written = 0;
      server.reply(async (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        const megabyte = Buffer.alloc(1024 * 1024, 0x20);
        response.write('{"padding":"');
        while (written < 100 * 1024 * 1024 && !response.destroyed) {
          if (!response.write(megabyte)) {
            await new Promise((resolve) => {
              response.once('drain', resolve);
              response.once('close', resolve);
            });
          }
          written += megabyte.length;
        }
        response.end('"}');
      });
      const error = await failure(
        provider.create(server.baseUrl, { maxResponseBytes: 2 * 1024 * 1024 }).call(prompt),
      );
      expect(error.message).toContain('exceeds the 2097152 byte limit');
      expect(error.retryable).toBe(false);
      await server.requests[0]?.closed;
      expect(server.requests[0]?.closedEarly).toBe(true);
      expect(written).toBeLessThan(100 * 1024 * 1024);
      expect(server.requests).toHaveLength(1);
    });

    it('caps a stream that never ends its event', async () => {
      server.reply(async (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: "');
        const chunk = 'x'.repeat(64 * 1024);
        while (!response.destroyed) {
          if (!response.write(chunk)) await new Promise((resolve) => setTimeout(resolve, 1));
        }
      });
      const error = await failure(
        collectTexts(
          provider.create(server.baseUrl, { maxResponseBytes: 1024 * 1024 }).stream!(prompt),
        ),
      );
      expect(error.message).toMatch(/limit/);
      await server.requests[0]?.closed;
      expect(server.requests[0]?.closedEarly).toBe(true);
    });

    it('a connection reset after the first chunk ends the stream with a retryable error, nothing duplicated', async () => {
      server.reply(
        async (request, response) => {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write(provider.firstEvent('Hel'));
          await new Promise((resolve) => setTimeout(resolve, 50));
          request.socket.destroy();
        },
        sendEvents(provider.events(['Hel', 'lo'])),
      );
      const texts: string[] = [];
      const error = await failure(
        (async () => {
          for await (const chunk of provider.create(server.baseUrl).stream!(prompt)) {
            const text = chunk.results[0]?.output.text;
            if (text) texts.push(text);
          }
        })(),
      );
      expect(error.retryable).toBe(true);
      expect(texts).toEqual(['Hel']);
      expect(server.requests).toHaveLength(1);
    });

    it('a connection reset before anything was yielded is retried', async () => {
      server.reply(
        async (request) => {
          request.socket.destroy();
        },
        sendEvents(provider.events(['Hel', 'lo'])),
      );
      expect(await collectTexts(provider.create(server.baseUrl).stream!(prompt))).toEqual([
        'Hel',
        'lo',
      ]);
      expect(server.requests).toHaveLength(2);
    });

    it('a stream that stops before the response finished is an error, not a short answer', async () => {
      server.reply(async (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(provider.firstEvent('Hel'));
      });
      const error = await failure(
        collectTexts(provider.create(server.baseUrl, { maxRetries: 0 }).stream!(prompt)),
      );
      expect(error.message).toMatch(/ended before/);
    });

    it('an abort after the first chunk closes the HTTP request and yields nothing more', async () => {
      server.reply(openStream(provider.firstEvent('Hel')));
      const controller = new AbortController();
      const texts: string[] = [];
      let caught: unknown;
      try {
        for await (const chunk of provider.create(server.baseUrl).stream!(prompt, {
          signal: controller.signal,
        })) {
          texts.push(chunk.results[0]?.output.text ?? '');
          controller.abort();
        }
      } catch (error) {
        caught = error;
      }
      expect(isAbortError(caught)).toBe(true);
      expect(texts).toEqual(['Hel']);
      await server.requests[0]?.closed;
      expect(server.requests[0]?.closedEarly).toBe(true);
      expect(server.requests).toHaveLength(1);
    });

    it('a consumer that stops reading early releases the connection', async () => {
      server.reply(openStream(provider.firstEvent('Hel')));
      for await (const _chunk of provider.create(server.baseUrl).stream!(prompt)) break;
      await server.requests[0]?.closed;
      expect(server.requests[0]?.closedEarly).toBe(true);
    });

    it('an aborted call() rejects with an AbortError and closes the request', async () => {
      const controller = new AbortController();
      // Aborted once the server holds the request, not after a fixed delay: on a loaded machine a
      // timer could fire before the request arrived, and there would be no request to see closed.
      server.reply(async (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"id":');
        setTimeout(() => controller.abort(), 20);
      });
      const pending = provider.create(server.baseUrl).call(prompt, { signal: controller.signal });
      const caught = await pending.catch((error: unknown) => error);
      expect(isAbortError(caught)).toBe(true);
      await server.requests[0]?.closed;
      expect(server.requests[0]?.closedEarly).toBe(true);
    });

    it('an abort during the retry wait rejects with an AbortError and sends nothing more', async () => {
      server.reply(
        sendJson({ error: { message: 'slow down' } }, 429, { 'retry-after': '5' }),
        sendJson(provider.body),
      );
      const controller = new AbortController();
      const pending = provider.create(server.baseUrl).call(prompt, { signal: controller.signal });
      setTimeout(() => controller.abort(), 100);
      const caught = await pending.catch((error: unknown) => error);
      expect(isAbortError(caught)).toBe(true);
      expect(server.requests).toHaveLength(1);
    });

    it('times out a server that never answers', async () => {
      server.reply(() => undefined);
      const error = await failure(
        provider.create(server.baseUrl, { timeoutMs: 200, maxRetries: 0 }).call(prompt),
      );
      expect(error.retryable).toBe(true);
      expect(error.message).toContain('timed out after 200 ms');
    });

    it('a stream kept open by ": ping" comments ends at the call deadline (comments are not progress)', async () => {
      server.reply(keepOpen(provider.firstEvent('Hel'), ': ping\n\n', 50));
      const started = performance.now();
      const texts: string[] = [];
      const error = await failure(
        (async () => {
          for await (const chunk of provider.create(server.baseUrl, { timeoutMs: 800 }).stream!(
            prompt,
          )) {
            texts.push(chunk.results[0]?.output.text ?? '');
          }
        })(),
      );
      expect(error.message).toContain('timed out after 800 ms');
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(texts).toEqual(['Hel']);
      await server.requests[0]?.closed;
      expect(server.requests[0]?.closedEarly).toBe(true);
    });

    it('a stream that trickles bytes of an event it never finishes stalls at the idle limit', async () => {
      server.reply(keepOpen(provider.firstEvent('Hel'), 'x', 50, 'data: {"type":"'));
      const started = performance.now();
      const error = await failure(
        collectTexts(provider.create(server.baseUrl, { idleTimeoutMs: 500 }).stream!(prompt)),
      );
      expect(error.message).toContain('stalled: no data for 500 ms');
      expect(error.retryable).toBe(true);
      expect(performance.now() - started).toBeLessThan(3_000);
      // Something was yielded before the stall, so nothing is retried (no duplicated output).
      expect(server.requests).toHaveLength(1);
    });

    it('a silent stream is retried after the idle limit, within the call deadline', async () => {
      server.reply(keepOpen('', ': ping\n\n', 50), sendEvents(provider.events(['Hi'])));
      const model = provider.create(server.baseUrl, {
        idleTimeoutMs: 300,
        retryDelay: { initialMs: 1 },
      });
      expect(await collectTexts(model.stream!(prompt))).toEqual(['Hi']);
      expect(server.requests).toHaveLength(2);
    });

    it('data events keep a slow but live stream going past the idle limit', async () => {
      server.reply(async (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const events = provider.events(['a', 'b', 'c', 'd', 'e', 'f']).split(/(?<=\n\n)/);
        for (const event of events) {
          response.write(event);
          await new Promise((resolve) => setTimeout(resolve, 60));
        }
        response.end();
      });
      const model = provider.create(server.baseUrl, { idleTimeoutMs: 250 });
      expect(await collectTexts(model.stream!(prompt))).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    });

    it('a JSON body trickled after its headers stalls at the idle limit; a stream whose headers never come too', async () => {
      server.reply(keepOpen('', ' ', 50, '{"id":'), () => undefined);
      const model = provider.create(server.baseUrl, { idleTimeoutMs: 300, maxRetries: 0 });
      const body = await failure(model.call(prompt));
      expect(body.message).toContain(
        'response body stalled: not complete 300 ms after its headers',
      );
      const headers = await failure(collectTexts(model.stream!(prompt)));
      expect(headers.message).toContain('request stalled: no answer for 300 ms');
    });

    it('the call deadline bounds the whole retry sequence', async () => {
      const silent = () => () => undefined;
      server.reply(...Array.from({ length: 20 }, silent));
      const started = performance.now();
      const error = await failure(
        provider
          .create(server.baseUrl, {
            timeoutMs: 1_000,
            attemptTimeoutMs: 250,
            maxRetries: 19,
            retryDelay: { initialMs: 1 },
          })
          .call(prompt),
      );
      const elapsed = performance.now() - started;
      expect(error.message).toMatch(/timed out/);
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(3_000);
      // Attempts of 250 ms each, until the 1 s deadline: about 4, never all 20.
      expect(server.requests.length).toBeGreaterThanOrEqual(3);
      expect(server.requests.length).toBeLessThanOrEqual(5);
    });

    it('does not wait for a retry-after that ends past the call deadline', async () => {
      server.reply(
        sendJson({ error: { message: 'slow down' } }, 429, { 'retry-after': '30' }),
        sendJson(provider.body),
      );
      const started = performance.now();
      const error = await failure(
        provider.create(server.baseUrl, { timeoutMs: 2_000 }).call(prompt),
      );
      expect(error.status).toBe(429);
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(server.requests).toHaveLength(1);
    });

    it('refuses limits that are not positive numbers', () => {
      for (const limit of [0, -1, Number.NaN]) {
        expect(() => provider.create('http://127.0.0.1:9', { timeoutMs: limit })).toThrow(
          'timeoutMs must be',
        );
        expect(() => provider.create('http://127.0.0.1:9', { idleTimeoutMs: limit })).toThrow(
          'idleTimeoutMs must be',
        );
      }
    });

    it('uses the fetch implementation it is given', async () => {
      server.reply(sendJson(provider.body));
      const seen: string[] = [];
      const model: ChatModel = provider.create(server.baseUrl, {
        fetch: (input: string, init: RequestInit) => {
          seen.push(`${init.method} ${input}`);
          return fetch(input, init);
        },
      });
      await model.call(prompt);
      expect(seen).toEqual([`POST ${server.baseUrl}${CALL_PATHS[name]}`]);
    });
  },
);

describe.each(['openai', 'anthropic', 'openai-responses', 'google'] as const)(
  '%s adapter on invalid UTF-8',
  (name) => {
    const provider = PROVIDERS[name];
    let server: FixtureHttpServer;
    beforeEach(async () => {
      server = new FixtureHttpServer();
      await server.start();
    });
    afterEach(() => server.stop());

    /** The text with the bytes 0xFF 0xFE (never valid UTF-8) where it says `@@`. */
    const withInvalidBytes = (text: string) =>
      Buffer.concat(
        text
          .split('@@')
          .flatMap((piece, index) => [
            ...(index === 0 ? [] : [Buffer.from([0xff, 0xfe])]),
            Buffer.from(piece),
          ]),
      );

    it('in the text of a stream: the bad bytes become U+FFFD, the rest reads as sent', async () => {
      server.reply(sendEvents(withInvalidBytes(provider.events(['Hel@@', 'lo']))));
      expect((await collectTexts(provider.create(server.baseUrl).stream!(prompt))).join('')).toBe(
        'Hel\uFFFD\uFFFDlo',
      );
    });

    it('in the structure of a stream event or a body: a typed error, never retried', async () => {
      server.reply(
        sendEvents(withInvalidBytes(provider.firstEvent('Hel').replace('{', '{@@'))),
        sendBody(withInvalidBytes(JSON.stringify(provider.body).replace('{', '{@@')), {
          headers: { 'content-type': 'application/json' },
        }),
      );
      const model = provider.create(server.baseUrl);
      const streamed = await failure(collectTexts(model.stream!(prompt)));
      expect(streamed.message).toContain('malformed');
      const whole = await failure(model.call(prompt));
      expect(whole.message).toMatch(/malformed|not JSON/);
      expect(server.requests).toHaveLength(2);
    });
  },
);

describe('Gemini-specific faults', () => {
  let server: FixtureHttpServer;
  beforeEach(async () => {
    server = new FixtureHttpServer();
    await server.start();
  });
  afterEach(() => server.stop());

  it('retries a 429 after the RetryInfo delay of its body (the recorded body, its 34.4s made 0.3s)', async () => {
    const body = fixtureText('google-gemini/google-429-retry-info.json').replace(
      '"34.4s"',
      '"0.3s"',
    );
    const gemini = PROVIDERS.google;
    server.reply(sendJson(body, 429), sendJson(gemini.body));
    const started = performance.now();
    const response = await gemini
      .create(server.baseUrl, { retryDelay: { initialMs: 0 } })
      .call(prompt);
    expect(performance.now() - started).toBeGreaterThanOrEqual(280);
    expect(response.results[0]?.output.text).toBe('Hello there');
    expect(server.requests).toHaveLength(2);
  });

  it('names the status of the error body: RESOURCE_EXHAUSTED', async () => {
    server.reply(sendJson(fixtureText('google-gemini/google-429-retry-info.json'), 429));
    const error = await failure(
      PROVIDERS.google.create(server.baseUrl, { maxRetries: 0 }).call(prompt),
    );
    expect(error).toMatchObject({ status: 429, retryable: true });
    expect(error.message).toContain('RESOURCE_EXHAUSTED: You exceeded your current quota');
  });
});

describe('Responses-specific faults', () => {
  let server: FixtureHttpServer;
  beforeEach(async () => {
    server = new FixtureHttpServer();
    await server.start();
  });
  afterEach(() => server.stop());

  it('keepalive events are not progress: a stream of keepalives stalls at the idle limit', async () => {
    const responses = PROVIDERS['openai-responses'];
    server.reply(keepOpen(responses.firstEvent('Hel'), dataEvent({ type: 'keepalive' }), 50));
    const error = await failure(
      collectTexts(responses.create(server.baseUrl, { idleTimeoutMs: 400 }).stream!(prompt)),
    );
    expect(error.message).toContain('stalled: no data for 400 ms');
  });

  it('a failed response after the first chunk ends the stream with its error, not retried', async () => {
    const responses = PROVIDERS['openai-responses'];
    server.reply(
      sendEvents(
        responses.firstEvent('Hel') +
          dataEvent({
            type: 'response.failed',
            response: {
              id: 'resp_1',
              status: 'failed',
              error: { code: 'server_error', message: 'boom' },
            },
          }),
      ),
    );
    const error = await failure(collectTexts(responses.create(server.baseUrl).stream!(prompt)));
    expect(error).toMatchObject({ retryable: true });
    expect(error.message).toContain('server_error: boom');
    expect(server.requests).toHaveLength(1);
  });
});

describe('Anthropic-specific faults', () => {
  let server: FixtureHttpServer;
  beforeEach(async () => {
    server = new FixtureHttpServer();
    await server.start();
  });
  afterEach(() => server.stop());

  it('retries 529 overloaded, then succeeds', async () => {
    server.reply(
      sendJson({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 529),
      sendJson(PROVIDERS.anthropic.body),
    );
    const response = await PROVIDERS.anthropic.create(server.baseUrl).call(prompt);
    expect(response.results[0]?.output.text).toBe('Hello there');
    expect(server.requests).toHaveLength(2);
  });

  it('retries an overloaded error event that arrives before any output', async () => {
    server.reply(
      sendEvents(
        anthropicEvent({
          type: 'error',
          error: { type: 'overloaded_error', message: 'Overloaded' },
        }),
      ),
      sendEvents(PROVIDERS.anthropic.events(['Hi'])),
    );
    expect(await collectTexts(PROVIDERS.anthropic.create(server.baseUrl).stream(prompt))).toEqual([
      'Hi',
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('an error event mid-stream ends it with a typed error and no retry', async () => {
    server.reply(
      sendEvents(
        PROVIDERS.anthropic.firstEvent('Hel') +
          anthropicEvent({
            type: 'error',
            error: { type: 'overloaded_error', message: 'Overloaded' },
          }),
      ),
    );
    const texts: string[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of PROVIDERS.anthropic.create(server.baseUrl).stream(prompt)) {
          texts.push(chunk.results[0]?.output.text ?? '');
        }
      })(),
    );
    expect(error).toMatchObject({ status: 529, retryable: true });
    expect(error.message).toContain('overloaded_error');
    expect(texts).toEqual(['Hel']);
    expect(server.requests).toHaveLength(1);
  });

  it('ping events are keep-alives, not progress: a stream of pings stalls at the idle limit', async () => {
    server.reply(
      keepOpen(PROVIDERS.anthropic.firstEvent('Hel'), anthropicEvent({ type: 'ping' }), 50),
    );
    const error = await failure(
      collectTexts(
        PROVIDERS.anthropic.create(server.baseUrl, { idleTimeoutMs: 400 }).stream(prompt),
      ),
    );
    expect(error.message).toContain('stalled: no data for 400 ms');
  });
});
