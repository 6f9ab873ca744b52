import type { ChatResponse, PendingToolApproval } from '../index.js';
import type { UnknownOutcomeQuestion } from './unknown-outcome.js';

/**
 * One event of a durable turn, as its readers see it in any process (`DurableTurnHandle.events`):
 * - `'round'`: a model call's chunks begin (stream mode). The same round twice means the worker
 *   died while the round streamed: the round's model call was made again and its chunks follow
 *   from the start; drop what the earlier ones of that round showed;
 * - `'chunk'`: what the caller of a stream sees of the turn, one chunk (stream mode);
 * - `'approval-pending'`: the turn waits for decisions on the calls of `pending` (with `refusal`
 *   when the previous decisions were refused, and why);
 * - `'outcome-unknown'`: the turn waits for the caller's answer about a call (policy `'ask-caller'`);
 * - `'end'`: the turn's final response; the last event;
 * - `'error'`: the turn failed; the last event;
 * - `'cancelled'`: the turn was cancelled; the last event.
 */
export type DurableTurnEvent =
  | { readonly type: 'round'; readonly round: number }
  | { readonly type: 'chunk'; readonly round: number; readonly chatResponse: ChatResponse }
  | {
      readonly type: 'approval-pending';
      readonly pending: PendingToolApproval;
      readonly refusal?: string;
    }
  | { readonly type: 'outcome-unknown'; readonly question: UnknownOutcomeQuestion }
  | { readonly type: 'end'; readonly chatResponse: ChatResponse | null }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'cancelled' };

/** An event with its position in the turn's stream: read on from `offset + 1` after a reconnect. */
export interface DurableTurnEventEntry {
  readonly offset: number;
  readonly event: DurableTurnEvent;
}
