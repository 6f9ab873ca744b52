import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../../errors/index.js';
import type { JsonSchema } from '../json-schema.js';
import { normalizeInputSchema } from './normalize-input-schema.js';

const NO_ARGUMENTS =
  '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"required":[],"additionalProperties":false}';

describe('normalizeInputSchema', () => {
  it.each([
    [{}],
    [{ type: 'object' }],
    [{ type: 'object', properties: {} }],
    [{ properties: {}, required: [] }],
  ])('gives the exact no-argument schema for %j', (schema) => {
    expect(JSON.stringify(normalizeInputSchema(schema))).toBe(NO_ARGUMENTS);
  });

  it('orders the root keys $schema, type, $defs, properties, required, additionalProperties, then the rest', () => {
    const normalized = normalizeInputSchema({
      description: 'search',
      required: ['q'],
      properties: { q: { type: 'string' } },
      $defs: { Filter: { type: 'object', properties: { field: { type: 'string' } } } },
      type: 'object',
    });
    expect(Object.keys(normalized)).toEqual([
      '$schema',
      'type',
      '$defs',
      'properties',
      'required',
      'additionalProperties',
      'description',
    ]);
  });

  it('closes every nested object with properties, in items, $defs and maps alike', () => {
    const normalized = normalizeInputSchema({
      type: 'object',
      properties: {
        person: { type: 'object', properties: { name: { type: 'string' } } },
        people: {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'integer' } } },
        },
        open: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
        scores: { type: 'object', additionalProperties: { type: 'number' } },
      },
      $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
    });
    const properties = normalized.properties as Record<string, JsonSchema>;
    expect(properties.person?.additionalProperties).toBe(false);
    expect((properties.people?.items as JsonSchema | undefined)?.additionalProperties).toBe(false);
    expect(properties.open?.additionalProperties).toBe(true);
    expect(properties.scores?.additionalProperties).toEqual({ type: 'number' });
    expect(normalized.$defs?.Node?.additionalProperties).toBe(false);
  });

  it('keeps an explicit additionalProperties on the root', () => {
    expect(
      normalizeInputSchema({ type: 'object', additionalProperties: true }).additionalProperties,
    ).toBe(true);
  });

  it('leaves objects open where they are combined with other schemas', () => {
    const normalized = normalizeInputSchema({
      type: 'object',
      properties: {
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } } },
            { type: 'object', properties: { b: { type: 'string' } } },
          ],
        },
      },
      anyOf: [{ required: ['both'] }],
    });
    expect(normalized.additionalProperties).toBeUndefined();
    const both = (normalized.properties as Record<string, JsonSchema>).both as JsonSchema;
    expect((both.allOf as JsonSchema[]).map((member) => member.additionalProperties)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('replaces another draft and does not modify its input', () => {
    const input: JsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { a: { type: 'object', properties: {} } },
    };
    const before = structuredClone(input);
    const normalized = normalizeInputSchema(input);
    expect(normalized.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(input).toEqual(before);
    expect(normalized.properties).not.toBe(input.properties);
  });

  it.each([
    [{ type: 'string' }, 'not type "string"'],
    [{ type: 'array', items: {} }, 'not type "array"'],
    [{ type: ['string', 'object'] }, 'not type ["string","object"]'],
  ])('rejects a root that is not an object schema: %j', (schema, message) => {
    expect(() => normalizeInputSchema(schema)).toThrow(ToolDefinitionError);
    expect(() => normalizeInputSchema(schema)).toThrow(message);
  });

  it.each([null, 'schema', [], 3])('rejects %j', (schema) => {
    expect(() => normalizeInputSchema(schema)).toThrow(
      'A tool input schema must be a JSON Schema object',
    );
  });
});
