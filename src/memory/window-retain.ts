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
 * 3. with no user message after the cut, every non-system message goes;
 * 4. system messages always stay.
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

  const nonSystem = candidates.filter((index) => messages[index]?.role !== 'system');
  let cut = candidates.length - maxMessages;
  while (cut < nonSystem.length && messages[nonSystem[cut] as number]?.role !== 'user') cut++;
  const evicted = new Set(nonSystem.slice(0, Math.min(cut, nonSystem.length)));
  return candidates.filter((index) => !evicted.has(index));
}
