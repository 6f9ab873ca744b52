import type { Message } from '../messages/index.js';
import { jsonEqual } from './message-equality.js';

/**
 * The window rule of `MessageWindowChatMemory` as the indices to keep of `messages` (the stored
 * conversation followed by the new messages, which start at `appendedFrom`):
 *
 * 1. when a new system message is not already stored, the stored system messages are dropped;
 * 2. past `maxMessages`, the oldest non-system messages go, and the cut moves forward to the next
 *    user message: the window never starts with a tool response or an assistant message, and a
 *    tool call is never separated from its responses (no user message sits between them);
 * 3. the cut never passes the newest turn (from the last user message on, or the appended
 *    messages when no user message is stored or added): older turns go first, whole;
 * 4. when the newest turn alone is still too long, it is compacted: its question, its ending (the
 *    answer, or the last call with its results when the turn ended on tool results) and as many
 *    of its newest rounds as fit stay; its older rounds go, each call with its results (all the
 *    tool messages that follow it). The question and the ending always stay, even in a window
 *    smaller than them;
 * 5. system messages always stay.
 *
 * Departs from Spring AI, which drops every non-system message when no user message follows
 * the cut: a turn of many tool rounds then erased the whole conversation.
 */
export function windowRetain(
  messages: readonly Message[],
  appendedFrom: number,
  maxMessages: number,
): number[] {
  const stored = messages.slice(0, appendedFrom);
  const incoming = messages.slice(appendedFrom);
  const hasNewSystem = incoming.some(
    (message) =>
      message.role === 'system' && !stored.some((existing) => jsonEqual(existing, message)),
  );
  const candidates: number[] = [];
  messages.forEach((message, index) => {
    if (hasNewSystem && index < appendedFrom && message.role === 'system') return;
    candidates.push(index);
  });
  if (candidates.length <= maxMessages) return candidates;

  const roleAt = (index: number | undefined) =>
    index === undefined ? undefined : messages[index]?.role;
  const nonSystem = candidates.filter((index) => roleAt(index) !== 'system');
  const turnStart = newestTurnStart(nonSystem, roleAt, appendedFrom);
  let cut = candidates.length - maxMessages;
  while (cut < turnStart && roleAt(nonSystem[cut]) !== 'user') cut++;
  cut = Math.min(cut, turnStart);
  const evicted = new Set(nonSystem.slice(0, cut));
  const kept = candidates.filter((index) => !evicted.has(index));
  if (kept.length <= maxMessages) return kept;

  const systemCount = kept.length - (nonSystem.length - cut);
  const turn = compactTurn(nonSystem.slice(cut), messages, maxMessages - systemCount);
  const keep = new Set(turn);
  return kept.filter((index) => roleAt(index) === 'system' || keep.has(index));
}

/** The position in `nonSystem` where the newest turn begins. */
function newestTurnStart(
  nonSystem: readonly number[],
  roleAt: (index: number | undefined) => Message['role'] | undefined,
  appendedFrom: number,
): number {
  for (let position = nonSystem.length - 1; position >= 0; position--) {
    if (roleAt(nonSystem[position]) === 'user') return position;
  }
  const firstAppended = nonSystem.findIndex((index) => index >= appendedFrom);
  return firstAppended === -1 ? nonSystem.length : firstAppended;
}

/**
 * Keeps at most `budget` messages of one turn (the indices `turn`, in order): the question, the
 * ending and the newest units that fit, where a unit is an assistant tool call with the tool
 * response messages after it, or any other single message.
 */
function compactTurn(turn: readonly number[], messages: readonly Message[], budget: number) {
  const hasQuestion = messages[turn[0] as number]?.role === 'user';
  const units: number[][] = [];
  for (let position = hasQuestion ? 1 : 0; position < turn.length; position++) {
    const index = turn[position] as number;
    const message = messages[index] as Message;
    const unit = [index];
    // A call's results may come in several tool messages (one per result, as some wires have
    // them): all of them go or stay with the call.
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      for (let next = turn[position + 1]; next !== undefined && messages[next]?.role === 'tool'; ) {
        unit.push(next);
        position++;
        next = turn[position + 1];
      }
    }
    units.push(unit);
  }
  const ending = units.pop() ?? [];
  const kept: number[] = [...ending];
  let room = budget - kept.length - (hasQuestion ? 1 : 0);
  for (let unit = units.length - 1; unit >= 0; unit--) {
    const size = (units[unit] as number[]).length;
    if (size > room) break;
    kept.push(...(units[unit] as number[]));
    room -= size;
  }
  if (hasQuestion) kept.push(turn[0] as number);
  return kept;
}
