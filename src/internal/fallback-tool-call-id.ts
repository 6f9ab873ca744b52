import { randomUUID } from 'node:crypto';

/**
 * A fresh id for a tool call the server sent without one (some compatible servers do), e.g.
 * `call_3f2a…` or `toolu_9b1c…`: random, so two calls never share one, within a response or
 * across concurrent requests (the loop and chat memory pair results with calls by id).
 */
export function fallbackToolCallId(prefix: 'call' | 'toolu'): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}

/**
 * The id of a call of a response: the server's `id`, or a fresh one when it sent none or one an
 * earlier call of the same response (the ids in `used`) already has; the id returned is added to
 * `used`. Two calls of one assistant message never share an id: the provider would refuse the
 * next request (Anthropic: "tool_use ids must be unique"), and the loop could answer only one.
 */
export function unusedToolCallId(
  id: string | undefined,
  used: Set<string>,
  prefix: 'call' | 'toolu',
): string {
  const unused = id && !used.has(id) ? id : fallbackToolCallId(prefix);
  used.add(unused);
  return unused;
}
