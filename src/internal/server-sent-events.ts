import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One server-sent event: its `event:` name (if any) and its `data:` text. */
export type ServerSentEvent = EventSourceMessage;

/** Thrown when a single event grows past the parser's buffer limit. */
export class EventTooLargeError extends Error {
  constructor(limitBytes: number) {
    super(`a server-sent event exceeds the ${limitBytes} byte limit`);
    this.name = 'EventTooLargeError';
  }
}

/**
 * Parses a byte stream into server-sent events with `eventsource-parser`. Bytes are decoded as a
 * UTF-8 stream, so a chunk boundary inside a multi-byte character or inside a `data:` line is
 * harmless; CRLF, LF, CR and comment lines (keep-alives) are handled by the parser. An event the
 * stream ends inside (no blank line after it) is dropped, unless `isWhole` says its data is
 * complete. A single event larger than `maxEventBytes` stops the stream with
 * {@link EventTooLargeError}.
 */
export async function* parseServerSentEvents(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  options: { maxEventBytes?: number; isWhole?: (data: string) => boolean } = {},
): AsyncGenerator<ServerSentEvent> {
  const maxEventBytes = options.maxEventBytes ?? 10 * 1024 * 1024;
  const pending: ServerSentEvent[] = [];
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: maxEventBytes,
    onEvent: (event) => pending.push(event),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded')
        failure = new EventTooLargeError(maxEventBytes);
    },
  });
  const decoder = new TextDecoder();
  let endsWithCr = false;
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text !== '') endsWithCr = text.endsWith('\r');
    parser.feed(text);
    if (failure) throw failure;
    while (pending.length > 0) yield pending.shift() as ServerSentEvent;
  }
  const rest = decoder.decode();
  if (rest !== '') endsWithCr = rest.endsWith('\r');
  // The parser holds a final CR in case an LF follows (CRLF); at the end none can, so the CR
  // ends its line, as the standard reads a lone CR. Without this a stream written with CR line
  // ends loses its last event, the one that says the answer is complete.
  parser.feed(endsWithCr ? `${rest}\n` : rest);
  while (pending.length > 0) yield pending.shift() as ServerSentEvent;
  // The standard drops an event the stream ends inside, so that a connection cut within an event
  // never delivers half of it. A server or proxy that leaves out the final blank line (a trimmed
  // body, a recorded transcript) would then lose its last event, the one saying the answer is
  // complete; the caller's `isWhole` tells a whole one (its JSON parses) from a cut one.
  if (options.isWhole === undefined) return;
  parser.feed('\n\n');
  for (const event of pending.splice(0)) {
    if (options.isWhole(event.data)) yield event;
  }
}
