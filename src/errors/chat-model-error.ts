import { ToolloopError } from './toolloop-error.js';

/** A provider request failed. The message never contains the API key or tool-context values. */
export class ChatModelError extends ToolloopError {
  /** Provider name, e.g. `'openai'` or `'anthropic'`. */
  readonly provider: string;
  /** HTTP status, when the failure was an HTTP response. */
  readonly status: number | undefined;
  /** Whether retrying the same request may succeed. */
  readonly retryable: boolean;

  constructor(options: {
    provider: string;
    message: string;
    status?: number;
    retryable: boolean;
    cause?: unknown;
  }) {
    super({ code: 'CHAT_MODEL_FAILED', message: options.message, cause: options.cause });
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable;
  }
}
