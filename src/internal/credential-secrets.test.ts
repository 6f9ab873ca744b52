import { describe, expect, it } from 'vitest';
import { credentialSecrets } from './credential-secrets.js';

describe('credentialSecrets', () => {
  it('collects the key, credential headers with their tokens, and every user header', () => {
    const basic = Buffer.from('alice:pa55word-secret').toString('base64');
    const secrets = credentialSecrets(
      'sk-key',
      {
        authorization: 'Bearer tok-123456',
        'proxy-authorization': `Basic ${basic}`,
        'x-api-key': 'anthropic-key',
        'api-key': 'azure-key',
        'x-custom': 'plain-value',
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
      },
      { 'X-Custom': 'plain-value' },
    );
    expect(secrets).toEqual(
      expect.arrayContaining([
        'sk-key',
        'Bearer tok-123456',
        'tok-123456',
        `Basic ${basic}`,
        basic,
        'alice:pa55word-secret',
        'pa55word-secret',
        'anthropic-key',
        'azure-key',
        'plain-value',
      ]),
    );
    // Headers the adapter set that carry no credential are not secrets.
    expect(secrets).not.toContain('2023-06-01');
    expect(secrets).not.toContain('application/json');
  });
});
