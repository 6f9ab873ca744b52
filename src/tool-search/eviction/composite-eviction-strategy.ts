import { InvalidArgumentError } from '../../errors/index.js';
import type { ToolIndexEvictionStrategy } from './tool-index-eviction-strategy.js';

/**
 * Combines strategies (e.g. LRU by count and TTL): a session is evicted when any of them says so,
 * and every strategy hears of every removal.
 */
export class CompositeEvictionStrategy implements ToolIndexEvictionStrategy {
  readonly #strategies: readonly ToolIndexEvictionStrategy[];

  constructor(strategies: readonly ToolIndexEvictionStrategy[]) {
    if (strategies === undefined || strategies.length === 0) {
      throw new InvalidArgumentError('at least one strategy is required');
    }
    this.#strategies = [...strategies];
  }

  /** {@inheritDoc ToolIndexEvictionStrategy.onAccess} */
  onAccess(sessionId: string): ReadonlySet<string> {
    const evicted = new Set<string>();
    for (const strategy of this.#strategies) {
      for (const id of strategy.onAccess(sessionId)) evicted.add(id);
    }
    return evicted;
  }

  /** {@inheritDoc ToolIndexEvictionStrategy.onRemoved} */
  onRemoved(sessionId: string): void {
    for (const strategy of this.#strategies) strategy.onRemoved(sessionId);
  }
}
