import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { ChatClient, toServerSentEventsResponse } from '../../src/client/index.js';
import { ChatModelError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { parseServerSentEvents } from '../../src/internal/server-sent-events.js';
import { userMessage } from '../../src/messages/index.js';
import type { ChatModel, ChatResponse, Prompt } from '../../src/model/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { FixtureHttpServer, sendEvents, sendJson } from './support/fixture-http-server.js';

// Every way a provider (or a proxy in front of it) can hand a credential back to the client:
// HTTP error bodies, error objects inside a 200 body, error events inside a stream, status
// texts, and echoes of whatever request headers it received. Each error the adapters build
// must be free of every fragment of every credential, and the browser-facing SSE helper must
// not forward the provider's text at all.

const KEY = 'sk-SENTINEL-7f3a9c2e4b1d8f6a0c5e3b7d9a1f4c8e';
const HEADER_SECRETS = {
  azure: 'AZURE-SENTINEL-4b8e1c7a9d2f6e0b3a5c',
  bearer: 'BEARER-SENTINEL-9c2f7e1a4d8b6c0e3f5a',
  anthropic: 'sk-ant-HEADER-SENTINEL-2e6a9c1f4b7d0e3a',
  custom: 'CUSTOM-SENTINEL-6d1b8f3e0a9c4e7b2d5f',
};
const FRAGMENT = 8;
const prompt: Prompt = { messages: [userMessage('Hi')], options: {} };

/** Counts every error text the suite inspected, and every leaked fragment found in them. */
const tally = { errorsChecked: 0, keysLeaked: 0 };

/** Fails when any `FRAGMENT`-character piece of any secret appears in `text`. */
function expectNoFragment(text: string, secrets: readonly string[]): void {
  tally.errorsChecked++;
  for (const secret of secrets) {
    for (let start = 0; start + FRAGMENT <= secret.length; start++) {
      const fragment = secret.slice(start, start + FRAGMENT);
      if (text.includes(fragment)) {
        tally.keysLeaked++;
        expect.fail(`"${fragment}" of a secret leaked into: ${text}`);
      }
    }
  }
}

async function providerError(promise: Promise<unknown>): Promise<ChatModelError> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(ChatModelError);
  return caught as ChatModelError;
}

async function drain(stream: AsyncIterable<ChatResponse>): Promise<void> {
  for await (const _chunk of stream);
}

function anthropicEvent(payload: { type: string; [key: string]: unknown }): string {
  return `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
}

const ADAPTERS = {
  openai: {
    create: (baseUrl: string, options: Record<string, unknown> = {}) =>
      new OpenAiChatModel({
        baseUrl: `${baseUrl}/v1`,
        apiKey: KEY,
        maxRetries: 0,
        ...options,
      }),
    errorBody: (message: string) => ({ error: { type: 'invalid_request_error', message } }),
    errorEvent: (message: string) =>
      `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: { content: 'Hi' } }] })}\n\n` +
      `data: ${JSON.stringify({ error: { type: 'invalid_request_error', message } })}\n\n`,
  },
  anthropic: {
    create: (baseUrl: string, options: Record<string, unknown> = {}) =>
      new AnthropicChatModel({ baseUrl, apiKey: KEY, maxRetries: 0, ...options }),
    errorBody: (message: string) => ({
      type: 'error',
      error: { type: 'invalid_request_error', message },
    }),
    errorEvent: (message: string) =>
      anthropicEvent({ type: 'message_start', message: { id: 'm1', usage: {} } }) +
      anthropicEvent({ type: 'error', error: { type: 'invalid_request_error', message } }),
  },
  'openai-responses': {
    create: (baseUrl: string, options: Record<string, unknown> = {}) =>
      new OpenAiResponsesChatModel({
        baseUrl: `${baseUrl}/v1`,
        apiKey: KEY,
        maxRetries: 0,
        ...options,
      }),
    errorBody: (message: string) => ({ error: { type: 'invalid_request_error', message } }),
    errorEvent: (message: string) =>
      `data: ${JSON.stringify({ type: 'response.created', response: { id: 'r1' } })}\n\n` +
      `data: ${JSON.stringify({ type: 'response.output_text.delta', output_index: 0, delta: 'Hi' })}\n\n` +
      `data: ${JSON.stringify({ type: 'error', code: 'invalid_request_error', message })}\n\n`,
  },
  google: {
    create: (baseUrl: string, options: Record<string, unknown> = {}) =>
      new GoogleChatModel({ baseUrl, apiKey: KEY, maxRetries: 0, ...options }),
    errorBody: (message: string) => ({
      error: { code: 400, status: 'INVALID_ARGUMENT', message },
    }),
    errorEvent: (message: string) =>
      `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] })}\n\n` +
      `data: ${JSON.stringify({ error: { code: 400, status: 'INVALID_ARGUMENT', message } })}\n\n`,
  },
} as const;

describe.each(['openai', 'anthropic', 'openai-responses', 'google'] as const)(
  '%s adapter never leaks a credential',
  (name) => {
    const adapter = ADAPTERS[name];
    let server: FixtureHttpServer;

    beforeEach(async () => {
      server = new FixtureHttpServer();
      await server.start();
    });
    afterEach(() => server.stop());

    it('scrubs an error object inside a 200 body', async () => {
      server.reply(sendJson(adapter.errorBody(`Incorrect API key provided: ${KEY}.`)));
      const error = await providerError(adapter.create(server.baseUrl).call(prompt));
      expect(error.message).toContain('[redacted]');
      expectNoFragment(error.message, [KEY]);
    });

    it('scrubs an error event inside a stream', async () => {
      server.reply(sendEvents(adapter.errorEvent(`Incorrect API key provided: ${KEY}.`)));
      const error = await providerError(drain(adapter.create(server.baseUrl).stream(prompt)));
      expect(error.message).toContain('[redacted]');
      expectNoFragment(error.message, [KEY]);
    });

    it('scrubs before it truncates: a key across the cut leaves no fragment (HTTP error, 200 body, stream event)', async () => {
      const model = adapter.create(server.baseUrl);
      let cases = 0;
      for (let padding = 440; padding <= 520; padding++) {
        const message = `${'x'.repeat(padding)}${KEY} trailing text`;
        server.reply(
          sendJson(adapter.errorBody(message), 400),
          sendJson(adapter.errorBody(message)),
          sendEvents(adapter.errorEvent(message)),
        );
        expectNoFragment((await providerError(model.call(prompt))).message, [KEY]);
        expectNoFragment((await providerError(model.call(prompt))).message, [KEY]);
        expectNoFragment((await providerError(drain(model.stream(prompt)))).message, [KEY]);
        cases += 3;
      }
      expect(cases).toBe(243);
    });

    it('scrubs the key in every encoding a server may echo (raw, JSON-escaped, URL-encoded) and in the status text', async () => {
      const awkward = 'sk-AWKWARD/SENTINEL+key"with\\odd=chars&0123';
      const model = adapter.create(server.baseUrl, { apiKey: awkward });
      server.reply(async (_request, response) => {
        response.statusMessage = `Denied ${awkward}`;
        response.writeHead(403, { 'content-type': 'text/plain' });
        response.end(
          `raw ${awkward} json ${JSON.stringify(awkward)} url ${encodeURIComponent(awkward)}`,
        );
      });
      const error = await providerError(model.call(prompt));
      expect(error.status).toBe(403);
      expectNoFragment(error.message, [
        awkward,
        JSON.stringify(awkward),
        encodeURIComponent(awkward),
      ]);
    });

    it('treats every credential header value, and every custom header, as a secret', async () => {
      const headers =
        name === 'openai' || name === 'openai-responses'
          ? {
              'api-key': HEADER_SECRETS.azure,
              authorization: `Bearer ${HEADER_SECRETS.bearer}`,
              'x-gateway-token': HEADER_SECRETS.custom,
            }
          : {
              [name === 'google' ? 'x-goog-api-key' : 'x-api-key']: HEADER_SECRETS.anthropic,
              authorization: `Bearer ${HEADER_SECRETS.bearer}`,
              'x-gateway-token': HEADER_SECRETS.custom,
            };
      // A proxy that echoes the request headers it received, in the body and in the status text.
      const echo = (request: IncomingMessage, response: ServerResponse) => {
        const seen = Object.entries(request.headers)
          .map(([header, value]) => `${header}=${String(value)}`)
          .join('; ');
        response.statusMessage = `Rejected ${HEADER_SECRETS.custom}`;
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `bad credentials: ${seen}` } }));
      };
      server.reply(echo, echo);
      const model = adapter.create(server.baseUrl, { apiKey: undefined, headers });
      const secrets = Object.values(HEADER_SECRETS);
      expectNoFragment((await providerError(model.call(prompt))).message, secrets);
      expectNoFragment((await providerError(drain(model.stream(prompt)))).message, secrets);
      // The headers really were sent.
      expect(JSON.stringify(server.requests[0]?.headers)).toContain(HEADER_SECRETS.custom);
    });

    it('toServerSentEventsResponse sends a generic message for a provider failure, never its text', async () => {
      server.reply(
        sendJson(
          adapter.errorBody(`Incorrect API key provided: ${KEY}. Internal host db-7.corp`),
          401,
        ),
      );
      const model: ChatModel = adapter.create(server.baseUrl);
      const response = toServerSentEventsResponse(
        ChatClient.create(model).prompt('Hi').stream().content(),
      );
      const events = [];
      for await (const event of parseServerSentEvents(
        response.body as unknown as AsyncIterable<Uint8Array>,
      ))
        events.push(event);
      const failure = events.find((event) => event.event === 'error');
      expect(failure).toBeDefined();
      const data = JSON.parse(failure?.data ?? '{}') as { code: string; message: string };
      expect(data.code).toBe('CHAT_MODEL_FAILED');
      expect(data.message).not.toMatch(/Incorrect API key|db-7|redacted|HTTP 401/);
      expectNoFragment(failure?.data ?? '', [KEY]);
    });
  },
);

describe('secret figures', () => {
  it('inspected every provider error text and found no key fragment', () => {
    // 4 adapters × (1 + 1 + 243 + 1 + 2 + 1) error texts.
    expect(tally.errorsChecked).toBe(996);
    expect(tally.keysLeaked).toBe(0);
  });
});
