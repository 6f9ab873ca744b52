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

  it('delivers an event the stream ends inside only when isWhole says its data is complete', async () => {
    const isWhole = (data: string) => data.endsWith('}');
    const read = async (chunks: string[]) => {
      const seen: string[] = [];
      for await (const event of parseServerSentEvents(
        chunks.map((chunk) => encoder.encode(chunk)),
        { isWhole },
      )) {
        seen.push(event.data);
      }
      return seen;
    };
    // No blank line (nor line end) after the last event, as a trimmed body has it.
    expect(await read(['data: {"a":1}\n\nevent: stop\ndata: {"b":2}'])).toEqual([
      '{"a":1}',
      '{"b":2}',
    ]);
    expect(await read(['data: {"a":1}\n\ndata: {"b":2}\n'])).toEqual(['{"a":1}', '{"b":2}']);
    // Cut inside it: still dropped.
    expect(await read(['data: {"a":1}\n\ndata: {"b":'])).toEqual(['{"a":1}']);
    // A stream that ends cleanly offers nothing more.
    expect(await read(['data: {"a":1}\n\n'])).toEqual(['{"a":1}']);
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
