import { ToolloopError } from './toolloop-error.js';

/**
 * A chat-memory store failed. `outcome` says what became of the conversation: `'unchanged'`
 * (nothing of the failed operation was stored, ever) or `'unknown'` (a write was in flight when
 * the operation failed or timed out: read the conversation to know; the message says whether it
 * can still take effect).
 */
export class MemoryError extends ToolloopError {
  /** Backend name, e.g. `'sqlite'`, `'redis'`, `'postgres'`, `'in-memory'`. */
  readonly backend: string;
  readonly conversationId: string | undefined;
  /** What the failed operation left stored. */
  readonly outcome: 'unchanged' | 'unknown';

  constructor(options: {
    backend: string;
    message: string;
    conversationId?: string;
    /** Default `'unchanged'`. */
    outcome?: 'unchanged' | 'unknown';
    cause?: unknown;
  }) {
    super({ code: 'MEMORY_FAILED', message: options.message, cause: options.cause });
    this.backend = options.backend;
    this.conversationId = options.conversationId;
    this.outcome = options.outcome ?? 'unchanged';
  }
}
