import { InvalidArgumentError } from '../errors/index.js';

/**
 * When `ToolSearchToolCallingAdvisor` drops a session's tool index (its `eviction` option). Spring
 * AI's `ToolIndexEvictionStrategy` classes are these settings:
 *
 * - `LruEvictionStrategy(n)`: `{ maxSessions: n }` (the default keeps 1,000 sessions);
 * - `TtlEvictionStrategy(ttl)`: `{ ttlMs: ttl, maxSessions: Infinity }`;
 * - `CompositeEvictionStrategy(lru, ttl)`: both fields;
 * - `AlwaysEvictStrategy`: `{ maxSessions: 0 }` (every request indexes its tools again);
 * - `NeverEvictStrategy`: `{ maxSessions: Infinity }`.
 */
export interface SessionEvictionOptions {
  /**
   * Sessions kept; a request for one more evicts the least recently used. `0` keeps none (the
   * session of the request itself is evicted before its tools are indexed again), `Infinity`
   * keeps all. Default 1000.
   */
  readonly maxSessions?: number;
  /** A session idle for at least this long is evicted at the next request of another session. */
  readonly ttlMs?: number;
  /** The clock, in milliseconds (tests). Default `Date.now`. */
  readonly now?: () => number;
}

/** The sessions one advisor (and its copies) tracks: which indexes to drop, and when. */
export interface SessionEviction {
  /** Records a request of `sessionId`; returns the sessions to evict now. */
  onAccess(sessionId: string): ReadonlySet<string>;
  /** Forgets a session that was removed (evicted, or cleared by hand). */
  onRemoved(sessionId: string): void;
}

/** The default: the 1,000 most recently used sessions keep their index. */
export const DEFAULT_SESSION_EVICTION: SessionEvictionOptions = Object.freeze({
  maxSessions: 1000,
});

/**
 * Tracks sessions under `options`: least recently used first past `maxSessions`, and every other
 * session idle for `ttlMs` or longer.
 *
 * @throws InvalidArgumentError when `maxSessions` is negative or fractional, or `ttlMs` is not positive.
 */
export function sessionEviction(options: SessionEvictionOptions = {}): SessionEviction {
  const maxSessions = options.maxSessions ?? DEFAULT_SESSION_EVICTION.maxSessions ?? 1000;
  if (!(maxSessions === Infinity || (Number.isInteger(maxSessions) && maxSessions >= 0))) {
    throw new InvalidArgumentError(
      `eviction.maxSessions must be a whole number ≥ 0 or Infinity, got ${maxSessions}`,
    );
  }
  const ttlMs = options.ttlMs;
  if (ttlMs !== undefined && !(ttlMs > 0)) {
    throw new InvalidArgumentError(`eviction.ttlMs must be positive, got ${ttlMs}`);
  }
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order; re-inserting on access keeps it ordered oldest first, so
  // both scans stop at the first session that stays.
  const lastAccess = new Map<string, number>();
  return {
    onAccess(sessionId) {
      const time = now();
      lastAccess.delete(sessionId);
      const evicted = new Set<string>();
      if (ttlMs !== undefined) {
        for (const [other, accessed] of lastAccess) {
          if (time - accessed < ttlMs) break;
          evicted.add(other);
        }
        for (const other of evicted) lastAccess.delete(other);
      }
      lastAccess.set(sessionId, time);
      for (const oldest of lastAccess.keys()) {
        if (lastAccess.size <= maxSessions) break;
        lastAccess.delete(oldest);
        evicted.add(oldest);
      }
      return evicted;
    },
    onRemoved(sessionId) {
      lastAccess.delete(sessionId);
    },
  };
}
