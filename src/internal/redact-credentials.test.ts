import { describe, expect, it } from 'vitest';
import { environmentSecrets, redactCredentials } from './redact-credentials.js';

describe('redactCredentials', () => {
  it('redacts the password of URLs, keeping the user, host and path', () => {
    expect(
      redactCredentials(
        'connect ECONNREFUSED postgres://app:s3cr3t-Pa55@db.internal:5432/orders (jdbc:postgresql://x:y@h/d)',
      ),
    ).toBe(
      'connect ECONNREFUSED postgres://app:***@db.internal:5432/orders (jdbc:postgresql://x:***@h/d)',
    );
    expect(redactCredentials('https://ghtoken123@github.com/x')).toBe('https://***@github.com/x');
    expect(redactCredentials('redis://:p@ss@cache:6379')).toBe('redis://:***@cache:6379');
  });

  it('redacts Bearer and Basic credentials and secret-named parameters', () => {
    expect(redactCredentials('Authorization: Bearer abc.def-ghi')).toBe(
      'Authorization: Bearer ***',
    );
    expect(redactCredentials('basic dXNlcjpwYXNz')).toBe('basic ***');
    expect(redactCredentials('GET /x?api_key=123456&page=2&token=zzz')).toBe(
      'GET /x?api_key=***&page=2&token=***',
    );
    expect(redactCredentials('password=hunter22 user=bob')).toBe('password=*** user=bob');
  });

  it('redacts tokens of well-known forms and the given secrets in every form', () => {
    expect(redactCredentials('key sk-proj-abcdefghijklmnopqrstuv used')).toBe('key *** used');
    expect(redactCredentials('ghp_abcdefghijklmnopqrstuvwxyz0123 and AKIAABCDEFGHIJKLMNOP')).toBe(
      '*** and ***',
    );
    expect(redactCredentials('echo "a\\"quoted secret"', ['a"quoted secret'])).toBe('echo "***"');
    expect(redactCredentials('q=my%20secret%2Fvalue', ['my secret/value'])).toBe('q=***');
  });

  it('keeps the words after "Bearer" or "Token" in prose unless they look like a credential', () => {
    for (const text of [
      'Token limit exceeded for this request',
      'Bearer token missing',
      'Basic authentication is not supported',
      'Token EXPIRED, sign in again',
    ]) {
      expect(redactCredentials(text)).toBe(text);
    }
    expect(redactCredentials('token 9f86d081884c7d65 was refused')).toBe('token *** was refused');
    expect(redactCredentials('{"Authorization": "Bearer abcdefghijk"}')).toBe(
      '{"Authorization": "Bearer ***"}',
    );
  });

  it('leaves ordinary text alone', () => {
    const text = 'Tool failed: table "users" not found at https://example.com/docs?page=2';
    expect(redactCredentials(text)).toBe(text);
  });

  it('collects environment values named like credentials', () => {
    expect(
      environmentSecrets({
        OPENAI_API_KEY: 'k-1234567',
        PATH: '/usr/bin',
        DB_PASSWORD: 'pw-123456',
      }),
    ).toEqual(['k-1234567', 'pw-123456']);
  });
});
