import { InvalidArgumentError } from '../../errors/index.js';
import type { ToolIndexEvictionStrategy } from './tool-index-eviction-strategy.js';

/** Options of {@link TtlEvictionStrategy}. */
export interface TtlEvictionStrategyOptions {
  /** A session idle this long (milliseconds) is evicted at the next access of another session. */
  readonly ttlMs: number;
  /** The clock, in milliseconds; `Date.now` by default (tests pass their own). */
  readonly now?: () => number;
}

/**
 * Evicts sessions idle for at least `ttlMs`. Checked lazily on each access (no timer keeps the
 * process alive); the session being accessed is never evicted.
 */
export class TtlEvictionStrategy implements ToolIndexEvictionStrategy {
  /** The idle time after which a session is evicted, in milliseconds. */
  readonly ttlMs: number;
  readonly #now: () => number;
  // Access-ordered, oldest first, so the scan stops at the first session still fresh.
  readonly #lastAccess = new Map<string, number>();

  constructor(options: TtlEvictionStrategyOptions) {
    if (options?.ttlMs === undefined || options.ttlMs === null) {
      throw new InvalidArgumentError('ttl must not be null');
    }
    if (!(options.ttlMs > 0)) throw new InvalidArgumentError('ttl must be positive');
    this.ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
  }

  /** {@inheritDoc ToolIndexEvictionStrategy.onAccess} */
  onAccess(sessionId: string): ReadonlySet<string> {
    const now = this.#now();
    this.#lastAccess.delete(sessionId);
    const evicted = new Set<string>();
    for (const [other, lastAccess] of this.#lastAccess) {
      if (now - lastAccess < this.ttlMs) break;
      evicted.add(other);
    }
    for (const other of evicted) this.#lastAccess.delete(other);
    this.#lastAccess.set(sessionId, now);
    return evicted;
  }

  /** {@inheritDoc ToolIndexEvictionStrategy.onRemoved} */
  onRemoved(sessionId: string): void {
    this.#lastAccess.delete(sessionId);
  }
}
