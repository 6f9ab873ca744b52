import { describe, expect, it } from 'vitest';
import { fixtureText } from '../../test/integration/support/provider-fixtures.js';
import { retryDelayMs, retryInfoDelayMs, serverRetryDelayMs } from './retry-delay.js';

describe('serverRetryDelayMs', () => {
  it('reads retry-after-ms first, then retry-after in seconds or as an HTTP date', () => {
    expect(serverRetryDelayMs(new Headers({ 'retry-after-ms': '120', 'retry-after': '9' }))).toBe(
      120,
    );
    expect(serverRetryDelayMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(serverRetryDelayMs(new Headers({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(
      serverRetryDelayMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now),
    ).toBe(3000);
    expect(serverRetryDelayMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(serverRetryDelayMs(new Headers())).toBeUndefined();
  });
});

describe('retryInfoDelayMs', () => {
  it("reads the RetryInfo delay of Gemini's recorded 429 body, and nothing from other bodies", () => {
    expect(retryInfoDelayMs(fixtureText('google-gemini/google-429-retry-info.json'))).toBe(34_400);
    expect(retryInfoDelayMs('{"error":{"message":"slow down"}}')).toBeUndefined();
    expect(retryInfoDelayMs('RetryInfo, but not JSON')).toBeUndefined();
    expect(
      retryInfoDelayMs(
        '{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"soon"}]}}',
      ),
    ).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('honours a reasonable server delay and ignores an absurd one', () => {
    expect(retryDelayMs(0, 1500)).toBe(1500);
    expect(retryDelayMs(0, 3_600_000, { initialMs: 100 }, () => 0)).toBe(100);
  });

  it('backs off exponentially up to the cap, with up to 25% jitter taken off', () => {
    expect(
      [0, 1, 2, 3, 10].map((retry) =>
        retryDelayMs(retry, undefined, { initialMs: 100, maxMs: 500 }, () => 0),
      ),
    ).toEqual([100, 200, 400, 500, 500]);
    expect(retryDelayMs(1, undefined, { initialMs: 100 }, () => 1)).toBe(150);
  });
});
