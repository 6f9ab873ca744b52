import type { TurnEventListener } from '../observability/turn-event.js';
import { createTurnEventEmitter } from '../observability/turn-event-emitter.js';
import type { ToolSearchFallback } from './tool-search-fallback.js';

/**
 * Turns the fallbacks of one turn's tool search into `tool-search-fallback` events for the turn's
 * listeners. The indexing at the start of the turn runs before the loop gives the turn its id, so
 * what it reports waits until {@link start} is told the id (the first round).
 */
export class ToolSearchFallbackReporter {
  readonly #listeners: readonly TurnEventListener[] | undefined;
  #turnId: string | undefined;
  #iteration = 0;
  readonly #waiting: ToolSearchFallback[] = [];

  constructor(listeners: readonly TurnEventListener[] | undefined) {
    this.#listeners = listeners;
  }

  /** The round `iteration` of turn `turnId` begins; reports what waited for the id. */
  start(turnId: string, iteration: number): void {
    this.#turnId = turnId;
    for (const fallback of this.#waiting.splice(0)) this.#emit(fallback, 0, undefined);
    this.#iteration = iteration;
  }

  /** Reports a fallback of the current round (of the search tool call `toolCallId`, if any). */
  report = (fallback: ToolSearchFallback, toolCallId?: string): void => {
    if (this.#turnId === undefined) this.#waiting.push(fallback);
    else this.#emit(fallback, this.#iteration, toolCallId);
  };

  #emit(fallback: ToolSearchFallback, iteration: number, toolCallId: string | undefined): void {
    const events = createTurnEventEmitter(this.#turnId as string, this.#listeners);
    events?.emit({
      type: 'tool-search-fallback',
      turnId: events.turnId,
      timestamp: Date.now(),
      iteration,
      phase: fallback.phase,
      ...(toolCallId === undefined ? {} : { toolCallId }),
      source: fallback.source,
      reason: fallback.reason,
      ...(fallback.error === undefined ? {} : { error: fallback.error }),
    });
  }
}
