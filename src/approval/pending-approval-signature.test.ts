import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import { checkSigningKey, MIN_SIGNING_KEY_BYTES } from './pending-approval-signature.js';

describe('checkSigningKey', () => {
  it('accepts no key, and keys of 32 bytes and more', () => {
    expect(checkSigningKey(undefined)).toBeUndefined();
    expect(checkSigningKey('k'.repeat(MIN_SIGNING_KEY_BYTES))).toBe('k'.repeat(32));
    const bytes = new Uint8Array(48);
    expect(checkSigningKey(bytes)).toBe(bytes);
  });

  // A key too short said only "must be at least 32 bytes long", so a reader who had typed a
  // password there did not learn what a key should be or how to make one.
  it('refuses a short key, saying how long it is and how to make a good one', () => {
    expect(() => checkSigningKey('secret')).toThrow(InvalidArgumentError);
    expect(() => checkSigningKey('secret')).toThrow(
      /at least 32 bytes long \(this one has 6\): .*every process resuming a turn shares.*openssl rand -base64 32/,
    );
    expect(() => checkSigningKey('')).toThrow(/this one has 0/);
  });

  it('refuses what is neither text nor bytes', () => {
    expect(() => checkSigningKey(42)).toThrow('approval.signingKey must be a string or bytes');
  });
});
