import { createRequire } from 'node:module';
import type { RE2JS as RE2JSClass, RE2Set as RE2SetClass } from 're2js';

/**
 * Work one argument check may spend on `pattern` checks: each test of a string of `n` UTF-16
 * units against a pattern compiled to `k` instructions costs `(n + 1) × k`. The engine's worst
 * case (its DFA thrashing, then its NFA) measured 50–100 ns per unit, cold, on a shared 2-core
 * machine (`bench/pattern-check.ts`: at most about 6 ms added per check); the common DFA path
 * costs about 1 ns. The budget allows about 11,000 characters against `^(a+)+$` (9
 * instructions), 16,000 against `^[A-Za-z0-9+/=]*$`, 5,000 against an e-mail pattern.
 */
export const PATTERN_CHECK_BUDGET = 100_000;

/**
 * DFA cache of one pattern. Small on purpose: a pattern whose DFA thrashes (each character a new
 * state, each state costing its whole program) gives up for the NFA sooner, which bounds the
 * cost per character and instruction; patterns with few states (nearly all) fit many times over.
 */
const DFA_MEMORY_BYTES = 64 * 1024;

/** Thrown by a linear pattern test when the current argument check has spent its budget. */
export class PatternBudgetExceeded extends Error {
  constructor() {
    super('pattern check budget exceeded');
    this.name = 'PatternBudgetExceeded';
  }
}

let remaining = PATTERN_CHECK_BUDGET;

/** Starts the budget of one argument check (called by the validator before each check). */
export function resetPatternBudget(): void {
  remaining = PATTERN_CHECK_BUDGET;
}

interface Re2Module {
  RE2JS: typeof RE2JSClass;
  RE2Set: typeof RE2SetClass;
}

let re2: Re2Module | undefined;

// Loaded on first use (its CommonJS build, synchronously): importing toolloop costs nothing until
// a schema from an untrusted source is compiled.
function engine(): Re2Module {
  re2 ??= createRequire(import.meta.url)('re2js') as Re2Module;
  return re2;
}

/** What ajv needs of a compiled pattern. */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/**
 * Compiles an ECMAScript `pattern` (JSON Schema `pattern`, `patternProperties` keys) for a
 * RE2 engine (`re2js`, pure JavaScript): matching time is linear in the text, whatever the
 * pattern, so no pattern can freeze the process (`^(a+)+$` on any text). Each test is charged
 * to the current argument check's budget ({@link PATTERN_CHECK_BUDGET}) and throws
 * {@link PatternBudgetExceeded} when it would overspend.
 *
 * Refused (the error names the pattern): syntax that is not ECMAScript, and what RE2 cannot run
 * in linear time: lookahead, lookbehind, backreferences. Given to ajv as `code.regExp`.
 */
export const linearRegExp = Object.assign(
  (pattern: string, flags: string): LinearRegExp => {
    // ECMAScript syntax first (compiling never runs the backtracking matcher).
    new RegExp(pattern, flags);
    if (hasBackreference(pattern)) {
      throw new Error(
        `pattern ${JSON.stringify(pattern)} uses a backreference, which the linear-time regex engine does not support`,
      );
    }
    const { RE2JS, RE2Set } = engine();
    let weight: number;
    let set: RE2SetClass;
    try {
      const translated = RE2JS.translateRegExp(pattern);
      weight = Math.max(1, Number(RE2JS.compile(translated).re2Input.numberOfInstructions()));
      set = new RE2Set(RE2Set.UNANCHORED, 0, DFA_MEMORY_BYTES);
      set.add(translated);
      set.compile();
    } catch (error) {
      throw new Error(
        `pattern ${JSON.stringify(pattern)} cannot run on the linear-time regex engine: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const key = `linear:/${pattern}/${flags}`;
    return {
      test(text: string): boolean {
        const cost = (text.length + 1) * weight;
        if (cost > remaining) {
          remaining = 0;
          throw new PatternBudgetExceeded();
        }
        remaining -= cost;
        return set.match(text).length > 0;
      },
      toString: () => key,
    };
  },
  // ajv's standalone code generation names the engine by this; toolloop never generates it.
  { code: 'toolloop-linear-reg-exp' },
);

/** `\1`…`\9` or `\k<name>` outside a character class. */
function hasBackreference(pattern: string): boolean {
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[index + 2] === '<'))) {
        return true;
      }
      index++;
    } else if (char === '[') {
      inClass = true;
    } else if (char === ']') {
      inClass = false;
    }
  }
  return false;
}
