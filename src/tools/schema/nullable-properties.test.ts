import { describe, expect, it } from 'vitest';
import { fillOmittedNullables, relaxNullableRequired } from './nullable-properties.js';

describe('relaxNullableRequired / fillOmittedNullables', () => {
  const schema = () => ({
    type: 'object',
    properties: {
      name: { type: 'string' },
      nickname: { type: ['string', 'null'] },
      note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      rows: {
        type: 'array',
        items: {
          type: 'object',
          properties: { v: { type: 'number', nullable: true } },
          required: ['v'],
        },
      },
    },
    required: ['name', 'nickname', 'note', 'rows'],
  });

  it('takes nullable properties out of required, nested ones too', () => {
    const relaxed = schema();
    relaxNullableRequired(relaxed);
    expect(relaxed.required).toEqual(['name', 'rows']);
    expect(relaxed.properties.rows.items.required).toEqual([]);
  });

  it('fills exactly the relaxed properties with null, without touching the input', () => {
    const plan = relaxNullableRequired(schema());
    const value = { name: 'a', note: 'kept', rows: [{}, { v: 2 }] };
    expect(fillOmittedNullables(plan, value)).toEqual({
      name: 'a',
      nickname: null,
      note: 'kept',
      rows: [{ v: null }, { v: 2 }],
    });
    expect(value).toEqual({ name: 'a', note: 'kept', rows: [{}, { v: 2 }] });
  });

  it('returns no plan and leaves values alone when nothing is nullable', () => {
    const plain = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const plan = relaxNullableRequired(plain);
    expect(plan).toBeUndefined();
    expect(plain.required).toEqual(['a']);
    const value = { b: 1 };
    expect(fillOmittedNullables(plan, value)).toBe(value);
  });
});
