import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import type { ChatModelError } from '../../src/errors/index.js';
import { userMessage } from '../../src/messages/index.js';
import type { ChatModel, Prompt } from '../../src/model/index.js';
import { OpenAiChatModel } from '../../src/openai/index.js';
import { FixtureHttpServer, sendJson } from './support/fixture-http-server.js';

// A failed provider request names what was asked of where ("POST http://host/v1/chat/completions"),
// so "HTTP 404: Not Found" against a local server says which path was wrong; credentials never
// appear, and neither does anything after the path.

const API_KEY = 'sk-url-test-SECRET-0123456789abcdef';
const prompt: Prompt = { messages: [userMessage('Hi')], options: {} };

const PROVIDERS = {
  openai: {
    create: (baseUrl: string) =>
      new OpenAiChatModel({ baseUrl, apiKey: API_KEY, maxRetries: 0 }) as ChatModel,
    path: '/v1/chat/completions',
  },
  anthropic: {
    create: (baseUrl: string) =>
      new AnthropicChatModel({ baseUrl, apiKey: API_KEY, maxRetries: 0 }) as ChatModel,
    path: '/v1/messages',
  },
};

async function failure(promise: Promise<unknown>): Promise<ChatModelError> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as ChatModelError,
  );
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each(['openai', 'anthropic'] as const)('%s request errors', (name) => {
  const provider = PROVIDERS[name];
  let server: FixtureHttpServer;

  beforeEach(async () => {
    server = new FixtureHttpServer();
    await server.start();
  });
  afterEach(() => server.stop());

  it('name the method and URL of an HTTP failure', async () => {
    server.replyAlways(sendJson({ error: { message: 'no such route' } }, 404));
    const base = name === 'openai' ? `${server.baseUrl}/v1` : server.baseUrl;
    for (const call of [
      (model: ChatModel) => model.call(prompt),
      async (model: ChatModel) => {
        for await (const _chunk of model.stream!(prompt));
      },
    ]) {
      const error = await failure(call(provider.create(base)));
      expect(error).toMatchObject({ status: 404 });
      expect(error.message).toContain(
        `${name} request failed with HTTP 404 (POST ${server.baseUrl}${provider.path})`,
      );
      expect(error.message).toContain('no such route');
    }
  });

  it('name the URL a connection could not be made to', async () => {
    const base = `http://127.0.0.1:${await closedPort()}`;
    const error = await failure(
      provider.create(name === 'openai' ? `${base}/v1` : base).call(prompt),
    );
    expect(error.message).toContain(`POST ${base}${provider.path}`);
    expect(error.message).toContain('ECONNREFUSED');
  });
});
