import { describe, expect, it } from 'vitest';
import { readUnknownOutcomeAnswer, unknownOutcomeText } from './unknown-outcome.js';

describe('unknown outcomes', () => {
  it('reads the three answers and nothing else', () => {
    expect(readUnknownOutcomeAnswer({ type: 'retry' })).toEqual({ type: 'retry' });
    expect(readUnknownOutcomeAnswer({ type: 'succeeded', result: 'sent' })).toEqual({
      type: 'succeeded',
      result: 'sent',
    });
    expect(readUnknownOutcomeAnswer({ type: 'failed' })).toEqual({ type: 'failed' });
    expect(readUnknownOutcomeAnswer({ type: 'failed', error: 'bounced' })).toEqual({
      type: 'failed',
      error: 'bounced',
    });
    expect(readUnknownOutcomeAnswer({ type: 'succeeded' })).toBeUndefined();
    expect(readUnknownOutcomeAnswer({ type: 'approve' })).toBeUndefined();
    expect(readUnknownOutcomeAnswer('retry')).toBeUndefined();
  });

  it('tells the model the call may or may not have taken effect, and to check', () => {
    expect(unknownOutcomeText('send_email')).toMatch(
      /^The outcome of this call of 'send_email' is unknown: .* It may or may not have taken effect; check before calling it again\.$/,
    );
  });
});
