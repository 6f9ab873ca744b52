import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { OpenAiCompatibleEmbeddingModel } from '../../src/embeddings/index.js';
import { ChatModelError, InvalidArgumentError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { ChatClient } from '../../src/index.js';
import { userMessage } from '../../src/messages/index.js';
import type { Prompt } from '../../src/model/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { FixtureHttpServer, sendJson } from './support/fixture-http-server.js';

// A provider configured only through its conventional environment variables talks to the base
// URL they name with the key they hold, over real HTTP; a provider that would call the public
// host without a key fails before any request leaves the process. Every test passes an explicit
// `env` instead of mutating `process.env`, as a multi-tenant server would.

const OPENAI_KEY = 'sk-ENV-SENTINEL-3c9e1a7f5b2d8e4a6c0f';
const ANTHROPIC_KEY = 'sk-ant-ENV-SENTINEL-8b2e6d0a4f1c9e7b3d5a';
const prompt: Prompt = { messages: [userMessage('Hi')], options: {} };

const OPENAI_ANSWER = {
  id: 'chatcmpl-1',
  model: 'local-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
};
const ANTHROPIC_ANSWER = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-local',
  content: [{ type: 'text', text: 'Hello' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 3, output_tokens: 1 },
};

/** A `fetch` that counts its calls and never touches the network. */
function countingFetch(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  const fake = (async (input: string | URL | Request) => {
    calls.push(String(input instanceof Request ? input.url : input));
    return new Response(JSON.stringify(OPENAI_ANSWER), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return { fetch: fake, calls };
}

describe('providers configured from the environment', () => {
  let server: FixtureHttpServer;

  beforeEach(async () => {
    server = new FixtureHttpServer();
    await server.start();
  });
  afterEach(() => server.stop());

  it('OpenAiChatModel sends OPENAI_MODEL with OPENAI_API_KEY to OPENAI_BASE_URL', async () => {
    server.reply(sendJson(OPENAI_ANSWER));
    const model = new OpenAiChatModel({
      env: {
        OPENAI_API_KEY: OPENAI_KEY,
        OPENAI_BASE_URL: `${server.baseUrl}/v1`,
        OPENAI_MODEL: 'local-model',
      },
    });
    const answer = await ChatClient.create(model).prompt('Hi').call().content();
    expect(answer).toBe('Hello');
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(request?.body).toMatchObject({ model: 'local-model' });
  });

  it('options win over the environment', async () => {
    server.reply(sendJson(OPENAI_ANSWER));
    const model = new OpenAiChatModel({
      apiKey: 'sk-option',
      baseUrl: `${server.baseUrl}/v1`,
      model: 'option-model',
      env: {
        OPENAI_API_KEY: OPENAI_KEY,
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        OPENAI_MODEL: 'env-model',
      },
    });
    await model.call(prompt);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-option');
    expect(server.requests[0]?.body).toMatchObject({ model: 'option-model' });
  });

  it('a local server named by OPENAI_BASE_URL needs no key, and gets no Authorization header', async () => {
    server.reply(sendJson(OPENAI_ANSWER));
    const model = new OpenAiChatModel({ env: { OPENAI_BASE_URL: `${server.baseUrl}/v1` } });
    await model.call(prompt);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('OpenAiResponsesChatModel reads the same OPENAI_* variables and posts to /responses', async () => {
    server.reply(
      sendJson({
        id: 'resp_1',
        status: 'completed',
        output: [{ type: 'message', id: 'm', content: [{ type: 'output_text', text: 'Hello' }] }],
      }),
    );
    const model = new OpenAiResponsesChatModel({
      env: {
        OPENAI_API_KEY: OPENAI_KEY,
        OPENAI_BASE_URL: `${server.baseUrl}/v1`,
        OPENAI_MODEL: 'local-model',
      },
    });
    expect(await ChatClient.create(model).prompt('Hi').call().content()).toBe('Hello');
    expect(server.requests[0]?.url).toBe('/v1/responses');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(server.requests[0]?.body).toMatchObject({ model: 'local-model' });
  });

  it('GoogleChatModel sends GEMINI_API_KEY as x-goog-api-key to GOOGLE_GEMINI_BASE_URL, never in the URL or an error', async () => {
    const key = 'AIza-ENV-SENTINEL-5e1b9d3f7a2c6e0b4d8f';
    server.reply(
      sendJson({
        candidates: [{ content: { parts: [{ text: 'Hello' }] }, finishReason: 'STOP' }],
      }),
      sendJson(
        { error: { code: 400, status: 'INVALID_ARGUMENT', message: `bad key ${key}` } },
        400,
      ),
    );
    const model = new GoogleChatModel({
      env: { GEMINI_API_KEY: key, GOOGLE_GEMINI_BASE_URL: server.baseUrl },
    });
    expect((await model.call(prompt)).results[0]?.output.text).toBe('Hello');
    expect(server.requests[0]?.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe(key);
    const error = await model.call(prompt).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChatModelError);
    expect((error as ChatModelError).message).toContain('INVALID_ARGUMENT');
    expect((error as ChatModelError).message).not.toContain(key);
    for (const request of server.requests) expect(request.url).not.toContain(key);
  });

  it('GoogleChatModel refuses to call the public Gemini API without a key, before any request', () => {
    expect(() => new GoogleChatModel({ env: {} })).toThrow(InvalidArgumentError);
    expect(
      () => new GoogleChatModel({ env: { GOOGLE_GEMINI_BASE_URL: server.baseUrl } }),
    ).not.toThrow();
  });

  it('AnthropicChatModel sends ANTHROPIC_API_KEY as x-api-key to ANTHROPIC_BASE_URL', async () => {
    server.reply(sendJson(ANTHROPIC_ANSWER));
    const model = new AnthropicChatModel({
      env: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.baseUrl },
    });
    const response = await model.call(prompt);
    expect(response.results[0]?.output.text).toBe('Hello');
    expect(server.requests[0]?.url).toBe('/v1/messages');
    expect(server.requests[0]?.headers['x-api-key']).toBe(ANTHROPIC_KEY);
  });

  it('OpenAiCompatibleEmbeddingModel sends OPENAI_API_KEY to OPENAI_BASE_URL', async () => {
    server.reply(sendJson({ data: [{ index: 0, embedding: [0.5, 0.25] }] }));
    const model = new OpenAiCompatibleEmbeddingModel({
      model: 'nomic-embed-text',
      env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${server.baseUrl}/v1` },
    });
    expect(await model.embed(['alpha'])).toEqual([[0.5, 0.25]]);
    expect(server.requests[0]?.url).toBe('/v1/embeddings');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
  });

  it('keeps a key read from the environment out of every error', async () => {
    const echo = `Incorrect API key provided: ${OPENAI_KEY}; header was Bearer ${OPENAI_KEY}`;
    server.replyAlways(sendJson({ error: { type: 'invalid_request_error', message: echo } }, 401));
    const chat = new OpenAiChatModel({
      maxRetries: 0,
      env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${server.baseUrl}/v1` },
    });
    const chatError = await chat.call(prompt).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(chatError).toBeInstanceOf(ChatModelError);
    expect((chatError as ChatModelError).status).toBe(401);
    expect((chatError as Error).message).not.toContain(OPENAI_KEY.slice(3, 20));

    const embeddings = new OpenAiCompatibleEmbeddingModel({
      model: 'm',
      env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${server.baseUrl}/v1` },
    });
    const embeddingError = await embeddings.embed(['a']).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(embeddingError).toBeInstanceOf(ChatModelError);
    expect((embeddingError as Error).message).not.toContain(OPENAI_KEY.slice(3, 20));

    server.replyAlways(
      sendJson(
        { type: 'error', error: { type: 'authentication_error', message: ANTHROPIC_KEY } },
        401,
      ),
    );
    const anthropic = new AnthropicChatModel({
      maxRetries: 0,
      env: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, ANTHROPIC_BASE_URL: server.baseUrl },
    });
    const anthropicError = await anthropic.call(prompt).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(anthropicError).toBeInstanceOf(ChatModelError);
    expect((anthropicError as Error).message).not.toContain(ANTHROPIC_KEY.slice(7, 24));
  });
});

describe('a public host without a key fails before any network call', () => {
  it.each([
    [
      'OpenAiChatModel',
      'OPENAI_API_KEY',
      (f: typeof fetch) => new OpenAiChatModel({ fetch: f, env: {} }),
    ],
    [
      'AnthropicChatModel',
      'ANTHROPIC_API_KEY',
      (f: typeof fetch) => new AnthropicChatModel({ fetch: f, env: {} }),
    ],
    [
      'OpenAiCompatibleEmbeddingModel',
      'OPENAI_API_KEY',
      (f: typeof fetch) => new OpenAiCompatibleEmbeddingModel({ model: 'm', fetch: f, env: {} }),
    ],
  ] as const)('%s names %s and the apiKey option', (_name, variable, create) => {
    const counter = countingFetch();
    let caught: unknown;
    try {
      create(counter.fetch);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidArgumentError);
    expect((caught as Error).message).toContain(variable);
    expect((caught as Error).message).toContain('apiKey option');
    expect(counter.calls).toEqual([]);
  });

  it('with the key in the environment, the public endpoint is called with it', async () => {
    const calls: { url: string; authorization: string | null }[] = [];
    const recording = (async (input: string | URL | Request, init?: RequestInit) => {
      calls.push({
        url: String(input),
        authorization: new Headers(init?.headers).get('authorization'),
      });
      return new Response(JSON.stringify(OPENAI_ANSWER), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const model = new OpenAiChatModel({ fetch: recording, env: { OPENAI_API_KEY: OPENAI_KEY } });
    await model.call(prompt);
    expect(calls).toEqual([
      { url: 'https://api.openai.com/v1/chat/completions', authorization: `Bearer ${OPENAI_KEY}` },
    ]);
  });
});
