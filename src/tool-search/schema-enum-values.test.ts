import { describe, expect, it } from 'vitest';
import { schemaEnumValues } from './schema-enum-values.js';

describe('schemaEnumValues', () => {
  it('collects the string enum and const values of nested properties, array items and alternatives', () => {
    expect(
      schemaEnumValues({
        type: 'object',
        properties: {
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          count: { type: 'integer', enum: [1, 2, 3] },
          options: {
            type: 'object',
            properties: { mode: { type: 'string', const: 'strict' } },
          },
          tags: { type: 'array', items: { type: 'string', enum: ['red', 'green'] } },
          pair: { type: 'array', items: [{ enum: ['left'] }, { enum: ['right'] }] },
          shape: { anyOf: [{ enum: ['circle'] }, { oneOf: [{ const: 'square' }] }] },
        },
      }),
    ).toEqual([
      'celsius',
      'fahrenheit',
      'strict',
      'red',
      'green',
      'left',
      'right',
      'circle',
      'square',
    ]);
  });

  it('returns nothing for a missing schema and stops 4 levels deep', () => {
    expect(schemaEnumValues(undefined)).toEqual([]);
    const deep = (depth: number): Record<string, unknown> =>
      depth === 0
        ? { type: 'string', enum: [`at-${depth}`] }
        : { type: 'object', enum: [`at-${depth}`], properties: { next: deep(depth - 1) } };
    expect(schemaEnumValues(deep(6) as never)).toEqual(['at-6', 'at-5', 'at-4', 'at-3', 'at-2']);
  });
});
