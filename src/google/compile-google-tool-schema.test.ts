import type { Schema } from '@google/genai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { AsWire } from '../../test/support/as-wire.js';
import type { JsonSchema } from '../tools/json-schema.js';
import { compileGoogleToolSchema } from './compile-google-tool-schema.js';
import type { GoogleSchema } from './google-wire.js';

const compile = (schema: JsonSchema) => compileGoogleToolSchema(schema, { strict: false });

describe('compileGoogleToolSchema', () => {
  it('writes only what the SDK Schema type holds (its enums as their string values; checked by tsc)', () => {
    expectTypeOf<GoogleSchema>().toExtend<AsWire<Schema>>();
  });

  it('writes types the API way and counts as int64 strings, keeping what the subset has', () => {
    const compiled = compile({
      type: 'object',
      title: 'Search',
      properties: {
        query: {
          type: 'string',
          description: 'Words',
          minLength: 1,
          maxLength: 80,
          pattern: '^\\w',
        },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 10, format: 'int32' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
        when: { type: 'string', format: 'date-time' },
      },
      required: ['query'],
    });
    expect(compiled.schema).toEqual({
      type: 'OBJECT',
      title: 'Search',
      properties: {
        query: {
          type: 'STRING',
          description: 'Words',
          minLength: '1',
          maxLength: '80',
          pattern: '^\\w',
        },
        limit: { type: 'INTEGER', minimum: 1, maximum: 50, default: 10, format: 'int32' },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, maxItems: '5' },
        when: { type: 'STRING', format: 'date-time' },
      },
      required: ['query'],
    });
    expect(compiled.changes).toEqual([]);
  });

  it('reports what a Zod schema loses: additionalProperties, an email format, a number enum', () => {
    const schema = z.toJSONSchema(
      z.object({
        email: z.email(),
        level: z.union([z.literal(1), z.literal(2)]),
        note: z.string().nullable().optional(),
      }),
    ) as JsonSchema;
    const compiled = compile(schema);
    expect(compiled.schema).toMatchObject({
      type: 'OBJECT',
      properties: { email: { type: 'STRING' }, note: { type: 'STRING', nullable: true } },
      required: ['email', 'level'],
    });
    expect(compiled.changes).toEqual(
      expect.arrayContaining([
        'removed unsupported keyword "additionalProperties" at /',
        'removed unsupported format "email" at /properties/email',
      ]),
    );
    expect(compiled.changes.join('\n')).not.toContain('$schema');
  });

  it('inlines $refs, cuts a recursive one to its type, and merges allOf', () => {
    const compiled = compile({
      type: 'object',
      $defs: {
        node: {
          type: 'object',
          description: 'A tree node',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
      properties: {
        root: { $ref: '#/$defs/node' },
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { properties: { b: { type: 'number' } }, required: ['b'] },
          ],
        },
        missing: { $ref: 'https://example.com/schema.json' },
      },
    });
    expect(compiled.schema).toEqual({
      type: 'OBJECT',
      properties: {
        root: {
          type: 'OBJECT',
          description: 'A tree node',
          properties: {
            label: { type: 'STRING' },
            children: { type: 'ARRAY', items: { type: 'OBJECT', description: 'A tree node' } },
          },
        },
        both: {
          type: 'OBJECT',
          properties: { a: { type: 'STRING' }, b: { type: 'NUMBER' } },
          required: ['a', 'b'],
        },
        missing: {},
      },
    });
    expect(compiled.changes).toEqual([
      'cut the recursive $ref "#/$defs/node" to its type at /properties/root/properties/children/items',
      'merged allOf into one schema at /properties/both',
      'removed $ref "https://example.com/schema.json" that does not point into the schema at /properties/missing',
    ]);
  });

  it('turns null unions and type lists into nullable, oneOf into anyOf, a string const into an enum', () => {
    const compiled = compile({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'count' },
        c: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        d: { const: 'fixed' },
        e: { type: ['string', 'number'] },
        f: { enum: ['x', 'y', null] },
      },
    });
    expect(compiled.schema.properties).toEqual({
      a: { type: 'STRING', nullable: true },
      b: { type: 'INTEGER', nullable: true, description: 'count' },
      c: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
      d: { type: 'STRING', enum: ['fixed'] },
      e: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
      f: { type: 'STRING', enum: ['x', 'y'], nullable: true },
    });
    expect(compiled.changes).toEqual([
      'oneOf turned into anyOf at /properties/c',
      'const turned into a one-value enum at /properties/d',
      'type list turned into anyOf at /properties/e',
    ]);
  });

  it('removes keywords the subset lacks, one report each, and flattens a root union', () => {
    const compiled = compile({
      anyOf: [
        { type: 'object', properties: { id: { type: 'string' } } },
        {
          type: 'object',
          properties: {
            n: { type: 'number', exclusiveMinimum: 0, multipleOf: 2 },
            list: { type: 'array', uniqueItems: true, items: { type: 'string' } },
          },
          patternProperties: { '^x': { type: 'string' } },
        },
      ],
    });
    expect(compiled.schema).toEqual({
      type: 'OBJECT',
      properties: {
        id: { type: 'STRING' },
        n: { type: 'NUMBER' },
        list: { type: 'ARRAY', items: { type: 'STRING' } },
      },
    });
    expect(compiled.changes).toEqual([
      'root anyOf flattened into one object whose properties are all optional at /',
      'removed unsupported keyword "exclusiveMinimum" at /properties/n',
      'removed unsupported keyword "multipleOf" at /properties/n',
      'removed unsupported keyword "uniqueItems" at /properties/list',
    ]);
  });

  it('cuts a hostile schema nested deeper than 64 levels, and keeps __proto__ as a plain name', () => {
    let deep: JsonSchema = { type: 'string' };
    for (let level = 0; level < 200; level++) deep = { type: 'object', properties: { x: deep } };
    const compiled = compile(deep);
    expect(compiled.changes.some((change) => change.startsWith('cut a schema nested deeper'))).toBe(
      true,
    );
    const proto = compile(
      JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as JsonSchema,
    );
    expect(Object.keys(proto.schema.properties ?? {})).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});
