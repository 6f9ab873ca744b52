import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { AbortError, ChatModelError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { userMessage } from '../../src/messages/index.js';
import { aggregateChatResponses, type ChatResponse, type Prompt } from '../../src/model/index.js';
import { OpenAiChatModel } from '../../src/openai/index.js';
import { FixtureHttpServer, type FixtureReply, sendEvents } from './support/fixture-http-server.js';
import { fixtureText, frameChunksAsSse } from './support/provider-fixtures.js';

// One focused test per defect the wire fuzz suite (provider-wire-fuzz.test.ts) found, over real
// HTTP with the recorded transcripts, so each stays fixed whatever the fuzz seed reaches.

const API_KEY = 'sk-regression-0123456789abcdef';
const PROMPT: Prompt = { messages: [userMessage('What is the weather in Paris?')], options: {} };

const server = new FixtureHttpServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

async function streamed(model: { stream(prompt: Prompt): AsyncIterable<ChatResponse> }) {
  const chunks: ChatResponse[] = [];
  for await (const chunk of model.stream(PROMPT)) chunks.push(chunk);
  return aggregateChatResponses(chunks);
}

describe('a stream written with CR line ends (as the SSE standard allows) is read whole', () => {
  const cr = (text: string) => text.replace(/\r?\n/g, '\r');

  it('Gemini: the last event, which carries the finish reason, is not lost', async () => {
    const sse = frameChunksAsSse(fixtureText('google-gemini/google-text.chunks.txt'), 'data');
    server.reply(sendEvents(sse), sendEvents(cr(sse)));
    const model = new GoogleChatModel({ baseUrl: server.baseUrl, apiKey: API_KEY, maxRetries: 0 });
    const expected = await streamed(model);
    const response = await streamed(model);
    expect(response.results[0]?.metadata.finishReason).toBe('stop');
    expect(response.results[0]?.output.text).toBe(expected.results[0]?.output.text);
  });

  it('Anthropic: message_stop is not lost, so the tool call is whole, not marked truncated', async () => {
    const sse = frameChunksAsSse(
      fixtureText('anthropic-messages/anthropic-json-tool.1.chunks.txt'),
      'anthropic',
    );
    server.reply(sendEvents(sse), sendEvents(cr(sse)));
    const model = new AnthropicChatModel({
      baseUrl: server.baseUrl,
      apiKey: API_KEY,
      maxRetries: 0,
    });
    const expected = await streamed(model);
    const response = await streamed(model);
    const calls = response.results[0]?.output.toolCalls ?? [];
    expect(calls).toHaveLength(1);
    expect(calls[0]?.metadata?.truncated).toBeUndefined();
    expect(calls[0]?.arguments).toBe(expected.results[0]?.output.toolCalls[0]?.arguments);
  });
});

describe('an HTTP failure whose error body stalls', () => {
  /** A 429 whose body starts and never ends; the connection stays open. */
  const stalled429: FixtureReply = (_request, response) => {
    response.writeHead(429, { 'content-type': 'application/json' });
    response.write('{"error":{"message":"Rate limit reached, retry in');
  };

  it.each(['call', 'stream'] as const)(
    '%s: fails at the idle limit (not the call deadline) with its status, 429',
    async (mode) => {
      server.replyAlways(stalled429);
      const model = new OpenAiChatModel({
        baseUrl: `${server.baseUrl}/v1`,
        apiKey: API_KEY,
        maxRetries: 0,
        idleTimeoutMs: 200,
        timeoutMs: 10_000,
      });
      const started = performance.now();
      const error = await (mode === 'call' ? model.call(PROMPT) : streamed(model)).catch(
        (caught: unknown) => caught,
      );
      server.replyAlways(undefined);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(error).toBeInstanceOf(ChatModelError);
      expect(error).toMatchObject({ status: 429, retryable: true });
      expect((error as ChatModelError).message).toMatch(/^openai request failed with HTTP 429 /);
    },
  );

  it('a caller abort while the error body stalls is still an AbortError', async () => {
    server.replyAlways(stalled429);
    const model = new OpenAiChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: API_KEY,
      maxRetries: 0,
      idleTimeoutMs: 5_000,
    });
    const error = await model
      .call(PROMPT, { signal: AbortSignal.timeout(100) })
      .catch((caught: unknown) => caught);
    server.replyAlways(undefined);
    expect(error).toBeInstanceOf(AbortError);
  });
});
