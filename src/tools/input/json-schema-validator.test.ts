import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../../errors/index.js';
import type { JsonSchema } from '../json-schema.js';
import { compileJsonSchema, validateJsonSchema } from './json-schema-validator.js';

const weather: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    unit: { type: 'string', enum: ['C', 'F'] },
    days: { type: 'array', items: { type: 'integer', minimum: 1 } },
    where: {
      type: 'object',
      properties: { 'lat/lon': { type: 'string' } },
      required: ['lat/lon'],
      additionalProperties: false,
    },
  },
  required: ['city'],
  additionalProperties: false,
};

describe('validateJsonSchema', () => {
  it('returns no issues for a valid value', () => {
    expect(validateJsonSchema(weather, { city: 'Paris', unit: 'C', days: [1, 2] })).toEqual([]);
  });

  it('reports a missing required property at its own path', () => {
    expect(validateJsonSchema(weather, {})).toEqual([{ path: '/city', message: 'is required' }]);
  });

  it('reports every problem with JSON-pointer paths', () => {
    const issues = validateJsonSchema(weather, {
      city: 3,
      unit: 'K',
      days: [1, 0, 'x'],
      where: {},
      extra: true,
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: '/city', message: 'must be string' },
        { path: '/unit', message: 'must be equal to one of the allowed values' },
        { path: '/days/1', message: 'must be >= 1' },
        { path: '/days/2', message: 'must be integer' },
        { path: '/where/lat~1lon', message: 'is required' },
        { path: '/extra', message: 'is not an allowed property' },
      ]),
    );
    expect(issues).toHaveLength(6);
  });

  it('reports a wrong top-level type at the root', () => {
    expect(validateJsonSchema(weather, [])).toEqual([{ path: '', message: 'must be object' }]);
  });

  it('compiles each schema object once', () => {
    const schema: JsonSchema = { type: 'object', properties: {} };
    const first = compileJsonSchema(schema);
    expect(compileJsonSchema(schema)).toBe(first);
    expect(compileJsonSchema({ type: 'object', properties: {} })).not.toBe(first);
  });

  it('keeps recursive $defs working and lets two schemas share an $id', () => {
    const tree = (id: string): JsonSchema => ({
      $id: id,
      type: 'object',
      $defs: {
        node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          additionalProperties: false,
        },
      },
      properties: { root: { $ref: '#/$defs/node' } },
    });
    const a = tree('https://example.test/tree');
    const b = tree('https://example.test/tree');
    expect(validateJsonSchema(a, { root: { children: [{ children: [] }] } })).toEqual([]);
    expect(validateJsonSchema(b, { root: { children: [{ bad: 1 }] } })).toEqual([
      { path: '/root/children/0/bad', message: 'is not an allowed property' },
    ]);
    expect(validateJsonSchema(a, { root: { children: [{ bad: 1 }] } })).toHaveLength(1);
  });

  it('ignores unknown formats and keywords instead of failing', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { at: { type: 'string', format: 'date-time', 'x-vendor': true } },
    };
    expect(validateJsonSchema(schema, { at: 'not a date' })).toEqual([]);
  });

  it('throws ToolDefinitionError for a schema that is not an object', () => {
    for (const schema of [true, null, [], 'schema']) {
      expect(() => compileJsonSchema(schema as unknown as JsonSchema)).toThrow(
        'Invalid input schema: a JSON Schema must be an object',
      );
    }
  });

  it('throws ToolDefinitionError for a schema ajv cannot compile', () => {
    expect(() =>
      validateJsonSchema({ type: 'object', properties: { a: { type: 'strng' } } }, {}),
    ).toThrow(ToolDefinitionError);
    expect(() =>
      compileJsonSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }),
    ).toThrow(/Invalid input schema: .*missing/);
  });

  it('names each problem of an invalid schema once', () => {
    // A draft-07 tuple (`items` as an array) breaks several 2020-12 meta-schema rules at once.
    const tuple = { type: 'array', items: [{ type: 'string' }, { type: 'number' }] };
    const message = (() => {
      try {
        compileJsonSchema({ type: 'object', properties: { pair: tuple } } as never);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain('/properties/pair/items must be object,boolean');
    expect(message.split('/properties/pair/items must be object,boolean')).toHaveLength(2);
  });
});
