import { describe, expect, it } from 'vitest';
import {
  packedParameterValueKinds,
  parameterValueKinds,
  requestValueKinds,
  ValueKind,
  weighByValueKinds,
} from './value-kinds.js';

const { DATE, TIME, MONEY, EMAIL, URL, PLACE, PEOPLE, FILE } = ValueKind;

describe('requestValueKinds', () => {
  it.each([
    ['the weather in Portland on April 5th, 2023', DATE | PLACE],
    ['check in on 05/10/2023 and out on the 15th of May', DATE],
    ['what about 2023-04-20', DATE],
    ['something to do Tuesday next week', DATE],
    ['movies showing tonight', DATE],
    ['remind me at 9 pm', TIME],
    ['a meeting at 12:00', TIME],
    ['I had 100$ and donated 40', MONEY],
    ['split €30 between us', MONEY],
    ['each friend gave me 10 euros', MONEY],
    ['write to jane.doe@example.com', EMAIL],
    ['summarise https://example.com/a', URL],
    ['open www.example.org please', URL],
    ['a table for 4 people', PEOPLE],
    ['two adults and three kids', PEOPLE],
    ['save it to report.docx', FILE],
    ['list /root/data/ for me', FILE],
  ])('%s', (text, kinds) => {
    expect(requestValueKinds(text)).toBe(kinds);
  });

  it('finds no kind in a request that carries no such value', () => {
    expect(requestValueKinds('play some jazz')).toBe(0);
    expect(requestValueKinds('may I ask what time zones are')).toBe(0);
    expect(requestValueKinds('in python, sort a list')).toBe(0);
    expect(requestValueKinds('')).toBe(0);
  });

  it('reads long repetitive input without a value as carrying none', () => {
    const text = `${'1'.repeat(5000)} ${'a@'.repeat(2000)} ${'in a '.repeat(2000)}`;
    expect(requestValueKinds(text)).toBe(0);
  });
});

describe('parameterValueKinds', () => {
  it('reads the kinds from parameter names and formats, nested parameters included', () => {
    const kinds = parameterValueKinds({
      type: 'object',
      properties: {
        check_in_date: { type: 'string' },
        numberOfAdults: { type: 'integer' },
        city: { type: 'string' },
        contact: {
          type: 'object',
          properties: { reply_to: { type: 'string', format: 'email' } },
        },
        attachments: { type: 'array', items: { type: 'object', properties: { path: {} } } },
        when: { type: 'string', format: 'date-time' },
        note: { type: 'string', description: 'a date, a price, a place' },
      },
    });
    expect(kinds.taken).toBe(DATE | TIME | PEOPLE | PLACE | EMAIL | FILE);
    expect(kinds.required).toBe(0);
  });

  it('reads the required kinds from the top-level required parameters only', () => {
    const kinds = parameterValueKinds({
      type: 'object',
      required: ['location', 'check_in_date', 'nested'],
      properties: {
        location: { type: 'string' },
        check_in_date: { type: 'string' },
        total_price: { type: 'number' },
        website: { type: 'string' },
        nested: {
          type: 'object',
          required: ['time'],
          properties: { time: { type: 'string' } },
        },
      },
    });
    expect(kinds.taken).toBe(PLACE | DATE | MONEY | URL | TIME);
    expect(kinds.required).toBe(PLACE | DATE);
  });

  it('takes no kind from a missing or malformed schema', () => {
    expect(parameterValueKinds(undefined)).toEqual({ taken: 0, required: 0 });
    expect(parameterValueKinds({ type: 'object', required: 'date' as never })).toEqual({
      taken: 0,
      required: 0,
    });
    expect(
      parameterValueKinds({
        type: 'object',
        properties: { date: null as never },
        required: ['date'],
      }),
    ).toEqual({ taken: DATE, required: DATE });
  });
});

describe('weighByValueKinds', () => {
  const dateTool = packedParameterValueKinds({
    type: 'object',
    properties: { date: { type: 'string' }, city: { type: 'string' } },
    required: ['date'],
  });

  it("raises tools taking the request's kinds and lowers those requiring a kind it lacks", () => {
    const kinds = Uint16Array.of(0, dateTool, dateTool);
    const withDate = Float64Array.of(1, 1, 0);
    weighByValueKinds(withDate, kinds, DATE | PEOPLE);
    // Half the request's kinds taken: 1 + 0.3 / 2; a score of 0 stays 0.
    expect([...withDate]).toEqual([1, 1.15, 0]);
    const without = Float64Array.of(1, 1, 1);
    weighByValueKinds(without, kinds, 0);
    expect(without[0]).toBe(1);
    expect(without[1]).toBeCloseTo(0.85, 12);
  });

  it('packs taken kinds in the low byte and required kinds in the high byte', () => {
    expect(dateTool).toBe(DATE | PLACE | (DATE << 8));
  });
});
