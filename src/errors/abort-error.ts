import { ToolloopError } from './toolloop-error.js';

/** The caller's `AbortSignal` fired. `name` is `'AbortError'` as for DOM aborts. */
export class AbortError extends ToolloopError {
  constructor(message = 'The operation was aborted', options: { cause?: unknown } = {}) {
    super({ code: 'ABORTED', message, cause: options.cause });
    this.name = 'AbortError';
  }
}

/** True for toolloop's, the DOM's and Node's abort errors alike. */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}
