import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { ChatModelError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { userMessage } from '../../src/messages/index.js';
import type { ChatModel, Prompt } from '../../src/model/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { FixtureHttpServer, sendJson } from './support/fixture-http-server.js';

// A stream request answered with a JSON body and HTTP 200: a gateway that reports its error that
// way, or a server that ignores `stream: true`. The error must say what the server said, not that
// a stream (which never began) ended early.

const prompt: Prompt = { messages: [userMessage('Hi')], options: {} };
const server = new FixtureHttpServer();

const models: Record<string, () => ChatModel> = {
  openai: () => new OpenAiChatModel({ baseUrl: server.baseUrl, apiKey: 'k', env: {} }),
  'openai-responses': () =>
    new OpenAiResponsesChatModel({ baseUrl: server.baseUrl, apiKey: 'k', env: {} }),
  anthropic: () => new AnthropicChatModel({ baseUrl: server.baseUrl, apiKey: 'k', env: {} }),
  google: () => new GoogleChatModel({ baseUrl: server.baseUrl, apiKey: 'k', env: {} }),
};

async function streamFailure(model: ChatModel): Promise<unknown> {
  try {
    for await (const _ of model.stream?.(prompt) ?? []) {
      // drained
    }
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a stream request answered with JSON', () => {
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  it.each(Object.keys(models))('%s: the error quotes the JSON body, once', async (name) => {
    const before = server.requests.length;
    server.reply(sendJson({ error: { message: 'model llama9 is not loaded' } }));
    const error = await streamFailure((models[name] as () => ChatModel)());
    expect(error).toBeInstanceOf(ChatModelError);
    expect((error as ChatModelError).message).toContain('instead of an event stream');
    expect((error as ChatModelError).message).toContain('model llama9 is not loaded');
    expect((error as ChatModelError).retryable).toBe(false);
    expect(server.requests.length - before).toBe(1);
  });
});
