import { AbortError } from './abort-error.js';

/**
 * Fails with toolloop's `AbortError` (the signal's reason as its cause) once the caller aborted,
 * so an abort before the turn starts and one in the middle of it reject with the same error
 * (`AbortSignal.throwIfAborted` would throw the platform's `DOMException`).
 */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
}
