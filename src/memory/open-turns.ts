import type { Message } from '../messages/index.js';

/** A turn whose last round asked for tools: what a memory advisor holds until the turn ends. */
export interface OpenTurn {
  /** The stored conversation when the turn began: every round of the turn is shown the same. */
  readonly history: readonly Message[];
  /** The turn's messages not stored yet, oldest first; the last one asked for the tools. */
  readonly staged: readonly Message[];
}

/**
 * The key of an open turn. Inside a tool loop, the turn id the loop gives every round of the turn
 * (`TOOL_LOOP_TURN_ID`): unique per turn whatever ids the provider gave the tool calls. Without
 * one (a caller-driven tool loop spread over several requests), the conversation and the ids of
 * the calls, the only link there is.
 */
export function openTurnKey(
  conversationId: string,
  turnId: string | undefined,
  callIds: readonly string[],
): string {
  return turnId === undefined
    ? JSON.stringify(['calls', conversationId, [...callIds].sort()])
    : JSON.stringify(['turn', conversationId, turnId]);
}

/** The open turns of one memory advisor, at most `max`: past it, the oldest is forgotten. */
export class OpenTurns {
  readonly #turns = new Map<string, OpenTurn>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** Holds `turn` under `key`, replacing what was there. */
  open(key: string, turn: OpenTurn): void {
    this.#turns.delete(key);
    this.#turns.set(key, turn);
    while (this.#turns.size > this.#max) {
      const oldest = this.#turns.keys().next();
      if (oldest.done) break;
      this.#turns.delete(oldest.value);
    }
  }

  /** Removes and returns the turn under `key` when `belongs` accepts it; otherwise leaves it. */
  take(key: string, belongs: (turn: OpenTurn) => boolean): OpenTurn | undefined {
    const turn = this.#turns.get(key);
    if (turn === undefined || !belongs(turn)) return undefined;
    this.#turns.delete(key);
    return turn;
  }
}
