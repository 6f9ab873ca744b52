import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidArgumentError } from '../errors/index.js';
import { canonicalJson } from './canonical-json.js';
import type { PendingToolApproval } from './pending-tool-approval.js';

/** Shortest accepted signing key, in bytes (the HMAC-SHA-256 output size). */
export const MIN_SIGNING_KEY_BYTES = 32;

/**
 * Checks a signing key once, where it is configured: a string or bytes of at least
 * {@link MIN_SIGNING_KEY_BYTES} bytes.
 * @throws InvalidArgumentError for anything else.
 */
export function checkSigningKey(key: unknown): string | Uint8Array | undefined {
  if (key === undefined) return undefined;
  const length =
    typeof key === 'string'
      ? Buffer.byteLength(key)
      : key instanceof Uint8Array
        ? key.byteLength
        : -1;
  if (length < 0) throw new InvalidArgumentError('approval.signingKey must be a string or bytes');
  if (length < MIN_SIGNING_KEY_BYTES) {
    throw new InvalidArgumentError(
      `approval.signingKey must be at least ${MIN_SIGNING_KEY_BYTES} bytes long (this one has ${length}): ` +
        'use a random secret that every process resuming a turn shares, kept in your secret store ' +
        '(make one with: openssl rand -base64 32)',
    );
  }
  return key as string | Uint8Array;
}

/** HMAC-SHA-256 (base64url) over the canonical JSON of the state without its signature. */
export function signPendingApproval(
  state: Omit<PendingToolApproval, 'signature'>,
  key: string | Uint8Array,
): string {
  const { signature: _ignored, ...unsigned } = state as PendingToolApproval;
  return createHmac('sha256', key).update(canonicalJson(unsigned)).digest('base64url');
}

/** Whether the state's signature is the one `key` gives it (compared in constant time). */
export function hasValidSignature(state: PendingToolApproval, key: string | Uint8Array): boolean {
  if (typeof state.signature !== 'string') return false;
  const expected = Buffer.from(signPendingApproval(state, key));
  const given = Buffer.from(state.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
