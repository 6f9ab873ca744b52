/**
 * Decides which sessions' indexes to drop. The advisor calls `onAccess` once per request with the
 * session it serves and clears the index of every session id returned; `onRemoved` tells the
 * strategy a session is gone (evicted, or cleared by hand).
 */
export interface ToolIndexEvictionStrategy {
  /** Records an access to `sessionId`; returns the sessions to evict now. */
  onAccess(sessionId: string): ReadonlySet<string>;
  /** Forgets a session that was removed. */
  onRemoved(sessionId: string): void;
}
