import { describe, expect, it } from 'vitest';
import { secondBestScore } from './second-best-score.js';

describe('secondBestScore', () => {
  it('is the second-highest positive score, whatever the order', () => {
    expect(secondBestScore(Float64Array.of(1, 5, 3, 4))).toBe(4);
    expect(secondBestScore(Float64Array.of(5, 4, 3))).toBe(4);
    expect(secondBestScore(Float64Array.of(2, 2, 1))).toBe(2);
  });

  it('is the best score when only one is positive, and 0 when none is', () => {
    expect(secondBestScore(Float64Array.of(0, 3, 0))).toBe(3);
    expect(secondBestScore(Float64Array.of(0, 0))).toBe(0);
    expect(secondBestScore(new Float64Array(0))).toBe(0);
  });

  it('reads only the slots the mask keeps', () => {
    const scores = Float64Array.of(9, 5, 3, 1);
    expect(secondBestScore(scores, Uint8Array.of(0, 1, 1, 1))).toBe(3);
    expect(secondBestScore(scores, Uint8Array.of(1, 0, 0, 1))).toBe(1);
    expect(secondBestScore(scores, Uint8Array.of(0, 0, 0, 0))).toBe(0);
  });
});
