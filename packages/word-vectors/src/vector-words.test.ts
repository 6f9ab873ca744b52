import { describe, expect, it } from 'vitest';
import { schemaText } from './schema-text.js';
import { vectorWords } from './vector-words.js';

describe('vectorWords', () => {
  it('splits identifiers and lowers case', () => {
    expect(vectorWords('getCurrentWeather get_current-weather HTTPServer')).toEqual([
      'get',
      'current',
      'weather',
      'get',
      'current',
      'weather',
      'http',
      'server',
    ]);
    expect(vectorWords('Café au lait, 3 cups!')).toEqual(['café', 'au', 'lait', '3', 'cups']);
  });
});

describe('schemaText', () => {
  it('reads parameter names, descriptions and allowed values, nested and in alternatives', () => {
    const text = schemaText({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'Where' },
        unit: { enum: ['celsius', 'fahrenheit', 3] },
        stops: {
          type: 'array',
          items: { type: 'object', properties: { station: { const: 'central' } } },
        },
        when: { anyOf: [{ type: 'string', enum: ['today'] }, { type: 'number' }] },
      },
    });
    expect(text.split(' ')).toEqual([
      'city',
      'Where',
      'unit',
      'stops',
      'when',
      'celsius',
      'fahrenheit',
      'station',
      'central',
      'today',
    ]);
    expect(schemaText(undefined)).toBe('');
  });
});
