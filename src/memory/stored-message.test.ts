import { describe, expect, it } from 'vitest';
import { MemoryError } from '../errors/index.js';
import { decodeParsedSafeJson } from './safe-text.js';
import { parseStoredMessage } from './stored-message.js';

const location = { backend: 'sqlite', conversationId: 'c1', row: 3, seq: 7 };

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { inner: value };
  return value;
}

describe('parseStoredMessage', () => {
  it('gives back a stored message as it was written', () => {
    const message = {
      role: 'assistant',
      text: null,
      toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"city":"Paris"}' }],
      metadata: { turn: 2, tags: ['a', 'b'], nested: { ok: true, n: 1.5, none: null } },
    };
    expect(parseStoredMessage(JSON.stringify(message), location)).toEqual(message);
  });

  it('refuses a row nested deeper than the limit, naming the row and its sequence number', () => {
    const text = JSON.stringify({ role: 'user', text: 'hi', metadata: nested(1001) });
    let error: unknown;
    try {
      parseStoredMessage(text, location);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MemoryError);
    expect((error as Error).message).toContain('row 3 (seq 7) of conversation "c1"');
    expect((error as Error).message).toContain('metadata is nested deeper than 1000 levels');
  });

  it('refuses a row nested too deep in the fewest characters (brackets only)', () => {
    const text = `{"role":"user","text":"","metadata":{"a":${'['.repeat(1000)}${']'.repeat(1000)}}}`;
    expect(() => parseStoredMessage(text, location)).toThrow(/metadata is nested deeper than 1000/);
    const within = `{"role":"user","text":"","metadata":{"a":${'['.repeat(999)}${']'.repeat(999)}}}`;
    expect(parseStoredMessage(within, location)).toEqual(JSON.parse(within));
  });

  it('accepts a row nested just within the limit', () => {
    const message = { role: 'user', text: 'hi', metadata: nested(1000) };
    expect(parseStoredMessage(JSON.stringify(message), location)).toEqual(message);
  });

  it('refuses text that is not JSON and JSON that is not a message', () => {
    expect(() => parseStoredMessage('{', location)).toThrow(/row 3 \(seq 7\).*not JSON/);
    expect(() => parseStoredMessage('{"role":"robot","text":"x"}', location)).toThrow(
      /role is not one of system, user, assistant, tool/,
    );
    expect(() => parseStoredMessage(42, { ...location, seq: undefined })).toThrow(
      /row 3 of conversation "c1" is not a valid message \(it is not text\)/,
    );
  });

  it('keeps tool result parts and structured content, and refuses a bad part as storedMessage does', () => {
    const message = {
      role: 'tool',
      responses: [
        {
          id: 'call_1',
          name: 'chart',
          responseData: 'a chart',
          content: [
            { type: 'text', text: 'a chart' },
            { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
            { type: 'resource-link', uri: 'https://example.com/c', name: 'c' },
          ],
          structuredContent: {
            points: [
              [1, 2],
              [3, 4],
            ],
          },
        },
      ],
    };
    expect(parseStoredMessage(JSON.stringify(message), location)).toEqual(message);
    const bad = structuredClone(message);
    (bad.responses[0]?.content[1] as Record<string, unknown>).mediaType = 'text/plain';
    expect(() => parseStoredMessage(JSON.stringify(bad), location)).toThrow(
      /responses\[0\]\.content\[1\] is not a valid part: its media type 'text\/plain'/,
    );
  });

  it('decodes before checking, and gives back what the decoder made', () => {
    const stored = '{"role":"user","text":"a\\ue0000000b"}';
    const decoded = parseStoredMessage(stored, location, decodeParsedSafeJson);
    expect(decoded).toEqual({ role: 'user', text: 'a\u0000b' });
    expect(() =>
      parseStoredMessage('{"role":"user","text":7}', location, decodeParsedSafeJson),
    ).toThrow(/text is not a string/);
  });
});
