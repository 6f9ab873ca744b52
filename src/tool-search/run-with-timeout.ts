import { throwIfAborted } from '../errors/index.js';

/** A tool index or its embedding model did not answer in time. */
export class ToolIndexTimeoutError extends Error {
  override readonly name = 'ToolIndexTimeoutError';
}

/**
 * Runs `run` with a signal that aborts when `outer` aborts or after `ms`; rejects with a
 * {@link ToolIndexTimeoutError} at the timeout (and with the abort reason on an outer abort)
 * without waiting for `run` to notice its signal.
 */
export async function runWithTimeout<T>(
  run: (signal: AbortSignal) => T | Promise<T>,
  ms: number,
  timeoutMessage: string,
  outer?: AbortSignal,
): Promise<T> {
  throwIfAborted(outer);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ToolIndexTimeoutError(timeoutMessage);
      controller.abort(error);
      reject(error);
    }, ms);
    if (outer !== undefined) {
      onAbort = () => {
        controller.abort(outer.reason);
        reject(outer.reason);
      };
      outer.addEventListener('abort', onAbort, { once: true });
    }
  });
  try {
    return await Promise.race([Promise.resolve().then(() => run(controller.signal)), stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) outer?.removeEventListener('abort', onAbort);
  }
}

/**
 * How `work` stands after waiting at most `ms` for it (it is never aborted): `'done'`, the error
 * it failed with, or `'running'`. Rejects only when `signal` aborts the wait.
 */
export async function settledWithin(
  work: Promise<unknown>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<'done' | 'running' | { error: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const running = new Promise<'running'>((resolve) => {
    timer = setTimeout(resolve, ms, 'running');
  });
  try {
    return await runWithTimeout(
      () =>
        Promise.race([
          work.then(
            () => 'done' as const,
            (error: unknown) => ({ error }),
          ),
          running,
        ]),
      // The race above decides; this only passes the caller's abort through.
      ms + 60_000,
      'unreachable',
      signal,
    );
  } finally {
    clearTimeout(timer);
  }
}
