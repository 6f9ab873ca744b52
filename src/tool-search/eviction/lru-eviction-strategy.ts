import { InvalidArgumentError } from '../../errors/index.js';
import type { ToolIndexEvictionStrategy } from './tool-index-eviction-strategy.js';

/** Options of {@link LruEvictionStrategy}. */
export interface LruEvictionStrategyOptions {
  /** Sessions kept; accessing one more evicts the least recently used. Default 1000. */
  readonly maxSessions?: number;
}

/** Keeps at most `maxSessions` session indexes, evicting the least recently used. */
export class LruEvictionStrategy implements ToolIndexEvictionStrategy {
  /** The number of sessions kept. */
  readonly maxSessions: number;
  // A Map iterates in insertion order; re-inserting on access makes it access-ordered.
  readonly #sessions = new Map<string, true>();

  constructor(options: LruEvictionStrategyOptions = {}) {
    const maxSessions = options.maxSessions ?? 1000;
    if (!Number.isInteger(maxSessions) || maxSessions <= 0) {
      throw new InvalidArgumentError('maxSessions must be positive');
    }
    this.maxSessions = maxSessions;
  }

  /** {@inheritDoc ToolIndexEvictionStrategy.onAccess} */
  onAccess(sessionId: string): ReadonlySet<string> {
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, true);
    const evicted = new Set<string>();
    for (const oldest of this.#sessions.keys()) {
      if (this.#sessions.size <= this.maxSessions) break;
      this.#sessions.delete(oldest);
      evicted.add(oldest);
    }
    return evicted;
  }

  /** {@inheritDoc ToolIndexEvictionStrategy.onRemoved} */
  onRemoved(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }
}
