import type { ChatClientResponse } from '../advisors/index.js';
import { AbortError } from '../errors/index.js';
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
export async function* streamTurnEvents(
  execute: RunWithListener,
): AsyncGenerator<TurnEvent, undefined, undefined> {
  const controller = new AbortController();
  const queue: TurnEvent[] = [];
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  let sawTurnEnd = false;
  const listener: TurnEventListener = (event) => {
    if (event.type === 'turn-finish' || event.type === 'turn-error') sawTurnEnd = true;
    queue.push(event);
    wakeUp();
  };
  let finished = false;
  let failure: { error: unknown } | undefined;
  const run = (async () => {
    for await (const _chunk of execute({ listener, signal: controller.signal })) {
      // The chunks' text reaches the reader as `text-delta` events.
    }
  })().then(
    () => {
      finished = true;
      wakeUp();
    },
    (error: unknown) => {
      finished = true;
      failure = { error };
      wakeUp();
    },
  );
  try {
    for (;;) {
      while (queue.length > 0) yield queue.shift() as TurnEvent;
      if (finished) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    // A failure the turn reported as its `turn-error` event has been delivered as that event.
    if (failure !== undefined && !sawTurnEnd) throw failure.error;
  } finally {
    if (!finished) {
      controller.abort(new AbortError('The events stream was closed by its reader'));
      await run;
    }
  }
  return undefined;
}
