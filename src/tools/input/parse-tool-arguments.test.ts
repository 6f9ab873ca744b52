import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseToolArguments } from './parse-tool-arguments.js';

function issuesOf(raw: string, options?: Parameters<typeof parseToolArguments>[1]) {
  const result = parseToolArguments(raw, options);
  if (result.ok) throw new Error('expected the arguments to be rejected');
  return result.issues;
}

describe('parseToolArguments', () => {
  it('parses a JSON object', () => {
    expect(parseToolArguments('{"city":"Paris","days":[1,2]}')).toEqual({
      ok: true,
      value: { city: 'Paris', days: [1, 2] },
    });
  });

  it.each(['', '   ', '\n\t '])('treats empty or whitespace text %j as {}', (raw) => {
    expect(parseToolArguments(raw)).toEqual({ ok: true, value: {} });
  });

  it('rejects text that is not JSON without echoing it', () => {
    const issues = issuesOf("{city: 'secret-value'}");
    expect(issues).toEqual([{ path: '', message: 'arguments are not valid JSON' }]);
    expect(JSON.stringify(issues)).not.toContain('secret-value');
  });

  it.each(['{"city":"Par', '{"city":', '{"a":[1,2', '{'])('rejects truncated JSON %j', (raw) => {
    const [issue] = issuesOf(raw);
    expect(issue?.path).toBe('');
    expect(issue?.message).toMatch(/not valid JSON: .*truncated/);
  });

  it.each([
    ['[1,2]', 'an array'],
    ['null', 'null'],
    ['42', 'a number'],
    ['"text"', 'a string'],
    ['true', 'a boolean'],
  ])('rejects top-level %s', (raw, kind) => {
    expect(issuesOf(raw)).toEqual([
      { path: '', message: `arguments must be a JSON object, not ${kind}` },
    ]);
  });

  it('rejects a 10 MB string before parsing it', () => {
    const raw = `{"blob":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    expect(issuesOf(raw)).toEqual([
      { path: '', message: 'arguments are larger than the limit of 1048576 bytes' },
    ]);
  });

  it('measures the limit in UTF-8 bytes, not characters', () => {
    const raw = `{"a":"${'é'.repeat(10)}"}`; // 18 characters, 28 bytes
    expect(raw.length).toBe(18);
    expect(parseToolArguments(raw, { maxBytes: 20 }).ok).toBe(false);
    expect(parseToolArguments(raw, { maxBytes: 28 }).ok).toBe(true);
  });

  it('accepts a 10 MB string when the limit allows it', () => {
    const raw = `{"blob":"${'x'.repeat(10 * 1024 * 1024)}"}`;
    const result = parseToolArguments(raw, { maxBytes: 20 * 1024 * 1024 });
    expect(result.ok && (result.value.blob as string).length).toBe(10 * 1024 * 1024);
  });

  it('rejects 100k-deep nesting without overflowing the stack', () => {
    const raw = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(issuesOf(raw)).toEqual([
      { path: '', message: 'arguments are nested deeper than the limit of 64 levels' },
    ]);
    expect(issuesOf('['.repeat(100_000))[0]?.message).toMatch(/nested deeper/);
  });

  it('counts depth from the top-level object and ignores brackets inside strings', () => {
    const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
    expect(parseToolArguments(nested(3), { maxDepth: 3 }).ok).toBe(true);
    expect(parseToolArguments(nested(4), { maxDepth: 3 }).ok).toBe(false);
    expect(parseToolArguments('{"a":"[[[[[[\\"{{{{"}', { maxDepth: 1 })).toEqual({
      ok: true,
      value: { a: '[[[[[["{{{{' },
    });
  });

  it('rejects __proto__ keys anywhere and leaves Object.prototype untouched', () => {
    const top = issuesOf('{"__proto__":{"polluted":true}}');
    expect(top).toEqual([
      { path: '/__proto__', message: 'property name "__proto__" is not allowed' },
    ]);
    const nested = issuesOf('{"a":[{"b":{"__proto__":{"polluted":true}}}]}');
    expect(nested[0]?.path).toBe('/a/0/b/__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('rejects constructor.prototype keys and leaves Object.prototype untouched', () => {
    expect(issuesOf('{"constructor":{"prototype":{"polluted":true}}}')).toEqual([
      {
        path: '/constructor',
        message: 'a "constructor" object with a "prototype" property is not allowed',
      },
    ]);
    expect(issuesOf('{"x":{"constructor":{"prototype":{}}}}')[0]?.path).toBe('/x/constructor');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('allows an ordinary "constructor" or "prototype" property', () => {
    expect(parseToolArguments('{"constructor":"Brunel","prototype":{"v":1}}')).toEqual({
      ok: true,
      value: { constructor: 'Brunel', prototype: { v: 1 } },
    });
  });

  it('rejects lone surrogates written as escapes or raw, in values and keys', () => {
    expect(issuesOf('{"name":"a\\ud800b"}')).toEqual([
      { path: '/name', message: 'string contains a lone UTF-16 surrogate (not valid Unicode)' },
    ]);
    expect(issuesOf(`{"list":["ok","x\udc00"]}`)[0]?.path).toBe('/list/1');
    expect(issuesOf('{"k\\udfff":1}')[0]?.message).toMatch(/property name contains a lone/);
    expect(parseToolArguments('{"emoji":"\\ud83d\\ude00"}')).toEqual({
      ok: true,
      value: { emoji: '😀' },
    });
  });

  it.each([
    ['1e999', '{"n":1e999}', '/n'],
    ['-1e999', '{"n":-1e999}', '/n'],
    ['an upper-case exponent with a sign', '{"n":1.5E+400}', '/n'],
    ['400 digits', `{"n":${'9'.repeat(400)}}`, '/n'],
    ['a deep array item', '{"a":{"b":[1,2,{"c":[1e999]}]}}', '/a/b/2/c/0'],
  ])('rejects a number that overflows to Infinity: %s', (_label, raw, path) => {
    expect(issuesOf(raw)).toEqual([
      { path, message: 'number is too large: it overflows to Infinity' },
    ]);
  });

  it('keeps the largest finite numbers, underflow to 0, and exponents inside strings', () => {
    expect(
      parseToolArguments('{"max":1.7976931348623157e308,"tiny":1e-999,"s":"1e999","t":true}'),
    ).toEqual({
      ok: true,
      value: { max: Number.MAX_VALUE, tiny: 0, s: '1e999', t: true },
    });
    expect(parseToolArguments(`{"n":${'9'.repeat(308)}}`).ok).toBe(true);
  });

  it('escapes ~ and / in issue paths (RFC 6901)', () => {
    expect(issuesOf('{"a/b":{"c~d":"\\ud800"}}')[0]?.path).toBe('/a~1b/c~0d');
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (raw) => {
        const result = parseToolArguments(raw);
        expect(typeof result.ok).toBe('boolean');
        if (!result.ok) expect(result.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.json(), (raw) => {
        const result = parseToolArguments(raw);
        const parsed: unknown = JSON.parse(raw);
        const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
        if (result.ok) expect(result.value).toEqual(isObject || raw.trim() === '' ? parsed : {});
        else if (isObject) expect(result.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});
