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
