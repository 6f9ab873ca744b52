import { LongTimeout } from './long-timeout.js';

/** Which limit ended an attempt. */
export type ExpiredLimit = 'call' | 'attempt' | 'idle';

/** The limits one attempt runs under. */
export interface AttemptLimits {
  /** `performance.now()` value at which the whole call (every attempt and wait) must be over. */
  callDeadlineAt: number;
  /** Longest duration of this attempt alone. `Infinity`: only the call's deadline. */
  attemptTimeoutMs: number;
  /** Longest wait for progress once {@link AttemptClock.progress} was first called. */
  idleTimeoutMs: number;
}

/**
 * One attempt's cancellation: aborted by the caller's signal, by the call's deadline, by the
 * attempt's own deadline, or when no progress arrives for the idle limit. The two deadlines are
 * fixed when the attempt starts and are never pushed back; only the idle countdown restarts, and
 * only when the caller reports progress (a stream event that carries data), never on raw bytes.
 */
export class AttemptClock {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #idleTimeoutMs: number;
  #expired: ExpiredLimit | undefined;
  #deadlineTimer: LongTimeout | undefined;
  #idleTimer: LongTimeout | undefined;
  readonly #onCallerAbort = () => this.#controller.abort();

  constructor(caller: AbortSignal | undefined, limits: AttemptLimits) {
    this.#caller = caller;
    this.#idleTimeoutMs = limits.idleTimeoutMs;
    if (caller?.aborted) this.#controller.abort();
    caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
    const untilCallDeadline = Math.max(0, limits.callDeadlineAt - performance.now());
    const limit: ExpiredLimit = limits.attemptTimeoutMs < untilCallDeadline ? 'attempt' : 'call';
    this.#deadlineTimer = this.#timer(Math.min(limits.attemptTimeoutMs, untilCallDeadline), limit);
  }

  /** Aborted when the caller aborts or a limit expires. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The limit that ended the attempt, if one did. */
  get expired(): ExpiredLimit | undefined {
    return this.#expired;
  }

  /** Starts, or starts over, the idle countdown. */
  progress(): void {
    this.#idleTimer?.clear();
    if (this.#expired === undefined) this.#idleTimer = this.#timer(this.#idleTimeoutMs, 'idle');
  }

  /** Aborts the attempt's request now (its answer is complete; what is left of it is not wanted). */
  abandon(): void {
    this.#controller.abort();
  }

  /** Stops the timers and lets go of the caller's signal. */
  dispose(): void {
    this.#deadlineTimer?.clear();
    this.#idleTimer?.clear();
    this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }

  #timer(delayMs: number, limit: ExpiredLimit): LongTimeout {
    // The request's socket keeps the process alive while it runs; the timer alone must not
    // (a stream its consumer abandoned would otherwise hold the process for the whole deadline).
    return new LongTimeout(
      () => {
        if (this.#controller.signal.aborted) return;
        this.#expired = limit;
        this.#controller.abort();
      },
      delayMs,
      { unref: true },
    );
  }
}
