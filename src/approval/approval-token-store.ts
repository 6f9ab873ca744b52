import { UsedTokenSet } from '../internal/used-token-set.js';

/**
 * Where the single-use tokens of pending approval states are marked used (`approval.tokenStore`).
 * Every chat memory repository of toolloop is one (in-memory, SQLite, Redis, PostgreSQL), so the
 * store a deployment already has serves: pass your repository.
 */
export interface ApprovalTokenStore {
  /**
   * Marks `token` used and returns true, or returns false when it was used before. Atomic across
   * every process that shares the store: of concurrent calls with one token, exactly one gets
   * true. The token must be remembered at least until `expiresAt` (the state's own expiry; after
   * it the state is refused as expired anyway).
   */
  consumeApprovalToken(token: string, expiresAt: Date): Promise<boolean>;
}

/**
 * The store used when `approval.tokenStore` is not set: one set for the whole process. It catches
 * a replay within this process only; with several processes, or a restart between the pause and
 * the replay, give a shared store.
 */
export const processApprovalTokens: ApprovalTokenStore = (() => {
  const used = new UsedTokenSet();
  return {
    consumeApprovalToken: async (token: string, expiresAt: Date) => used.consume(token, expiresAt),
  };
})();
