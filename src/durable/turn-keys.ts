// The names a durable turn is known by in the engine, shared by the worker (which writes them)
// and the client (which reads them): changing one strands the turns already running.

/** The workflow every durable turn runs as. */
export const TURN_WORKFLOW_NAME = 'toolloop.turn';
/** The stream of a turn's events (`DurableTurnEvent`). */
export const TURN_EVENTS_STREAM = 'toolloop.events';
/** The event holding the approval a turn waits for (or `null`), and the topic decisions come on. */
export const APPROVAL_KEY = 'toolloop.approval';
/** The event holding the unknown outcome a turn asks about (or `null`). */
export const UNKNOWN_OUTCOME_KEY = 'toolloop.unknown-outcome';

/**
 * The topic answers about one call come on: one per call, so an answer sent early for another call
 * waits for its own question instead of being taken by this one's.
 */
export function unknownOutcomeTopic(round: number, toolCallId: string): string {
  return `${UNKNOWN_OUTCOME_KEY}:${round}:${toolCallId}`;
}
/** The step recording the code version a turn started with. */
export const VERSION_STEP = 'toolloop.version';
