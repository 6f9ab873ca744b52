import { splitIdentifier } from '../internal/search-text/words.js';
import type { ToolReference } from './tool-reference.js';

// A plain alternation of words and fixed phrases: linear time on any input.
const ARITHMETIC_REQUEST =
  /\b(?:calculate|calculating|calculation|compute|computing|estimate|estimating|work out|add up|sum up|in total|percentage|ratio|bmi|body mass index)\b/i;

/**
 * Whether a request asks for a number worked out from others: to calculate or compute it, to
 * estimate it ("estimate its value at the current price"), a total, a percentage, a ratio, or a
 * quantity defined by a formula (a BMI). Such a request needs arithmetic whichever tools give it
 * the numbers, though its words name what the numbers are about, not a calculator.
 */
export function requestImpliesArithmetic(text: string): boolean {
  return ARITHMETIC_REQUEST.test(text);
}

/**
 * Parameter names of a tool that evaluates whatever arithmetic it is given. Not `equation` or
 * `formula`: equation solvers and spreadsheet tools take those and do one kind of mathematics; not
 * a longer name ending in "expression" either (`tagFilterExpression` filters, it does not count).
 */
const EXPRESSION_PARAMETERS = new Set(['expression', 'expr']);

/**
 * Whether a tool is a general calculator: one of its parameters is the expression to evaluate
 * (`{"expression": "9.5 * 76.2"}`), whatever its name and description say.
 */
export function evaluatesExpressions(reference: ToolReference): boolean {
  for (const name of Object.keys(reference.inputSchema?.properties ?? {})) {
    const words = splitIdentifier(name);
    if (words.length === 1 && EXPRESSION_PARAMETERS.has(words[0] as string)) return true;
  }
  return false;
}

/**
 * What {@link addCalculatorBonus} adds to a calculator's score, in the units of a
 * `LexicalToolIndex` score with word vectors (about 1 for the second-best lexical hit plus a cosine
 * similarity): enough to bring a calculator the request's words do not match into the first
 * five, not enough to pass a tool the request names. Chosen on the tuning halves (1 finds fewer
 * calculators, 2 no more than 1.5).
 */
export const CALCULATOR_BONUS = 1.5;

/**
 * Below the best other tool: the calculator works on the numbers another tool gives, so it is
 * raised beside that tool, not above it.
 */
const BELOW_BEST = 0.999;

/**
 * Adds `bonus` to the score of every calculator (`calculators[slot]` is 1) when the request implies
 * arithmetic, so a calculator reaches the first results beside the tools that give the numbers,
 * though never past the best other tool by the bonus alone (a calculator the request's own words
 * rank first stays first).
 */
export function addCalculatorBonus(
  scores: Float64Array,
  calculators: Uint8Array,
  bonus: number = CALCULATOR_BONUS,
): void {
  let bestOther = 0;
  for (let slot = 0; slot < scores.length; slot++) {
    if (calculators[slot] !== 1) bestOther = Math.max(bestOther, scores[slot] as number);
  }
  for (let slot = 0; slot < scores.length; slot++) {
    if (calculators[slot] !== 1) continue;
    const score = scores[slot] as number;
    const raised = bestOther > 0 ? Math.min(score + bonus, bestOther * BELOW_BEST) : score + bonus;
    scores[slot] = Math.max(score, raised);
  }
}
