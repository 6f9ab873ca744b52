import { ToolloopError } from './toolloop-error.js';

/** A chat-memory store failed; the conversation is left as it was before the failed operation. */
export class MemoryError extends ToolloopError {
  /** Backend name, e.g. `'sqlite'`, `'redis'`, `'postgres'`, `'in-memory'`. */
  readonly backend: string;
  readonly conversationId: string | undefined;

  constructor(options: {
    backend: string;
    message: string;
    conversationId?: string;
    cause?: unknown;
  }) {
    super({ code: 'MEMORY_FAILED', message: options.message, cause: options.cause });
    this.backend = options.backend;
    this.conversationId = options.conversationId;
  }
}
