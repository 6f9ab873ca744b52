import { AbortError } from '../errors/index.js';

/** Fails with toolloop's `AbortError` (the signal's reason as its cause) once the caller aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
}
