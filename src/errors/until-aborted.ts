import { AbortError } from './abort-error.js';

/**
 * `promise`, or toolloop's `AbortError` (the signal's reason as its cause) as soon as `signal`
 * aborts, for waits the caller must be able to leave even when the work behind them cannot be
 * stopped: that work goes on, and its outcome is then ignored.
 */
export function untilAborted<T>(
  promise: PromiseLike<T> | T,
  signal: AbortSignal | undefined,
): Promise<T> {
  if (signal === undefined) return Promise.resolve(promise);
  if (signal.aborted) {
    Promise.resolve(promise).catch(() => {});
    return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError(undefined, { cause: signal.reason }));
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
