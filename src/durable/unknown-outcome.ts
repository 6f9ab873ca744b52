/**
 * What a durable turn does with a call of a tool that is neither `idempotent` nor `readOnly`
 * whose earlier run started and never recorded its outcome (its worker died in between), so the
 * tool may or may not have had its effect:
 * - `'tool-error'` (the default): the call is not run again; the model receives an error result
 *   saying the outcome is unknown, and decides (it may check, or ask the user);
 * - `'ask-caller'`: the turn waits until the caller answers (`DurableTurnClient.answerUnknownOutcome`
 *   from any process): run it again (with the same idempotency key), or the result it had, or an
 *   error.
 */
export type UnknownOutcomePolicy = 'tool-error' | 'ask-caller';

/** The call a turn asks its caller about under the `'ask-caller'` policy. */
export interface UnknownOutcomeQuestion {
  /** The loop round (model call) whose response made the call. */
  readonly round: number;
  readonly toolCallId: string;
  readonly toolName: string;
  /** The run whose outcome is unknown: 1 for the first, more after retries. */
  readonly attempt: number;
  /** The key the tool received: look the call up by it in the system it acted on. */
  readonly idempotencyKey: string;
}

/**
 * The caller's answer about a call whose outcome was unknown: run it again, or the result the
 * model receives (it did run), or the error text the model receives (it did not, or it failed).
 */
export type UnknownOutcomeAnswer =
  | { readonly type: 'retry' }
  | { readonly type: 'succeeded'; readonly result: string }
  | { readonly type: 'failed'; readonly error?: string };

/** The error text the model receives for a call whose outcome is unknown. */
export function unknownOutcomeText(toolName: string): string {
  return `The outcome of this call of '${toolName}' is unknown: the worker running it stopped before its result was recorded, and the tool is not marked idempotent, so it was not run again. It may or may not have taken effect; check before calling it again.`;
}

/** The answer a message carries, when it is one; `undefined` for anything else. */
export function readUnknownOutcomeAnswer(value: unknown): UnknownOutcomeAnswer | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const answer = value as { type?: unknown; result?: unknown; error?: unknown };
  if (answer.type === 'retry') return { type: 'retry' };
  if (answer.type === 'succeeded' && typeof answer.result === 'string') {
    return { type: 'succeeded', result: answer.result };
  }
  if (
    answer.type === 'failed' &&
    (answer.error === undefined || typeof answer.error === 'string')
  ) {
    return answer.error === undefined
      ? { type: 'failed' }
      : { type: 'failed', error: answer.error };
  }
  return undefined;
}
