import type { StreamConverter } from '../../src/internal/provider-transport.js';
import { parseServerSentEvents } from '../../src/internal/server-sent-events.js';
import { aggregateChatResponses, type ChatResponse } from '../../src/model/index.js';

/**
 * Runs byte chunks through the adapters' real SSE parser and a stream assembler (no HTTP), and
 * aggregates the chunks it yields.
 */
export async function assembleSse(
  chunks: Uint8Array[],
  converter: StreamConverter<ChatResponse>,
): Promise<{ response: ChatResponse; chunks: ChatResponse[] }> {
  const emitted: ChatResponse[] = [];
  for await (const event of parseServerSentEvents(chunks)) {
    for (const chunk of converter.event(event)) emitted.push(chunk);
  }
  for (const chunk of converter.end()) emitted.push(chunk);
  return { response: aggregateChatResponses(emitted), chunks: emitted };
}

/** Splits bytes at the given offsets (sorted, deduplicated, inside the buffer). */
export function splitAt(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const cuts = [...new Set(offsets.filter((offset) => offset > 0 && offset < bytes.length))].sort(
    (a, b) => a - b,
  );
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    pieces.push(bytes.subarray(start, cut));
    start = cut;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

/**
 * Re-frames SSE text: CRLF line endings when asked, and a keep-alive comment line inserted
 * before the events chosen by `commentAfter` (indexes into the event list).
 */
export function reframeSse(
  text: string,
  options: { crlf: boolean; commentBefore: number[] },
): string {
  const events = text.replace(/\r\n/g, '\n').split('\n\n');
  const withComments = events.map((event, index) =>
    options.commentBefore.includes(index) && event !== '' ? `: keep-alive\n\n${event}` : event,
  );
  const joined = withComments.join('\n\n');
  return options.crlf ? joined.replace(/\n/g, '\r\n') : joined;
}
