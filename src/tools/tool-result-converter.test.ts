import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import { defaultToolResultConverter } from './tool-result-converter.js';

/** The converter on values that are not a `ToolResult`: always text. */
const convert = (value: unknown): string => defaultToolResultConverter(value) as string;

describe('defaultToolResultConverter', () => {
  it('turns undefined (a void tool) into the JSON string "Done"', () => {
    expect(convert(undefined)).toBe('"Done"');
  });

  it('turns null into null', () => {
    expect(convert(null)).toBe('null');
  });

  it('quotes a plain string', () => {
    expect(convert('test')).toBe('"test"');
    expect(convert('return value = x')).toBe('"return value = x"');
    expect(convert('')).toBe('""');
  });

  it('escapes quotes, newlines, tabs and backslashes', () => {
    const text = 'He said "hi"\nthen\tleft \\ done';
    const converted = convert(text);
    expect(converted).toBe('"He said \\"hi\\"\\nthen\\tleft \\\\ done"');
    expect(JSON.parse(converted)).toBe(text);
  });

  it('forwards a string that is a whole JSON document verbatim', () => {
    expect(convert('{"temperature":21}')).toBe('{"temperature":21}');
    expect(convert('[1, 2]')).toBe('[1, 2]');
    expect(convert('42')).toBe('42');
    expect(convert('null')).toBe('null');
  });

  it('quotes strings that only begin like JSON (strict, unlike the reference)', () => {
    expect(convert('3 strings processed: [one, two, three]')).toBe(
      '"3 strings processed: [one, two, three]"',
    );
    expect(convert('true story')).toBe('"true story"');
    expect(convert('42 apples')).toBe('"42 apples"');
  });

  it('serialises objects, arrays, numbers and booleans compactly', () => {
    expect(convert({ name: 'spring-ai', version: 2, tags: ['a'] })).toBe(
      '{"name":"spring-ai","version":2,"tags":["a"]}',
    );
    expect(convert(['one', 'two', 'three'])).toBe('["one","two","three"]');
    expect(convert([])).toBe('[]');
    expect(convert({})).toBe('{}');
    expect(convert(new Map())).toBe('{}');
    expect(convert(7.5)).toBe('7.5');
    expect(convert(false)).toBe('false');
  });

  it('writes dates as ISO strings, Maps as objects, Sets as arrays, bigints as digits', () => {
    expect(convert({ at: new Date('2026-09-23T18:00:00Z') })).toBe(
      '{"at":"2026-09-23T18:00:00.000Z"}',
    );
    expect(
      convert(
        new Map<unknown, unknown>([
          ['a', 1],
          [2, new Set(['x', 'y'])],
        ]),
      ),
    ).toBe('{"2":["x","y"],"a":1}');
    expect(convert({ big: 12345678901234567890n })).toBe('{"big":"12345678901234567890"}');
    expect(convert(10n)).toBe('"10"');
  });

  it('keeps a Map key named __proto__ as data', () => {
    const converted = convert(new Map([['__proto__', { polluted: true }]]));
    expect(converted).toBe('{"__proto__":{"polluted":true}}');
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('writes an Error as its name and message', () => {
    expect(convert({ failure: new RangeError('too far') })).toBe(
      '{"failure":{"name":"RangeError","message":"too far"}}',
    );
  });

  it('encodes bytes as base64 with a media type', () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const expected = { mimeType: 'application/octet-stream', data: 'AAEC+v8=' };
    expect(JSON.parse(convert(bytes))).toEqual(expected);
    expect(JSON.parse(convert(Buffer.from(bytes)))).toEqual(expected);
    expect(JSON.parse(convert(bytes.buffer))).toEqual(expected);
    expect(JSON.parse(convert({ mimeType: 'image/png', data: bytes }))).toEqual({
      mimeType: 'image/png',
      data: 'AAEC+v8=',
    });
    expect(JSON.parse(convert({ page: 1, image: Buffer.from(bytes) }))).toEqual({
      page: 1,
      image: expected,
    });
  });

  it('round-trips image bytes through base64', () => {
    const pixels = new Uint8Array(64 * 64 * 4).map((_, index) => (index * 31) % 256);
    const { data } = JSON.parse(convert({ mimeType: 'image/png', data: pixels })) as {
      data: string;
    };
    expect(new Uint8Array(Buffer.from(data, 'base64'))).toEqual(pixels);
  });

  it('encodes only the viewed part of a typed array', () => {
    const backing = new Uint8Array([9, 9, 1, 2, 9]);
    expect(JSON.parse(convert(backing.subarray(2, 4))).data).toBe(
      Buffer.from([1, 2]).toString('base64'),
    );
  });

  it('rejects circular results with a clear error', () => {
    const node: Record<string, unknown> = { name: 'loop' };
    node.self = node;
    expect(() => convert(node)).toThrow(InvalidArgumentError);
    expect(() => convert(node)).toThrow(
      'A tool result cannot be converted to JSON: it contains a circular reference',
    );
  });

  it('rejects functions and symbols', () => {
    expect(() => convert(() => 1)).toThrow(
      'A tool result of type function cannot be converted to JSON',
    );
    expect(() => convert(Symbol('s'))).toThrow(InvalidArgumentError);
  });
});
