import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ChatClient } from '../client/index.js';
import { userMessage } from '../messages/index.js';
import { createPrompt } from '../model/index.js';
import { AnthropicChatModel } from './anthropic-chat-model.js';
import type { AnthropicChatOptions } from './anthropic-chat-options.js';

const model = () => new AnthropicChatModel({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', env: {} });

describe('AnthropicChatOptions', () => {
  it('sends thinking, cacheControl and topK, from the constructor and per request', () => {
    const chatModel = new AnthropicChatModel({
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:9',
      env: {},
      cacheControl: { type: 'ephemeral' },
      topK: 5,
    });
    const body = chatModel.request(
      createPrompt<AnthropicChatOptions>([userMessage('hi')], {
        thinking: { type: 'enabled', budgetTokens: 2048 },
        maxTokens: 4096,
      }),
      false,
    ) satisfies Anthropic.MessageCreateParams;
    expect(body).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      cache_control: { type: 'ephemeral' },
      top_k: 5,
      max_tokens: 4096,
    });
    const adaptive = chatModel.request(
      createPrompt<AnthropicChatOptions>([userMessage('hi')], {
        thinking: { type: 'adaptive' },
        cacheControl: { type: 'ephemeral', ttl: '1h' },
      }),
      false,
    ) satisfies Anthropic.MessageCreateParams;
    expect(adaptive).toMatchObject({
      thinking: { type: 'adaptive' },
      cache_control: { type: 'ephemeral', ttl: '1h' },
    });
  });

  it('checks the keys at compile time: the client over the model takes its options only', () => {
    const client = ChatClient.create(model());
    client.prompt('x').options({
      thinking: { type: 'enabled', budgetTokens: 1024 },
      cacheControl: { type: 'ephemeral' },
    });
    // @ts-expect-error an OpenAI option is not an Anthropic one
    client.prompt('x').options({ reasoningEffort: 'low' });
    // @ts-expect-error thinking needs its budget
    client.prompt('x').options({ thinking: { type: 'enabled' } });
    // @ts-expect-error the constructor's defaults are checked too
    new AnthropicChatModel({ apiKey: 'k', cacheControl: { type: 'persistent' } });
    expect(client.chatModel).toBeInstanceOf(AnthropicChatModel);
  });
});
