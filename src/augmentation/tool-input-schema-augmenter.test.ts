import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolDefinitionError } from '../errors/index.js';
import { tool } from '../tools/index.js';
import { ToolInputSchemaAugmenter } from './tool-input-schema-augmenter.js';

const weather = tool({
  name: 'weather',
  description: 'Weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => city,
});

describe('ToolInputSchemaAugmenter', () => {
  it('merges Zod extra fields into properties and required, keeping the tool schema unchanged', () => {
    const before = structuredClone(weather.definition.inputSchema);
    const augmenter = new ToolInputSchemaAugmenter(
      z.object({
        innerThought: z.string().describe('Your reasoning for calling this tool'),
        confidence: z.enum(['low', 'medium', 'high']).optional(),
      }),
    );
    const augmented = augmenter.augment(weather.definition.inputSchema, 'weather');
    expect(augmented.properties).toEqual({
      city: { type: 'string' },
      innerThought: { type: 'string', description: 'Your reasoning for calling this tool' },
      confidence: { type: 'string', enum: ['low', 'medium', 'high'] },
    });
    expect(augmented.required).toEqual(['city', 'innerThought']);
    expect(augmented.additionalProperties).toBe(false);
    expect(weather.definition.inputSchema).toEqual(before);
    expect(augmenter.argumentNames).toEqual(['innerThought', 'confidence']);
  });

  it('accepts a JSON Schema object and creates missing properties and required', () => {
    const augmenter = new ToolInputSchemaAugmenter({
      type: 'object',
      properties: { reasoning: { type: 'string' } },
      required: ['reasoning'],
    });
    const augmented = augmenter.augment({ type: 'object' }, 'bare');
    expect(augmented.properties).toEqual({ reasoning: { type: 'string' } });
    expect(augmented.required).toEqual(['reasoning']);
  });

  it('refuses a field that the tool already has, naming the tool and the field', () => {
    const augmenter = new ToolInputSchemaAugmenter(z.object({ city: z.string() }));
    const attempt = () => augmenter.augment(weather.definition.inputSchema, 'weather');
    expect(attempt).toThrow(ToolDefinitionError);
    expect(attempt).toThrow(/'weather' already has an input property 'city'/);
  });

  it('merges $defs the extra fields refer to and refuses a different definition of the same name', () => {
    const augmenter = new ToolInputSchemaAugmenter({
      type: 'object',
      properties: { agent: { $ref: '#/$defs/Agent' } },
      $defs: { Agent: { type: 'string' } },
    });
    const merged = augmenter.augment(
      {
        type: 'object',
        properties: { a: { type: 'number' } },
        $defs: { Other: { type: 'number' } },
      },
      't',
    );
    expect(merged.$defs).toEqual({ Other: { type: 'number' }, Agent: { type: 'string' } });
    expect(() =>
      augmenter.augment(
        { type: 'object', properties: {}, $defs: { Agent: { type: 'number' } } },
        't',
      ),
    ).toThrow(/schema definition '\$defs\/Agent'/);
  });

  it('refuses extra fields without properties, or that are not an object schema', () => {
    expect(() => new ToolInputSchemaAugmenter(z.object({}))).toThrow(/at least one property/);
    expect(() => new ToolInputSchemaAugmenter({ type: 'string' })).toThrow(ToolDefinitionError);
  });

  it('picks and omits the extra fields as new objects', () => {
    const augmenter = new ToolInputSchemaAugmenter(z.object({ why: z.string() }));
    const input = { city: 'Paris', why: 'asked' };
    expect(augmenter.pick(input)).toEqual({ why: 'asked' });
    expect(augmenter.omit(input)).toEqual({ city: 'Paris' });
    expect(input).toEqual({ city: 'Paris', why: 'asked' });
  });
});
