import type { ChatClientResponse } from '../advisors/index.js';
import { AbortError } from '../errors/index.js';
import { DONE } from '../internal/read-through.js';
import type { TurnEvent, TurnEventListener } from '../observability/turn-event.js';

/** Runs one stream with an extra listener and signal (see `StreamResponseSpec.events()`). */
type RunWithListener = (run: {
  listener: TurnEventListener;
  signal: AbortSignal;
}) => AsyncIterable<ChatClientResponse>;

/**
 * One run of the request as its events. The run's chunks are consumed here, as fast as the chain
 * produces them; the events they cause are queued for the reader. Stopping early aborts the run's
 * own signal (the model call and running tools see it) and waits for the run to wind down.
 */
export function streamTurnEvents(
  execute: RunWithListener,
): AsyncIterator<TurnEvent, undefined, undefined> {
  return new TurnEventIterator(execute);
}

/**
 * The iteration of {@link streamTurnEvents}. Like an async generator it starts the run on the
 * first `next` and does nothing if stopped before. Hand-written rather than an async generator on
 * purpose: a queued event is handed out as a resolved promise instead of resuming a generator
 * (measured with the bench workload read through `.events()`, same-process A/B: 146 → 123 KB
 * allocated and 212 → 186 µs CPU per conversation).
 */
class TurnEventIterator implements AsyncIterator<TurnEvent, undefined, undefined> {
  readonly #execute: RunWithListener;
  readonly #queue: TurnEvent[] = [];
  #controller: AbortController | undefined;
  #run: Promise<void> | undefined;
  /** The reader's `next` waiting for an event or the run's end. */
  #wake: (() => void) | undefined;
  #sawTurnEnd = false;
  /** The run has ended (`#failure` says how). */
  #finished = false;
  #failure: { error: unknown } | undefined;
  /** The reader has seen the end, or stopped: nothing more is handed out. */
  #closed = false;

  constructor(execute: RunWithListener) {
    this.#execute = execute;
  }

  next(): Promise<IteratorResult<TurnEvent, undefined>> {
    if (this.#run === undefined && !this.#closed) this.#start();
    return this.#pull();
  }

  async return(): Promise<IteratorResult<TurnEvent, undefined>> {
    if (this.#closed) return DONE;
    this.#closed = true;
    this.#queue.length = 0;
    if (this.#run !== undefined && !this.#finished) {
      this.#controller?.abort(new AbortError('The events stream was closed by its reader'));
      await this.#run;
    }
    return DONE;
  }

  #start(): void {
    const controller = new AbortController();
    this.#controller = controller;
    const listener: TurnEventListener = (event) => {
      if (event.type === 'turn-finish' || event.type === 'turn-error') this.#sawTurnEnd = true;
      if (this.#closed) return;
      this.#queue.push(event);
      this.#wakeUp();
    };
    this.#run = consumeAll(this.#execute({ listener, signal: controller.signal })).then(
      () => this.#end(undefined),
      (error: unknown) => this.#end({ error }),
    );
  }

  #pull(): Promise<IteratorResult<TurnEvent, undefined>> {
    const queue = this.#queue;
    if (queue.length > 0)
      return Promise.resolve({ done: false, value: queue.shift() as TurnEvent });
    if (this.#closed) return Promise.resolve(DONE);
    if (this.#finished) {
      this.#closed = true;
      const failure = this.#failure;
      // A failure the turn reported as its `turn-error` event has been delivered as that event.
      if (failure !== undefined && !this.#sawTurnEnd) return Promise.reject(failure.error);
      return Promise.resolve(DONE);
    }
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    }).then(() => this.#pull());
  }

  #end(failure: { error: unknown } | undefined): void {
    this.#finished = true;
    this.#failure = failure;
    this.#wakeUp();
  }

  #wakeUp(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    this.#wake = undefined;
    wake();
  }
}

/** Reads a run's chunks to the end: their text reaches the reader as `text-delta` events. */
async function consumeAll(chunks: AsyncIterable<ChatClientResponse>): Promise<void> {
  for await (const _chunk of chunks) {
    // The events were queued by the listener.
  }
}
