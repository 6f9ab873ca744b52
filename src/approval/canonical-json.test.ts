import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashToolArguments } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('leaves out undefined entries as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });

  it('gives JSON that parses back to an equal value, whatever the key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        const reordered = JSON.parse(JSON.stringify(value), (_key, entry) =>
          entry !== null && typeof entry === 'object' && !Array.isArray(entry)
            ? Object.fromEntries(Object.entries(entry).reverse())
            : entry,
        );
        expect(canonicalJson(reordered)).toBe(text);
      }),
    );
  });
});

describe('hashToolArguments', () => {
  it('is the same for the same arguments in another key order and different for other values', () => {
    const hash = hashToolArguments({ path: '/tmp/a', recursive: true });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToolArguments({ recursive: true, path: '/tmp/a' })).toBe(hash);
    expect(hashToolArguments({ path: '/tmp/b', recursive: true })).not.toBe(hash);
    expect(hashToolArguments({ path: '/tmp/a', recursive: 'true' })).not.toBe(hash);
  });
});
