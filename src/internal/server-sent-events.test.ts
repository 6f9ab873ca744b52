import { describe, expect, it } from 'vitest';
import { EventTooLargeError, parseServerSentEvents } from './server-sent-events.js';

const encoder = new TextEncoder();

async function events(chunks: string[], maxEventBytes?: number) {
  const seen: { event?: string | undefined; data: string }[] = [];
  for await (const event of parseServerSentEvents(
    chunks.map((chunk) => encoder.encode(chunk)),
    maxEventBytes === undefined ? {} : { maxEventBytes },
  )) {
    seen.push({ event: event.event, data: event.data });
  }
  return seen;
}

describe('parseServerSentEvents', () => {
  it('joins multi-line data, skips comments, and drops an unterminated last event', async () => {
    expect(
      await events([': ping\r\n\r\nevent: x\r\ndata: a\r\nda', 'ta: b\r\n\r\ndata: cut']),
    ).toEqual([{ event: 'x', data: 'a\nb' }]);
  });

  it('delivers the last event of a stream written with CR line ends (a lone CR at the end ends its line)', async () => {
    expect(await events(['data: a\r\rdata: b\r', '\r'])).toEqual([
      { event: undefined, data: 'a' },
      { event: undefined, data: 'b' },
    ]);
    // A CR that ends only the data line leaves the event open: it is still dropped.
    expect(await events(['data: a\r\rdata: b\r'])).toEqual([{ event: undefined, data: 'a' }]);
    expect(await events(['data: a\r\n\r\ndata: b\r\n\r'])).toEqual([
      { event: undefined, data: 'a' },
      { event: undefined, data: 'b' },
    ]);
  });

  it('decodes a multi-byte character split across chunks', async () => {
    const bytes = encoder.encode('data: 68°F 🌤\n\n');
    const pieces = Array.from(bytes, (byte) => Uint8Array.of(byte));
    const seen: string[] = [];
    for await (const event of parseServerSentEvents(pieces)) seen.push(event.data);
    expect(seen).toEqual(['68°F 🌤']);
  });

  it('stops with EventTooLargeError when one event outgrows the limit', async () => {
    await expect(events([`data: ${'x'.repeat(5000)}`], 1024)).rejects.toBeInstanceOf(
      EventTooLargeError,
    );
  });
});
