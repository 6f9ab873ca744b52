import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../tools/json-schema.js';
import {
  addCalculatorBonus,
  CALCULATOR_BONUS,
  evaluatesExpressions,
  requestImpliesArithmetic,
} from './implied-arithmetic.js';

describe('requestImpliesArithmetic', () => {
  it('sees requests for a number worked out from others', () => {
    for (const request of [
      'I have 9.5g gold, please estimate its value based on the current price of gold',
      "Read the data in people.xlsx and tell me Sophia Moore's BMI",
      'can you also calculate their current market capitalization?',
      'Compute the monthly payment',
      'What do my groceries cost in total?',
      'the percentage change of each stock',
      'work out the price-to-earnings ratio',
      'Add up the invoices of March',
    ]) {
      expect(requestImpliesArithmetic(request), request).toBe(true);
    }
  });

  it('ignores requests that only mention numbers or words containing the cue words', () => {
    for (const request of [
      'Tell me the price of nvidia stock right now',
      'Find 3 hotels in Paris for 2 adults',
      'summarize the totality of the report', // "total" inside another word
      'list the rational numbers', // "ratio" inside another word
      'estimated time of arrival', // an estimate already made, not one to make
      '',
    ]) {
      expect(requestImpliesArithmetic(request), request).toBe(false);
    }
  });
});

describe('evaluatesExpressions', () => {
  const tool = (properties: Record<string, JsonSchema>) => ({
    toolName: 'any',
    summary: 'Anything',
    inputSchema: { type: 'object', properties },
  });

  it('knows a calculator by its expression parameter, whatever its name', () => {
    expect(evaluatesExpressions(tool({ expression: { type: 'string' } }))).toBe(true);
    expect(evaluatesExpressions(tool({ expr: { type: 'string' }, precision: {} }))).toBe(true);
    expect(evaluatesExpressions(tool({ Expression: { type: 'string' } }))).toBe(true);
  });

  it('leaves out equation solvers, spreadsheets, filters and tools without parameters', () => {
    expect(evaluatesExpressions(tool({ equation: {}, variable: {} }))).toBe(false);
    expect(evaluatesExpressions(tool({ formula: {}, cell: {} }))).toBe(false);
    expect(evaluatesExpressions(tool({ tagFilterExpression: {} }))).toBe(false);
    expect(evaluatesExpressions({ toolName: 'calculate', summary: 'Calculates' })).toBe(false);
  });
});

describe('addCalculatorBonus', () => {
  it('adds the bonus to calculators only, matched or not', () => {
    const scores = Float64Array.from([5, 0, 0.5, 1]);
    addCalculatorBonus(scores, Uint8Array.from([0, 1, 1]));
    expect([...scores]).toEqual([5, CALCULATOR_BONUS, 0.5 + CALCULATOR_BONUS, 1]);
  });

  it('raises a calculator to just below the best other tool, never past it by the bonus', () => {
    const scores = Float64Array.from([1, 0.2, 0.5]);
    addCalculatorBonus(scores, Uint8Array.from([0, 1, 0]));
    expect(scores[1]).toBeCloseTo(0.999, 10);
    // A calculator the request's words already rank first keeps its score.
    const first = Float64Array.from([1, 3]);
    addCalculatorBonus(first, Uint8Array.from([0, 1]));
    expect([...first]).toEqual([1, 3]);
    // With no other tool matched, the bonus alone.
    const alone = Float64Array.from([0, 0.25]);
    addCalculatorBonus(alone, Uint8Array.from([0, 1]), 1);
    expect([...alone]).toEqual([0, 1.25]);
  });
});
