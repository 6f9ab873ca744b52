import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolDefinitionError } from '../../errors/index.js';
import type { JsonSchema } from '../json-schema.js';
import type { StandardJsonSchemaV1 } from './standard-schema.js';
import { isStandardJsonSchema, isStandardSchema } from './standard-schema.js';
import { resolveToolInputSchema } from './tool-input-schema.js';

const NO_ARGUMENTS =
  '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"required":[],"additionalProperties":false}';

/** A Standard Schema written by hand, as a non-Zod library would provide it. */
function evenNumberSchema(): StandardJsonSchemaV1<{ n: number }, { n: number; half: number }> {
  const jsonSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
  return {
    '~standard': {
      version: 1,
      vendor: 'handmade',
      validate(value) {
        const n = (value as { n?: unknown }).n;
        if (typeof n !== 'number' || n % 2 !== 0) {
          return { issues: [{ message: 'must be even', path: [{ key: 'n' }] }] };
        }
        return { value: { n, half: n / 2 } };
      },
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  };
}

describe('resolveToolInputSchema', () => {
  it('gives the exact no-argument schema when there is no inputSchema, for Zod and for JSON Schema', async () => {
    for (const inputSchema of [undefined, z.object({}), { type: 'object', properties: {} }]) {
      expect(JSON.stringify(resolveToolInputSchema(inputSchema, 'noArgs').jsonSchema)).toBe(
        NO_ARGUMENTS,
      );
    }
    const resolved = resolveToolInputSchema(undefined, 'noArgs');
    expect(await resolved.validate({})).toEqual({ ok: true, value: {} });
    expect(await resolved.validate({ surprise: 1 })).toEqual({
      ok: false,
      issues: [{ path: '/surprise', message: 'is not an allowed property' }],
    });
  });

  describe('a Zod schema', () => {
    const schema = z.object({
      city: z.string().describe('City name'),
      unit: z.enum(['C', 'F']).optional(),
      region: z.string().nullable(),
      days: z.number().int().default(3),
      where: z.object({ lat: z.number(), lon: z.number(), label: z.string().nullable() }),
    });

    it('is normalised: required lists every property that is not optional, nullable or defaulted', () => {
      const { jsonSchema } = resolveToolInputSchema(schema, 'weather');
      expect(Object.keys(jsonSchema)).toEqual([
        '$schema',
        'type',
        'properties',
        'required',
        'additionalProperties',
      ]);
      expect(jsonSchema.required).toEqual(['city', 'where']);
      expect(jsonSchema.additionalProperties).toBe(false);
      const where = (jsonSchema.properties as Record<string, JsonSchema>).where as JsonSchema;
      expect(where.required).toEqual(['lat', 'lon']);
      expect(where.additionalProperties).toBe(false);
      expect((jsonSchema.properties as Record<string, JsonSchema>).city).toEqual({
        type: 'string',
        description: 'City name',
      });
    });

    it('validates with Zod itself: defaults applied, omitted nullables passed as null', async () => {
      const { validate } = resolveToolInputSchema(schema, 'weather');
      expect(await validate({ city: 'Paris', where: { lat: 1, lon: 2 } })).toEqual({
        ok: true,
        value: { city: 'Paris', region: null, days: 3, where: { lat: 1, lon: 2, label: null } },
      });
    });

    it('reports Zod issues with JSON-pointer paths', async () => {
      const { validate } = resolveToolInputSchema(schema, 'weather');
      const result = await validate({ city: 7, unit: 'K', where: { lat: 'north', lon: 2 } });
      expect(result.ok).toBe(false);
      const paths = result.ok ? [] : result.issues.map((issue) => issue.path);
      expect(paths).toEqual(['/city', '/unit', '/where/lat']);
    });

    it('applies transforms of the input', async () => {
      const trimmed = z.object({ name: z.string().trim().toUpperCase() });
      expect(await resolveToolInputSchema(trimmed, 'shout').validate({ name: '  ada ' })).toEqual({
        ok: true,
        value: { name: 'ADA' },
      });
    });

    it('escapes ~ and / in issue paths', async () => {
      const odd = z.object({ 'a/b': z.object({ 'c~d': z.string() }) });
      const result = await resolveToolInputSchema(odd, 'odd').validate({ 'a/b': { 'c~d': 1 } });
      expect(result.ok ? [] : result.issues.map((issue) => issue.path)).toEqual(['/a~1b/c~0d']);
    });

    it('keeps recursive definitions and closes them', () => {
      const category: z.ZodType<{ name: string; children: unknown[] }> = z.object({
        name: z.string(),
        get children() {
          return z.array(category);
        },
      });
      const { jsonSchema } = resolveToolInputSchema(z.object({ root: category }), 'tree');
      const text = JSON.stringify(jsonSchema);
      expect(text).toContain('"$ref":"#/$defs/');
      expect(Object.keys(jsonSchema.$defs ?? {})).toHaveLength(1);
      expect(Object.keys(jsonSchema).indexOf('$defs')).toBeLessThan(
        Object.keys(jsonSchema).indexOf('properties'),
      );
      for (const definition of Object.values(jsonSchema.$defs ?? {})) {
        expect(definition.additionalProperties).toBe(false);
      }
    });

    it('fails at definition time when Zod cannot express the schema', () => {
      const bad = z.object({ when: z.date() });
      expect(() => resolveToolInputSchema(bad, 'dated')).toThrow(ToolDefinitionError);
      expect(() => resolveToolInputSchema(bad, 'dated')).toThrow(
        "Cannot derive a JSON Schema from the inputSchema of tool 'dated'",
      );
    });

    it('rejects a Zod schema that is not an object', () => {
      expect(() => resolveToolInputSchema(z.string(), 'text')).toThrow(
        /Tool 'text': A tool input schema must describe a JSON object/,
      );
    });
  });

  describe('reference generator cases, with Zod', () => {
    it('simple parameters: all required, no extra properties', () => {
      const { jsonSchema } = resolveToolInputSchema(
        z.object({ name: z.string(), age: z.number() }),
        'simple',
      );
      expect(JSON.stringify(jsonSchema)).toBe(
        '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"type":"string"},"age":{"type":"number"}},"required":["name","age"],"additionalProperties":false}',
      );
    });

    it('an optional described parameter: only the other one is required', () => {
      const { jsonSchema } = resolveToolInputSchema(
        z.object({
          username: z.string().optional().describe('The user name'),
          password: z.string(),
        }),
        'login',
      );
      expect(jsonSchema.required).toEqual(['password']);
      expect((jsonSchema.properties as Record<string, JsonSchema>).username?.description).toBe(
        'The user name',
      );
    });

    it('map-like parameters keep their value schema and validate', async () => {
      const resolved = resolveToolInputSchema(
        z.object({
          counts: z.record(z.string(), z.number()),
          rows: z.array(z.record(z.string(), z.number())),
        }),
        'maps',
      );
      const counts = (resolved.jsonSchema.properties as Record<string, JsonSchema>)
        .counts as JsonSchema;
      expect(counts.additionalProperties).toEqual({ type: 'number' });
      expect(await resolved.validate({ counts: { a: 1 }, rows: [{ b: 2 }, {}] })).toEqual({
        ok: true,
        value: { counts: { a: 1 }, rows: [{ b: 2 }, {}] },
      });
      const bad = await resolved.validate({ counts: { a: 'x' }, rows: [{ b: 2 }, { c: 'y' }] });
      expect(bad.ok ? [] : bad.issues.map((issue) => issue.path)).toEqual([
        '/counts/a',
        '/rows/1/c',
      ]);
    });

    it('an enum becomes a string enum', () => {
      const { jsonSchema } = resolveToolInputSchema(
        z.object({ month: z.enum(['JANUARY', 'FEBRUARY']) }),
        'm',
      );
      expect((jsonSchema.properties as Record<string, JsonSchema>).month).toEqual({
        type: 'string',
        enum: ['JANUARY', 'FEBRUARY'],
      });
    });
  });

  describe('another Standard Schema', () => {
    it('is detected structurally and validated by its own validate', async () => {
      const schema = evenNumberSchema();
      expect(isStandardSchema(schema) && isStandardJsonSchema(schema)).toBe(true);
      const resolved = resolveToolInputSchema(schema, 'halve');
      expect(resolved.jsonSchema.required).toEqual(['n']);
      expect(resolved.jsonSchema.additionalProperties).toBe(false);
      expect(await resolved.validate({ n: 4 })).toEqual({ ok: true, value: { n: 4, half: 2 } });
      expect(await resolved.validate({ n: 3 })).toEqual({
        ok: false,
        issues: [{ path: '/n', message: 'must be even' }],
      });
    });

    it('is refused with a clear message when it exposes no JSON Schema', () => {
      const withoutJson = {
        '~standard': { version: 1, vendor: 'valibot', validate: () => ({ value: {} }) },
      };
      expect(isStandardJsonSchema(withoutJson)).toBe(false);
      expect(() => resolveToolInputSchema(withoutJson, 'v')).toThrow(
        "The inputSchema of tool 'v' is a valibot schema that does not expose JSON Schema",
      );
    });

    it('refuses an old Zod schema without ~standard', () => {
      expect(() => resolveToolInputSchema({ _def: { typeName: 'ZodObject' } }, 'old')).toThrow(
        "The inputSchema of tool 'old': Zod 3 is not supported: install zod@^4.2",
      );
    });
  });

  describe('a raw JSON Schema', () => {
    const raw: JsonSchema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        filters: { type: 'object', properties: { max: { type: 'number' } } },
      },
      required: ['city'],
    };

    it('is normalised and validated with ajv', async () => {
      const resolved = resolveToolInputSchema(raw, 'search');
      expect(JSON.stringify(resolved.jsonSchema)).toBe(
        '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"city":{"type":"string"},"filters":{"type":"object","properties":{"max":{"type":"number"}},"additionalProperties":false}},"required":["city"],"additionalProperties":false}',
      );
      expect(await resolved.validate({ city: 'Rome' })).toEqual({
        ok: true,
        value: { city: 'Rome' },
      });
      expect(await resolved.validate({ filters: { max: 'x', min: 1 } })).toEqual({
        ok: false,
        issues: expect.arrayContaining([
          { path: '/city', message: 'is required' },
          { path: '/filters/max', message: 'must be number' },
          { path: '/filters/min', message: 'is not an allowed property' },
        ]),
      });
    });

    it('keeps nullable properties required (the author decides)', () => {
      const resolved = resolveToolInputSchema(
        { type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'] },
        'n',
      );
      expect(resolved.jsonSchema.required).toEqual(['a']);
    });

    it('fails at definition time when ajv cannot compile it', () => {
      expect(() =>
        resolveToolInputSchema({ type: 'object', properties: { a: { type: 'text' } } }, 'broken'),
      ).toThrow(/Tool 'broken': Invalid input schema/);
    });

    it.each([null, 'schema', [], 5])('rejects %j as an inputSchema', (value) => {
      expect(() => resolveToolInputSchema(value, 't')).toThrow(ToolDefinitionError);
    });
  });
});
