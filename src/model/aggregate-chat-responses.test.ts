import { describe, expect, it } from 'vitest';
import { assistantMessage, toolCall } from '../messages/index.js';
import { aggregateChatResponses, ChatResponseAggregator } from './aggregate-chat-responses.js';
import { type ChatResponse, chatResponse } from './chat-response.js';
import type { FinishReason } from './finish-reason.js';

function chunk(
  text: string | null,
  options: Partial<Pick<ChatResponse, 'metadata'>> & {
    calls?: ReturnType<typeof toolCall>[];
    finishReason?: FinishReason | null;
  } = {},
): ChatResponse {
  return chatResponse(assistantMessage(text, options.calls ?? []), {
    finishReason: options.finishReason ?? null,
    metadata: options.metadata ?? {},
  });
}

describe('aggregateChatResponses', () => {
  it('concatenates text, keeps tool calls whole and in order, and takes the finish reason last set', () => {
    const first = toolCall('call-1', 'weather', { city: 'Boston' });
    const second = toolCall('call-2', 'weather', { city: 'Paris' });
    const result = aggregateChatResponses([
      chunk('Let me '),
      chunk('check.', { calls: [first] }),
      chunk(null, { calls: [second], finishReason: 'tool_calls' }),
    ]);
    expect(result.results).toHaveLength(1);
    expect(result.results[0]?.output).toEqual({
      role: 'assistant',
      text: 'Let me check.',
      toolCalls: [first, second],
    });
    expect(result.results[0]?.metadata.finishReason).toBe('tool_calls');
  });

  it('aggregates every generation by its index, whether a chunk carries one, several or a hole', () => {
    const call = toolCall('call-1', 'weather', { city: 'Rome' });
    const generation = (text: string | null, calls = [] as (typeof call)[]) =>
      chunk(text, { calls }).results[0] as ChatResponse['results'][number];
    const sparse: ChatResponse['results'] = [];
    sparse[1] = generation(' two', [call]);
    const result = aggregateChatResponses([
      { results: [generation('one')], metadata: {} },
      { results: [generation(' more'), generation('two')], metadata: {} },
      { results: sparse, metadata: {} },
      { results: [generation('!')], metadata: {} },
    ]);
    expect(result.results.map((each) => each.output.text)).toEqual(['one more!', 'two two']);
    expect(result.results.map((each) => each.output.toolCalls)).toEqual([[], [call]]);
  });

  it('takes usage from the chunk that carries it, not from zeroed chunks after it', () => {
    const usage = { promptTokens: 10, completionTokens: 5, totalTokens: 15 };
    const zero = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const result = aggregateChatResponses([
      chunk('a', { metadata: { usage: zero } }),
      chunk('b', { metadata: { usage, id: 'resp-1' } }),
      chunk('c', { metadata: { usage: zero, model: 'm' } }),
    ]);
    expect(result.metadata).toEqual({ usage, id: 'resp-1', model: 'm' });
  });

  it('keeps text null when no chunk carried text and aggregates incrementally', () => {
    const aggregator = new ChatResponseAggregator();
    aggregator.add(chunk(null, { calls: [toolCall('c', 't')] }));
    expect(aggregator.size).toBe(1);
    expect(aggregator.result().results[0]?.output.text).toBeNull();
    aggregator.add(chunk('done'));
    expect(aggregator.result().results[0]?.output.text).toBe('done');
  });

  it('produces plain JSON that round-trips', () => {
    const result = aggregateChatResponses([
      chunk('x', {
        calls: [toolCall('1', 'n', '{"a":1}')],
        metadata: { usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
      }),
    ]);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('leaves tool-call deltas out: the aggregate equals the one of the same chunks without them', () => {
    const call = toolCall('call-1', 'weather', '{"city":"Oslo"}');
    const withDeltas: ChatResponse[] = [
      chunk('Let me check.'),
      chunk(null),
      chunk(null),
      chunk(null, { calls: [call], finishReason: 'tool_calls' }),
    ];
    withDeltas[1]!.results[0]!.toolCallDeltas = [
      { id: 'call-1', index: 0, name: 'weather', arguments: '{"city":' },
    ];
    withDeltas[2]!.results[0]!.toolCallDeltas = [{ id: 'call-1', index: 0, arguments: '"Oslo"}' }];
    const plain = aggregateChatResponses([
      chunk('Let me check.'),
      chunk(null),
      chunk(null),
      chunk(null, { calls: [call], finishReason: 'tool_calls' }),
    ]);
    const result = aggregateChatResponses(withDeltas);
    expect(result).toEqual(plain);
    expect(JSON.stringify(result)).not.toContain('toolCallDeltas');
  });
});
