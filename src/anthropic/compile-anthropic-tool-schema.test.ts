import { describe, expect, it } from 'vitest';
import { compileAnthropicToolSchema } from './compile-anthropic-tool-schema.js';

describe('compileAnthropicToolSchema', () => {
  it('passes a normal object schema through untouched when not strict', () => {
    const schema = {
      type: 'object',
      properties: { n: { type: 'integer', minimum: 1 }, s: { type: 'string', maxLength: 5 } },
      required: ['n'],
    };
    expect(compileAnthropicToolSchema(schema, { strict: false })).toEqual({
      schema,
      strict: false,
      changes: [],
    });
  });

  it('flattens a root oneOf, which the API refuses', () => {
    const compiled = compileAnthropicToolSchema(
      {
        oneOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { type: 'object', properties: { b: { type: 'number' } } },
        ],
      },
      { strict: false },
    );
    expect(compiled.schema).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
    });
    expect(compiled.changes).toHaveLength(1);
  });

  it('strict: closes every object and removes unsupported constraints, keeping optional properties optional', () => {
    const compiled = compileAnthropicToolSchema(
      {
        type: 'object',
        properties: {
          n: { type: 'integer', minimum: 1, maximum: 9 },
          list: {
            type: 'array',
            items: { type: 'object', properties: { x: { type: 'string', format: 'uri' } } },
            minItems: 3,
          },
          when: { type: 'string', format: 'semver' },
        },
        required: ['n'],
      },
      { strict: true },
    );
    expect(compiled).toEqual({
      strict: true,
      schema: {
        type: 'object',
        properties: {
          n: { type: 'integer' },
          list: {
            type: 'array',
            items: {
              type: 'object',
              properties: { x: { type: 'string', format: 'uri' } },
              additionalProperties: false,
            },
          },
          when: { type: 'string' },
        },
        required: ['n'],
        additionalProperties: false,
      },
      changes: [
        'removed unsupported keyword "minimum" at /properties/n',
        'removed unsupported keyword "maximum" at /properties/n',
        'additionalProperties set to false at /properties/list/items',
        'removed minItems above 1 at /properties/list',
        'removed unsupported format "semver" at /properties/when',
        'additionalProperties set to false at /',
      ],
    });
  });
});
