import { InvalidArgumentError } from '../errors/index.js';

/**
 * How long a used token is remembered past the expiry it was given: a state whose expiry the
 * resuming process's clock has not reached yet must still find its token when another clock (a
 * database's) has passed it.
 */
export const USED_TOKEN_GRACE_MS = 3_600_000;

/**
 * Single-use tokens in this process: {@link consume} is true the first time a token is given and
 * false after, until the token is forgotten an hour after its expiry. Expired tokens are swept as
 * new ones arrive, so the set holds only tokens that could still be presented.
 */
export class UsedTokenSet {
  readonly #forgetAt = new Map<string, number>();
  #nextSweep = 0;

  /** Marks `token` used; true when it was not used before. Synchronous, so it is atomic. */
  consume(token: string, expiresAt: Date): boolean {
    checkUsedToken(token, expiresAt);
    const now = Date.now();
    if (now >= this.#nextSweep) this.#sweep(now);
    const known = this.#forgetAt.get(token);
    if (known !== undefined && known > now) return false;
    this.#forgetAt.set(token, expiresAt.getTime() + USED_TOKEN_GRACE_MS);
    return true;
  }

  /** How many tokens are remembered. */
  get size(): number {
    return this.#forgetAt.size;
  }

  #sweep(now: number): void {
    for (const [token, forgetAt] of this.#forgetAt) {
      if (forgetAt <= now) this.#forgetAt.delete(token);
    }
    this.#nextSweep = now + 60_000;
  }
}

/**
 * Checks a token and its expiry before a store sees them (the stores are public: anything may be
 * passed): 16 to 128 base64url characters (toolloop writes 22), and a valid `Date`.
 * @throws InvalidArgumentError otherwise.
 */
export function checkUsedToken(token: unknown, expiresAt: unknown): void {
  if (typeof token !== 'string' || !/^[\w-]{16,128}$/.test(token)) {
    throw new InvalidArgumentError('an approval token must be 16 to 128 base64url characters');
  }
  if (!(expiresAt instanceof Date) || Number.isNaN(expiresAt.getTime())) {
    throw new InvalidArgumentError('an approval token needs its expiry as a valid Date');
  }
}
