import { describe, expect, it } from 'vitest';
import { mapOpenAiUsage } from './from-openai-response.js';

describe('mapOpenAiUsage', () => {
  it('reads cached prompt tokens and reasoning output tokens from the details objects', () => {
    expect(
      mapOpenAiUsage({
        prompt_tokens: 120,
        completion_tokens: 900,
        total_tokens: 1020,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 768 },
      }),
    ).toEqual({
      promptTokens: 120,
      completionTokens: 900,
      totalTokens: 1020,
      cacheReadTokens: 64,
      reasoningTokens: 768,
    });
  });

  it('leaves the counts out when a server sends no details, null, or a value that is no number', () => {
    expect(mapOpenAiUsage({ prompt_tokens: 5, completion_tokens: 2 })).toEqual({
      promptTokens: 5,
      completionTokens: 2,
      totalTokens: 7,
    });
    const odd = mapOpenAiUsage({
      prompt_tokens: 5,
      completion_tokens: 2,
      completion_tokens_details: null,
      prompt_tokens_details: { cached_tokens: 'many' as unknown as number },
    });
    expect(odd).not.toHaveProperty('reasoningTokens');
    expect(odd).not.toHaveProperty('cacheReadTokens');
    const notFinite = mapOpenAiUsage({
      completion_tokens_details: { reasoning_tokens: Number.NaN },
    });
    expect(notFinite).not.toHaveProperty('reasoningTokens');
  });
});
