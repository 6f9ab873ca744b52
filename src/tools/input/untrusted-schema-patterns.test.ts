import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../../errors/index.js';
import type { JsonSchema } from '../json-schema.js';
import { compileJsonSchema, trustJsonSchema, validateJsonSchema } from './json-schema-validator.js';
import { DEFAULT_MAX_TOOL_ARGUMENTS_BYTES } from './parse-tool-arguments.js';

// Classic catastrophic-backtracking patterns (exponential or high-polynomial on a backtracking
// engine) and two that make a lazy DFA thrash.
const CATASTROPHIC: readonly [pattern: string, text: (length: number) => string][] = [
  ['^(a+)+$', failingRun],
  ['^(a|a)*$', failingRun],
  ['^(a|aa)+$', failingRun],
  ['^(.*a){20}$', failingRun],
  ['^(\\w+\\s?)*$', failingRun],
  [
    '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
    failingRun,
  ],
  ['(a|b)*a(a|b){20}$', randomAb],
  ['^([a-z]{1,30}){1,30}!$', failingRun],
];

function failingRun(length: number): string {
  return `${'a'.repeat(Math.max(0, length - 1))}!`;
}

function randomAb(length: number): string {
  let text = '';
  let seed = 12345;
  for (let index = 0; index < length; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    text += (seed >> 16) & 1 ? 'a' : 'b';
  }
  return text;
}

let unique = 0;

/** The pattern as a new schema (a fresh compile, so no DFA state is reused between runs). */
function freshSchema(pattern: string, where: 'property' | 'items' = 'property'): JsonSchema {
  const distinct = `${pattern}${'(?:)'.repeat(++unique % 50)}`;
  const text = { type: 'string', pattern: distinct };
  return {
    type: 'object',
    properties: { text: where === 'property' ? text : { type: 'array', items: text } },
  };
}

/** The shortest of `runs` synchronous validations: the time the event loop was blocked. */
function blockedMs(pattern: string, value: (schema: JsonSchema) => unknown, runs = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < runs; run++) {
    const schema = freshSchema(pattern);
    compileJsonSchema(schema);
    const input = value(schema);
    const started = performance.now();
    validateJsonSchema(schema, input);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('patterns of untrusted schemas (MCP servers, hand-built callbacks)', () => {
  it('no argument check blocks the event loop for more than 10 ms, up to the argument size limit', () => {
    // Lengths from the attack's 25 characters (about 0.1 s on a backtracking engine, seconds at
    // 30) up to a string that fills the whole argument limit. The best of three runs filters
    // the noise of a shared machine; a backtracking engine fails at the first length.
    const lengths = [25, 31, 1_000, 20_000, 200_000, DEFAULT_MAX_TOOL_ARGUMENTS_BYTES - 20];
    for (const [pattern, text] of CATASTROPHIC) {
      for (const length of lengths) {
        const input = text(length);
        const ms = blockedMs(pattern, () => ({ text: input }));
        expect(ms, `${pattern} on ${length} characters`).toBeLessThan(10);
      }
    }
  });

  it('bounds the work of many strings in one argument, not only of one string', () => {
    // Strings that match: a backtracking engine is fast on them too, so only the budget stops this.
    const schema = freshSchema('^(a|aa)+$', 'items');
    const many = Array.from({ length: 100 }, () => 'a'.repeat(9_000));
    const started = performance.now();
    const issues = validateJsonSchema(schema, { text: many });
    expect(performance.now() - started).toBeLessThan(50);
    expect(issues).toEqual([
      {
        path: '',
        message: expect.stringMatching(/^strings too long to check against the schema's patterns/),
      },
    ]);
  });

  it('still checks patterns: matches pass, mismatches are issues at their path', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
        word: { type: 'string', pattern: '^\\p{L}+$' },
        emoji: { type: 'string', pattern: '^\\u{1F600}$' },
      },
      patternProperties: { '^x-': { type: 'number' } },
    };
    expect(
      validateJsonSchema(schema, { code: 'ABC-1234', word: 'Grüße', emoji: '😀', 'x-a': 1 }),
    ).toEqual([]);
    expect(validateJsonSchema(schema, { code: 'abc-1234', word: 'a1', 'x-a': 'one' })).toEqual([
      { path: '/code', message: 'must match pattern "^[A-Z]{3}-\\d{4}$"' },
      { path: '/word', message: 'must match pattern "^\\p{L}+$"' },
      { path: '/x-a', message: 'must be number' },
    ]);
  });

  it('refuses lookaround and backreferences (not linear) with a ToolDefinitionError naming the pattern', () => {
    for (const pattern of ['^(?=a)a$', '^(?!a)b$', '(?<=a)b', '^(a)\\1$', '^(?<x>a)\\k<x>$']) {
      expect(() => compileJsonSchema(freshSchema(pattern)), pattern).toThrow(ToolDefinitionError);
      expect(() => compileJsonSchema(freshSchema(pattern)), pattern).toThrow(
        /linear-time regex engine/,
      );
    }
    expect(() => compileJsonSchema(freshSchema('(unclosed'))).toThrow(ToolDefinitionError);
  });

  it("keeps JavaScript's engine, lookahead included, for schemas the user wrote in code", () => {
    const schema = trustJsonSchema({
      type: 'object',
      properties: { password: { type: 'string', pattern: '^(?=.*\\d)(?=.*[a-z]).{8,}$' } },
    });
    expect(validateJsonSchema(schema, { password: 'abcdefg1' })).toEqual([]);
    expect(validateJsonSchema(schema, { password: 'abcdefgh' })).toHaveLength(1);
  });
});
