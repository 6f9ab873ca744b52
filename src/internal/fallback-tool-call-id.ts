import { randomUUID } from 'node:crypto';

/**
 * A fresh id for a tool call the server sent without one (some compatible servers do), e.g.
 * `call_3f2a…` or `toolu_9b1c…`: random, so two calls never share one, within a response or
 * across concurrent requests (the loop and chat memory pair results with calls by id).
 */
export function fallbackToolCallId(prefix: 'call' | 'toolu'): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`;
}
