import { InvalidArgumentError, MemoryError } from '../errors/index.js';
import { LongTimeout } from '../internal/long-timeout.js';

/** What a backend names in a {@link MemoryError}. */
export interface StoreOperation {
  backend: string;
  /** What was attempted, e.g. `'append'`; goes into the error message (never message contents). */
  operation: string;
  conversationId?: string;
  /**
   * Fails the operation with a `MemoryError` when it takes longer (any length, kept exactly);
   * `0`, `Infinity` or absent waits forever.
   */
  timeoutMs?: number;
  /**
   * True when the store refuses a write that reaches it after the deadline, so a write in flight
   * at the timeout took effect before the caller's error or never will.
   */
  fenced?: boolean;
}

/**
 * One store operation as its body sees it: the deadline, and what stops the body once the caller
 * has been answered. A body calls {@link checkpoint} before it sends anything to the store and
 * sends every write through {@link write}, so that after a timeout nothing more is sent and the
 * error can say whether a write might have taken effect.
 */
export class StoreOperationScope {
  /** When the operation times out, on the `performance.now()` clock; `undefined`: never. */
  readonly deadline: number | undefined;
  // Both made on first use: nearly every operation ends without looking at them, and an
  // AbortController plus an 'abort' listener cost more than the rest of an operation's bookkeeping.
  #controller: AbortController | undefined;
  #onExpire: (() => void)[] | undefined;
  #failure: MemoryError | undefined;
  #writesInFlight = 0;
  #writeFailed = false;

  constructor(deadline: number | undefined) {
    this.deadline = deadline;
  }

  /** Aborted when the operation times out. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#failure !== undefined) this.#controller.abort(this.#failure);
    }
    return this.#controller.signal;
  }

  /** True once the caller has been told the operation timed out. */
  get expired(): boolean {
    return this.#failure !== undefined;
  }

  /**
   * Runs `callback` when the operation times out, right after {@link expired} turns true and
   * before the caller is answered (at once when it already has). What an `'abort'` listener on
   * {@link signal} would do, at a fraction of its cost.
   */
  onExpire(callback: () => void): void {
    if (this.#failure !== undefined) {
      callback();
      return;
    }
    if (this.#onExpire === undefined) this.#onExpire = [callback];
    else this.#onExpire.push(callback);
  }

  /** Milliseconds left before the deadline (at least 0); `undefined` when there is none. */
  remaining(): number | undefined {
    return this.deadline === undefined ? undefined : Math.max(0, this.deadline - performance.now());
  }

  /** Throws the timeout error once the operation timed out: nothing may be sent after it. */
  checkpoint(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Sends a write: while one is in flight (or after one failed) the outcome is unknown. */
  async write<T>(send: () => Promise<T>): Promise<T> {
    this.checkpoint();
    this.#writesInFlight++;
    try {
      return await send();
    } catch (error) {
      this.#writeFailed = true;
      throw error;
    } finally {
      this.#writesInFlight--;
    }
  }

  /** Whether a failure now leaves the conversation unchanged or unknown. */
  get outcome(): 'unchanged' | 'unknown' {
    return this.#writesInFlight > 0 || this.#writeFailed ? 'unknown' : 'unchanged';
  }

  /**
   * Ends the operation with `failure`: later checkpoints throw it, the {@link onExpire} callbacks
   * run, `signal` aborts. A callback that throws is reported as an uncaught exception, as an
   * `'abort'` listener's would be, and the others still run.
   */
  expire(failure: MemoryError): void {
    this.#failure = failure;
    const callbacks = this.#onExpire;
    this.#onExpire = undefined;
    for (const callback of callbacks ?? []) {
      try {
        callback();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    this.#controller?.abort(failure);
  }
}

/**
 * Runs one store operation and turns every failure (driver error, timeout) into a `MemoryError`
 * whose message names only the backend and the operation, and whose `outcome` says whether a
 * write might have taken effect. On a timeout the caller is answered at once and the scope
 * expires, which stops the body at its next checkpoint. Argument errors pass through unchanged.
 */
export async function runStoreOperation<T>(
  operation: StoreOperation,
  run: (scope: StoreOperationScope) => Promise<T> | T,
): Promise<T> {
  const limit = operation.timeoutMs;
  const timeoutMs =
    limit !== undefined && limit > 0 && limit !== Number.POSITIVE_INFINITY ? limit : 0;
  const scope = new StoreOperationScope(timeoutMs > 0 ? performance.now() + timeoutMs : undefined);
  let timer: LongTimeout | undefined;
  try {
    const work = Promise.resolve().then(() => run(scope));
    if (timeoutMs === 0) return await work;
    // One promise settled by whichever comes first, rather than a timeout promise and a race.
    return await new Promise<T>((resolve, reject) => {
      timer = new LongTimeout(() => {
        const failure = timeoutError(operation, timeoutMs, scope.outcome);
        scope.expire(failure);
        reject(failure);
      }, timeoutMs);
      work.then(resolve, reject);
    });
  } catch (error) {
    if (error instanceof MemoryError || error instanceof InvalidArgumentError) throw error;
    const outcome = scope.outcome;
    throw new MemoryError({
      backend: operation.backend,
      conversationId: operation.conversationId,
      outcome,
      message: `${operation.backend} chat memory ${operation.operation} failed${describe(operation, outcome)}`,
      cause: error,
    });
  } finally {
    timer?.clear();
  }
}

function timeoutError(
  operation: StoreOperation,
  timeoutMs: number,
  outcome: 'unchanged' | 'unknown',
): MemoryError {
  return new MemoryError({
    backend: operation.backend,
    conversationId: operation.conversationId,
    outcome,
    message: `${operation.backend} chat memory ${operation.operation} timed out after ${timeoutMs} ms${describe(operation, outcome)}`,
  });
}

function describe(operation: StoreOperation, outcome: 'unchanged' | 'unknown'): string {
  if (outcome === 'unchanged') return '; the conversation is unchanged';
  return operation.fenced
    ? ' with a write in flight: it took effect before this error or never will (read the conversation to know)'
    : ' with a write in flight: it may still take effect (read the conversation to know)';
}
