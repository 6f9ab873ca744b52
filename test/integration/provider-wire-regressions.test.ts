import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { userMessage } from '../../src/messages/index.js';
import { aggregateChatResponses, type ChatResponse, type Prompt } from '../../src/model/index.js';
import { FixtureHttpServer, sendEvents } from './support/fixture-http-server.js';
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
