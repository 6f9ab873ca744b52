import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ChatClient } from '../client/index.js';
import { userMessage } from '../messages/index.js';
import { createPrompt } from '../model/index.js';
import { OpenAiChatModel } from './openai-chat-model.js';
import type { OpenAiChatOptions } from './openai-chat-options.js';

const model = () => new OpenAiChatModel({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1', env: {} });

describe('OpenAiChatOptions', () => {
  it('sends reasoningEffort and seed, from the constructor and per request', () => {
    const chatModel = new OpenAiChatModel({
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9/v1',
      env: {},
      reasoningEffort: 'low',
      seed: 1,
    });
    const body = chatModel.request(
      createPrompt<OpenAiChatOptions>([userMessage('hi')], {
        reasoningEffort: 'high',
        parallelToolCalls: false,
      }),
      false,
    ) satisfies OpenAI.ChatCompletionCreateParams;
    expect(body).toMatchObject({ reasoning_effort: 'high', seed: 1 });
  });

  it('checks the keys at compile time: the client over the model takes its options only', () => {
    const client = ChatClient.create(model());
    client.prompt('x').options({ reasoningEffort: 'minimal', parallelToolCalls: true, seed: 3 });
    // @ts-expect-error a misspelt key is an error, not a value silently sent
    client.prompt('x').options({ reasoningEfort: 'low' });
    // @ts-expect-error an Anthropic option is not an OpenAI one
    client.prompt('x').options({ thinking: { type: 'enabled', budgetTokens: 2048 } });
    // @ts-expect-error not an effort the API knows
    client.prompt('x').options({ reasoningEffort: 'turbo' });
    // @ts-expect-error the constructor's defaults are checked too
    new OpenAiChatModel({ apiKey: 'k', reasoningEffort: 'extreme' });
    expect(client.chatModel).toBeInstanceOf(OpenAiChatModel);
  });
});
