import { InvalidArgumentError, MemoryError } from '../errors/index.js';

/** What a backend names in a {@link MemoryError}. */
export interface StoreOperation {
  backend: string;
  /** What was attempted, e.g. `'append'`; goes into the error message (never message contents). */
  operation: string;
  conversationId?: string;
  /** Fails the operation with a `MemoryError` when it takes longer; `0` or absent waits forever. */
  timeoutMs?: number;
}

/**
 * Runs one store operation and turns every failure (driver error, timeout) into a `MemoryError`
 * whose message names only the backend and the operation. Argument errors pass through unchanged.
 */
export async function runStoreOperation<T>(
  operation: StoreOperation,
  run: () => Promise<T> | T,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const work = Promise.resolve().then(run);
    if (!operation.timeoutMs || operation.timeoutMs <= 0) return await work;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new MemoryError({
              backend: operation.backend,
              conversationId: operation.conversationId,
              message: `${operation.backend} chat memory ${operation.operation} timed out after ${operation.timeoutMs} ms`,
            }),
          ),
        operation.timeoutMs,
      );
    });
    work.catch(() => {});
    return await Promise.race([work, timeout]);
  } catch (error) {
    if (error instanceof MemoryError || error instanceof InvalidArgumentError) throw error;
    throw new MemoryError({
      backend: operation.backend,
      conversationId: operation.conversationId,
      message: `${operation.backend} chat memory ${operation.operation} failed`,
      cause: error,
    });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
