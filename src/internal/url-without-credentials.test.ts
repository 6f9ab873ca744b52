import { describe, expect, it } from 'vitest';
import { urlWithoutCredentials } from './url-without-credentials.js';

describe('urlWithoutCredentials', () => {
  it('keeps scheme, host and path, and leaves out credentials, query and fragment', () => {
    expect(urlWithoutCredentials('https://user:pw@gateway.example:8443/v1/x?key=SECRET#f')).toBe(
      'https://gateway.example:8443/v1/x',
    );
    expect(urlWithoutCredentials('redis://:SECRET@127.0.0.1:6379/2')).toBe(
      'redis://127.0.0.1:6379/2',
    );
    expect(urlWithoutCredentials('postgres://app:SECRET@db.internal/chat?sslmode=require')).toBe(
      'postgres://db.internal/chat',
    );
    expect(urlWithoutCredentials('jdbc:postgresql://db:5432/chat?password=SECRET')).toBe(
      'jdbc:postgresql://db:5432/chat',
    );
    expect(urlWithoutCredentials('not a url')).toBeUndefined();
  });
});
