import { describe, expect, it } from 'vitest';
import { ChatModelError } from '../errors/index.js';
import { MAX_PROVIDER_DETAIL_LENGTH, ProviderErrors, requestTarget } from './provider-errors.js';

const KEY = 'sk-UNIT-SENTINEL-4f1e9a7c2b8d6e0f3a5c';

describe('ProviderErrors', () => {
  it('scrubs, then cuts: a key at any offset around the cut leaves no fragment', () => {
    const errors = new ProviderErrors('openai', [KEY]);
    for (let padding = 0; padding <= MAX_PROVIDER_DETAIL_LENGTH + 10; padding++) {
      const error = errors.create({
        message: 'openai request failed with HTTP 400',
        detail: `${'x'.repeat(padding)}${KEY} and more`,
        retryable: false,
      });
      for (let start = 0; start + 6 <= KEY.length; start++) {
        expect(error.message).not.toContain(KEY.slice(start, start + 6));
      }
    }
  });

  it('scrubs its own words too, keeps the status and cause, and never splits a surrogate pair', () => {
    const errors = new ProviderErrors('anthropic', [KEY, undefined, 'abc']);
    const cause = new Error('reset');
    const error = errors.create({
      message: `anthropic said ${KEY}`,
      detail: `${'y'.repeat(MAX_PROVIDER_DETAIL_LENGTH - 1)}😀 tail`,
      status: 503,
      retryable: true,
      cause,
    });
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ provider: 'anthropic', status: 503, retryable: true, cause });
    expect(error.message.startsWith('anthropic said [redacted]: ')).toBe(true);
    expect(error.message.endsWith(`${'y'.repeat(MAX_PROVIDER_DETAIL_LENGTH - 1)}…`)).toBe(true);
    expect(error.message).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    // Values shorter than 6 characters are not treated as secrets.
    expect(errors.scrub('abc')).toBe('abc');
  });

  it('redacts every occurrence of every secret as sent, JSON-escaped and URL-encoded, and leaves short values alone', () => {
    const awkward = 'sk-a/b+c"d\\e';
    const errors = new ProviderErrors('openai', ['sk-abcdef123', awkward, 'abc', undefined]);
    expect(errors.scrub('key sk-abcdef123 and sk-abcdef123 again; id abc')).toBe(
      'key [redacted] and [redacted] again; id abc',
    );
    expect(
      errors.scrub(`${awkward} ${JSON.stringify(awkward)} ${encodeURIComponent(awkward)}`),
    ).toBe('[redacted] "[redacted]" [redacted]');
  });

  it('builds non-retryable malformed-response errors', () => {
    const error = new ProviderErrors('openai').malformed('choices must be an array, not an object');
    expect(error).toMatchObject({ retryable: false, status: undefined });
    expect(error.message).toBe(
      'openai answered with a malformed response: choices must be an array, not an object',
    );
  });
});

describe('requestTarget', () => {
  it('names the method and URL without credentials, query or fragment', () => {
    expect(requestTarget('POST', 'http://127.0.0.1:11434/v1/chat/completions')).toBe(
      'POST http://127.0.0.1:11434/v1/chat/completions',
    );
    expect(
      requestTarget(
        'POST',
        'https://user:s3cret-pass@gateway.example/openai/v1/chat/completions?api-key=SECRET#x',
      ),
    ).toBe('POST https://gateway.example/openai/v1/chat/completions');
    expect(requestTarget('POST', 'not a url?key=SECRET')).toBe('POST (an invalid URL)');
  });
});
