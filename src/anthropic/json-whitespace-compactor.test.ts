import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAtFractions } from '../../test/support/cut-at-fractions.js';
import { JsonWhitespaceCompactor } from './json-whitespace-compactor.js';

function compact(pieces: readonly string[]): string[] {
  const compactor = new JsonWhitespaceCompactor();
  return pieces.map((piece) => compactor.push(piece));
}

describe('JsonWhitespaceCompactor', () => {
  it('turns indented JSON cut anywhere into pieces that add up to the compact JSON (property)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.constantFrom(0, 1, 2, '\t', ' \r\n'),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        (value, indent, cuts) => {
          const text = JSON.stringify(value, null, indent as never);
          const pieces = compact(cutAtFractions(text, cuts));
          expect(pieces.join('')).toBe(JSON.stringify(value));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('keeps whitespace, quotes and backslashes inside strings, across piece boundaries', () => {
    const text = '{ "a b": "x \\" y \\\\", "c":\n [ 1 , "\\\\" ] }';
    const expected = JSON.stringify(JSON.parse(text));
    for (let cut = 0; cut <= text.length; cut++) {
      expect(compact([text.slice(0, cut), text.slice(cut)]).join('')).toBe(expected);
    }
    expect(compact(['  ', '\n'])).toEqual(['', '']);
  });
});
