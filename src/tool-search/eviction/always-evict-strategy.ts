import type { ToolIndexEvictionStrategy } from './tool-index-eviction-strategy.js';

/** Evicts the accessed session itself: every request re-indexes its tools (for tests and tools that change every call). */
export class AlwaysEvictStrategy implements ToolIndexEvictionStrategy {
  /** {@inheritDoc ToolIndexEvictionStrategy.onAccess} */
  onAccess(sessionId: string): ReadonlySet<string> {
    return new Set([sessionId]);
  }

  /** {@inheritDoc ToolIndexEvictionStrategy.onRemoved} */
  onRemoved(_sessionId: string): void {}
}
