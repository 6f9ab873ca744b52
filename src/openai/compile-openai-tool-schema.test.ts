import { describe, expect, it } from 'vitest';
import { compileOpenAiToolSchema } from './compile-openai-tool-schema.js';

describe('compileOpenAiToolSchema', () => {
  it('leaves a valid object schema alone when not strict, and fixes a typeless root', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', minLength: 2 } } };
    expect(compileOpenAiToolSchema(schema, { strict: false })).toEqual({
      schema,
      strict: false,
      changes: [],
    });
    expect(compileOpenAiToolSchema({}, { strict: false })).toEqual({
      schema: { type: 'object', properties: {} },
      strict: false,
      changes: ['added type "object" at /', 'added empty properties at /'],
    });
  });

  it('flattens a root union into one object with optional properties', () => {
    const compiled = compileOpenAiToolSchema(
      {
        anyOf: [
          { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        ],
      },
      { strict: false },
    );
    expect(compiled.schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' } },
    });
    expect(compiled.changes).toEqual([
      'root anyOf flattened into one object whose properties are all optional at /',
    ]);
  });

  it('makes every property required and the optional ones nullable, in every nested object', () => {
    const compiled = compileOpenAiToolSchema(
      {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 1, format: 'city-name' },
          unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
          when: { type: 'string', format: 'date' },
          tags: {
            type: 'array',
            items: { type: 'object', properties: { k: { type: 'string' } } },
            uniqueItems: true,
          },
          choice: { oneOf: [{ type: 'string' }, { type: 'number' }] },
          ref: { $ref: '#/$defs/point' },
        },
        required: ['city', 'when'],
        $defs: {
          point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
        },
      },
      { strict: true },
    );
    expect(compiled.strict).toBe(true);
    expect(compiled.schema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
        when: { type: 'string', format: 'date' },
        tags: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { k: { type: ['string', 'null'] } },
            required: ['k'],
            additionalProperties: false,
          },
        },
        choice: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
        ref: { anyOf: [{ $ref: '#/$defs/point' }, { type: 'null' }] },
      },
      required: ['city', 'unit', 'when', 'tags', 'choice', 'ref'],
      additionalProperties: false,
      $defs: {
        point: {
          type: 'object',
          properties: { x: { type: 'number' } },
          required: ['x'],
          additionalProperties: false,
        },
      },
    });
    expect(compiled.changes).toContain(
      'removed unsupported keyword "minLength" at /properties/city',
    );
    expect(compiled.changes).toContain(
      'removed unsupported format "city-name" at /properties/city',
    );
    expect(compiled.changes).toContain('removed unsupported keyword "default" at /properties/unit');
    expect(compiled.changes).toContain('oneOf turned into anyOf at /properties/choice');
    expect(compiled.changes).toContain(
      'optional property made required and nullable at /properties/tags/items/properties/k',
    );
  });

  it('falls back to non-strict, and says why, for schemas strict mode cannot express', () => {
    const allOf = compileOpenAiToolSchema(
      { type: 'object', properties: { a: { allOf: [{ type: 'string' }, { minLength: 1 }] } } },
      { strict: true },
    );
    expect(allOf.strict).toBe(false);
    expect(allOf.changes).toEqual([
      'strict mode off: "allOf" at /properties/a has no strict-mode equivalent',
    ]);
    const map = compileOpenAiToolSchema(
      {
        type: 'object',
        properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
      },
      { strict: true },
    );
    expect(map.strict).toBe(false);
    expect(map.changes[0]).toContain('map-like additionalProperties schema at /properties/labels');
  });

  it('drops the nulls sent for optional properties so the original schema accepts the arguments', () => {
    const { restoreArguments } = compileOpenAiToolSchema(
      {
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: 'string' },
          note: { type: ['string', 'null'] },
          stops: {
            type: 'array',
            items: {
              type: 'object',
              properties: { at: { type: 'string' }, why: { type: 'string' } },
              required: ['at'],
            },
          },
        },
        required: ['city'],
      },
      { strict: true },
    );
    expect(restoreArguments).toBeDefined();
    expect(
      JSON.parse(
        restoreArguments!(
          '{"city":"Oslo","unit":null,"note":null,"stops":[{"at":"A","why":null},{"at":"B","why":"x"}]}',
        ),
      ),
    ).toEqual({ city: 'Oslo', note: null, stops: [{ at: 'A' }, { at: 'B', why: 'x' }] });
    expect(restoreArguments!('{"city":"Oslo","unit":"c"}')).toBe('{"city":"Oslo","unit":"c"}');
    expect(restoreArguments!('{"city": "Os')).toBe('{"city": "Os');
  });
});
