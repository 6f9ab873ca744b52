import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeParsedSafeJson,
  decodeSafeJson,
  decodeSafeText,
  encodeSafeJson,
  encodeSafeText,
  stringifySafeJson,
} from './safe-text.js';

/** What PostgreSQL text and JSONB refuse: NUL and unpaired surrogates. */
function storable(text: string): boolean {
  return !/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(
    text,
  );
}

describe('safe text', () => {
  it('leaves ordinary text, emoji and paired surrogates unchanged', () => {
    for (const text of ['', 'hello', '👩‍👩‍👧', 'é', '{"a":1}'])
      expect(encodeSafeText(text)).toBe(text);
  });

  it('escapes NUL, lone surrogates and the escape character itself', () => {
    expect(encodeSafeText('a\u0000b')).toBe('a\ue0000000b');
    expect(encodeSafeText('\ud800')).toBe('\ue000d800');
    expect(encodeSafeText('x\udc00')).toBe('x\ue000dc00');
    expect(encodeSafeText('\ue000')).toBe('\ue000e000');
  });

  it('property: any string (lone surrogates included) round-trips and encodes to storable text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
        (text) => {
          const encoded = encodeSafeText(text);
          expect(storable(encoded)).toBe(true);
          expect(decodeSafeText(encoded)).toBe(text);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('maps every string and key of a JSON value, and back', () => {
    const value = { 'k\u0000': ['\ud800', { n: 1, nested: 'a\ue000' }], plain: true, none: null };
    const encoded = encodeSafeJson(value);
    expect(JSON.stringify(encoded)).not.toMatch(/\\u0000|\\ud800/);
    expect(decodeSafeJson(encoded)).toEqual(value);
  });

  it('decodes a stored value without escapes to an equal value, own __proto__ keys kept as data', () => {
    const stored = JSON.parse(
      '{"role":"user","text":"hi","metadata":{"__proto__":{"x":1},"list":[1,"a",null,{"b":false}]}}',
    ) as Record<string, unknown>;
    const decoded = decodeSafeJson(stored) as { metadata: Record<string, unknown> };
    expect(decoded).toEqual(stored);
    expect(Object.getPrototypeOf(decoded.metadata)).toBe(Object.prototype);
    expect(Object.keys(decoded.metadata)).toEqual(['__proto__', 'list']);
    expect(decodeSafeJson({ deep: [{ k: 'a\ue0000000b' }] })).toEqual({
      deep: [{ k: 'a\u0000b' }],
    });
  });

  it('property: stringifySafeJson writes what JSON.stringify(encodeSafeJson(value)) writes', () => {
    const unit = fc.oneof(
      fc.constantFrom('\u0000', '\ud800', '\udc00', '\ue000', '\\u', '\u0001', '"', '😀'),
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    );
    const text = fc.string({ unit, maxLength: 12 });
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(text, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        expect(stringifySafeJson(value)).toBe(JSON.stringify(encodeSafeJson(value)));
      }),
      { numRuns: 2000 },
    );
    const plain = { role: 'user', text: 'plain text', metadata: { n: 1 } };
    expect(stringifySafeJson(plain)).toBe(JSON.stringify(plain));
  });

  it('decodes a parsed value when its text holds the escape, raw or as \\u, and passes it through when not', () => {
    const raw = JSON.stringify({ text: 'a\ue0000000b' });
    expect(raw).toContain('\ue000');
    expect(decodeParsedSafeJson(JSON.parse(raw), raw)).toEqual({ text: 'a\u0000b' });
    const escaped = '{"text":"a\\ue0000000b"}';
    expect(decodeParsedSafeJson(JSON.parse(escaped), escaped)).toEqual({ text: 'a\u0000b' });
    const plain = '{"text":"plain","list":[1,{"k":"v"}]}';
    const parsed = JSON.parse(plain);
    expect(decodeParsedSafeJson(parsed, plain)).toBe(parsed);
  });
});
