import { redactTurnEvent } from '../observability/redact-turn-event.js';
import type { TurnEvent, TurnEventListener } from '../observability/turn-event.js';

/** Options of {@link TurnEventRecorder}. */
export interface TurnEventRecorderOptions {
  /**
   * Keep tool arguments and results, answer text, text deltas, progress values and error
   * messages. Off by default: a recording is meant to be written to a file.
   */
  recordContent?: boolean;
  /** Stop recording after this many events (the oldest are kept). Default 100 000. */
  maxEvents?: number;
}

/** The `format` field of a recording written by {@link TurnEventRecorder.toJSON}. */
export const TURN_EVENT_RECORDING_FORMAT = 'toolloop-turn-events';

/**
 * Collects turn events (of one turn or a whole conversation) for a trace page or a file:
 * register `recorder.listener` as a turn event listener, then pass `recorder.events` to
 * `renderTracePage`, or write `recorder.toJSON()` to a file for `toolloop trace <file>`.
 */
export class TurnEventRecorder {
  readonly #events: TurnEvent[] = [];
  readonly #recordContent: boolean;
  readonly #maxEvents: number;
  #dropped = 0;

  constructor(options: TurnEventRecorderOptions = {}) {
    this.#recordContent = options.recordContent === true;
    this.#maxEvents = options.maxEvents ?? 100_000;
  }

  /** The listener to register; it records every event it receives. */
  readonly listener: TurnEventListener = (event) => {
    const kept = this.#recordContent ? event : redactTurnEvent(event);
    if (kept === undefined) return;
    if (this.#events.length >= this.#maxEvents) {
      this.#dropped++;
      return;
    }
    this.#events.push(kept);
  };

  /** The events recorded so far, in the order they happened. */
  get events(): readonly TurnEvent[] {
    return this.#events;
  }

  /** How many events were not kept because `maxEvents` was reached. */
  get droppedEvents(): number {
    return this.#dropped;
  }

  /** Forgets every recorded event. */
  clear(): void {
    this.#events.length = 0;
    this.#dropped = 0;
  }

  /** The recording as JSON text (`{ format, version, events }`), as `toolloop trace` reads it. */
  toJSON(): string {
    return JSON.stringify({
      format: TURN_EVENT_RECORDING_FORMAT,
      version: 1,
      events: this.#events,
    });
  }
}
