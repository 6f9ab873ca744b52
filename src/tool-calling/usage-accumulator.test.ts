import { describe, expect, it } from 'vitest';
import { textResponse } from '../testing/index.js';
import { UsageAccumulator } from './usage-accumulator.js';

const usage = (promptTokens: number, completionTokens: number, totalTokens: number) => ({
  promptTokens,
  completionTokens,
  totalTokens,
});

describe('UsageAccumulator', () => {
  it('sums the rounds and stamps the sum on the final response only after several rounds', () => {
    const accumulator = new UsageAccumulator();
    const first = textResponse('a', { usage: { ...usage(10, 20, 30), cacheReadTokens: 7 } });
    accumulator.addRound(first);
    expect(accumulator.apply(first)).toBe(first);
    const second = textResponse('b', { usage: usage(1, 2, 3), id: 'r2' });
    accumulator.addRound(second);
    expect(accumulator.rounds).toBe(2);
    expect(accumulator.total).toEqual({ ...usage(11, 22, 33), cacheReadTokens: 7 });
    const applied = accumulator.apply(second);
    expect(applied?.metadata).toEqual({
      id: 'r2',
      usage: { ...usage(11, 22, 33), cacheReadTokens: 7 },
    });
    expect(applied?.results).toBe(second.results);
    // The input response is not mutated.
    expect(second.metadata.usage).toEqual(usage(1, 2, 3));
  });

  it('ignores rounds without usage and leaves responses alone when none reported any', () => {
    const accumulator = new UsageAccumulator();
    accumulator.addRound(null);
    accumulator.addRound(textResponse('x', { usage: usage(0, 0, 0) }));
    const last = textResponse('y');
    accumulator.addRound(last);
    expect(accumulator.total).toBeUndefined();
    expect(accumulator.apply(last)).toBe(last);
    expect(accumulator.apply(null)).toBeNull();
  });

  it('stamps the earlier rounds on a final round that reported none', () => {
    const accumulator = new UsageAccumulator();
    accumulator.addRound(textResponse('x', { usage: usage(10, 20, 30) }));
    const last = textResponse('y');
    accumulator.addRound(last);
    expect(accumulator.apply(last)?.metadata.usage).toEqual(usage(10, 20, 30));
  });

  it('sums reasoning tokens across rounds, as part of the completion tokens', () => {
    const accumulator = new UsageAccumulator();
    accumulator.addRound(
      textResponse('x', { usage: { ...usage(10, 20, 30), reasoningTokens: 12 } }),
    );
    const last = textResponse('y', { usage: usage(5, 5, 10) });
    accumulator.addRound(last);
    expect(accumulator.apply(last)?.metadata.usage).toEqual({
      ...usage(15, 25, 40),
      reasoningTokens: 12,
    });
  });
});
