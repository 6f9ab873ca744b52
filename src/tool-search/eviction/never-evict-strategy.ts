import type { ToolIndexEvictionStrategy } from './tool-index-eviction-strategy.js';

/** Never evicts: session indexes live until cleared by hand (only for a bounded set of sessions). */
export class NeverEvictStrategy implements ToolIndexEvictionStrategy {
  /** {@inheritDoc ToolIndexEvictionStrategy.onAccess} */
  onAccess(_sessionId: string): ReadonlySet<string> {
    return new Set();
  }

  /** {@inheritDoc ToolIndexEvictionStrategy.onRemoved} */
  onRemoved(_sessionId: string): void {}
}
