import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason } from '../anthropic/from-anthropic-response.js';
import { mapOpenAiFinishReason } from '../openai/from-openai-response.js';
import { FinishReason } from './finish-reason.js';

describe('finish reasons: providers map theirs to one union', () => {
  it.each([
    ['stop', 'stop'],
    ['eos', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
    ['content_filter', 'content_filter'],
    ['SOMETHING_NEW', 'other'],
    [null, null],
    ['', null],
  ])('OpenAI %j → %j', (reason, expected) => {
    expect(mapOpenAiFinishReason(reason)).toBe(expected);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['tool_use', 'tool_calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'content_filter'],
    ['pause_turn', 'other'],
    [undefined, null],
  ])('Anthropic %j → %j', (reason, expected) => {
    expect(mapAnthropicStopReason(reason)).toBe(expected);
  });

  it('names every member of the union once', () => {
    expect(new Set(Object.values(FinishReason)).size).toBe(Object.keys(FinishReason).length);
    expect(Object.values(FinishReason).sort()).toEqual(
      [
        'approvalPending',
        'content_filter',
        'length',
        'maxIterations',
        'other',
        'returnDirect',
        'stop',
        'toolCallLimitExceeded',
        'tool_calls',
      ].sort(),
    );
  });
});
