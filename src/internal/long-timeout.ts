/**
 * The longest delay `setTimeout` honours (about 24.8 days). Node fires a longer one, and a
 * non-finite one, after 1 ms (with a `TimeoutOverflowWarning`): a "30 days" limit would end its
 * operation at once.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Options of {@link LongTimeout}. */
export interface LongTimeoutOptions {
  /** The timer does not keep the process alive (`Timeout.unref()`). Default `false`. */
  unref?: boolean;
}

/**
 * `setTimeout` for any delay: `onFire` runs once, `delayMs` from now. A delay up to
 * {@link MAX_TIMER_DELAY_MS} is one timer; a longer one is a chain of timers, each re-armed for
 * what is left of the delay on the monotonic clock; `Infinity` never fires and holds no timer.
 * Every limit a user configures in milliseconds goes through this, so a long limit means long.
 */
export class LongTimeout {
  readonly #onFire: () => void;
  readonly #unref: boolean;
  /** `performance.now()` at which the chain ends; only set for a chained delay. */
  readonly #deadline: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Starts the countdown. `delayMs` is a number of milliseconds ≥ 0, or `Infinity`. */
  constructor(onFire: () => void, delayMs: number, options: LongTimeoutOptions = {}) {
    this.#onFire = onFire;
    this.#unref = options.unref === true;
    if (delayMs === Number.POSITIVE_INFINITY) return;
    const delay = Math.max(0, delayMs || 0);
    if (delay <= MAX_TIMER_DELAY_MS) {
      this.#arm(this.#fire, delay);
      return;
    }
    this.#deadline = performance.now() + delay;
    this.#arm(this.#step, MAX_TIMER_DELAY_MS);
  }

  /** Whether a timer is armed: `false` for `Infinity`, after it fired, and after {@link clear}. */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** Stops the countdown; `onFire` will not run. */
  clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #step = (): void => {
    const left = (this.#deadline as number) - performance.now();
    if (left > MAX_TIMER_DELAY_MS) this.#arm(this.#step, MAX_TIMER_DELAY_MS);
    else this.#arm(this.#fire, Math.max(0, left));
  };

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.#onFire();
  };

  #arm(callback: () => void, delay: number): void {
    const timer = setTimeout(callback, delay);
    if (this.#unref) timer.unref?.();
    this.#timer = timer;
  }
}

/**
 * Resolves after `ms` (any delay, `Infinity` included: see {@link LongTimeout}), or as soon as
 * `signal` aborts; never rejects.
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      timer.clear();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = new LongTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
