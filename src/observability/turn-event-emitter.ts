import type { TurnEvent, TurnEventListener } from './turn-event.js';

/**
 * Hands one turn's events to its listeners, in order, isolating each listener: an error a listener
 * throws is reported on `console.error` once per listener and otherwise ignored, so observing never
 * changes what the turn does. The loop builds an event only after checking that an emitter exists
 * (`undefined` when nobody listens), so a turn without listeners builds no event objects at all.
 */
export class TurnEventEmitter {
  /** Identifies the turn; every event of it carries this id. */
  readonly turnId: string;
  readonly #listeners: readonly TurnEventListener[];

  constructor(turnId: string, listeners: readonly TurnEventListener[]) {
    this.turnId = turnId;
    this.#listeners = listeners;
  }

  /** Delivers an event to every listener; never throws. */
  emit(event: TurnEvent): void {
    const listeners = this.#listeners;
    for (let index = 0; index < listeners.length; index++) {
      const listener = listeners[index] as TurnEventListener;
      try {
        listener(event);
      } catch (error) {
        reportListenerError(listener, error);
      }
    }
  }
}

/** Listeners whose error has been reported already (one report per listener, ever). */
const reported = new WeakSet<TurnEventListener>();

function reportListenerError(listener: TurnEventListener, error: unknown): void {
  if (reported.has(listener)) return;
  reported.add(listener);
  console.error(
    'toolloop: a turn event listener threw; it stays attached, its errors are ignored',
    error,
  );
}

/**
 * The emitter of a turn with these listeners, or `undefined` when there are none (the loop then
 * builds no events).
 */
export function createTurnEventEmitter(
  turnId: string,
  listeners: readonly TurnEventListener[] | undefined,
): TurnEventEmitter | undefined {
  return listeners === undefined || listeners.length === 0
    ? undefined
    : new TurnEventEmitter(turnId, listeners);
}
