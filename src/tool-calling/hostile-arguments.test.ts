import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Message, ToolCall, ToolResponseMessage } from '../messages/index.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { StandardJsonSchemaV1 } from '../tools/schema/standard-schema.js';
import { tool } from '../tools/tool.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { toolCallbacksFrom } from '../tools/tool-decorator.js';
import { promptWith, toolCallResponse } from './__tests__/spy-tool.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';

/*
 * Hostile model output against every tool style. One contract, written five ways: `city` a
 * non-empty string, optional `days` an integer 1–14, optional `weight` any finite number,
 * optional `tags` up to 5 strings, optional
 * `where` {lat, lon} in range, nothing else. An oracle written independently of the library
 * decides from the raw text whether a call is valid; a tool must run exactly on the valid ones.
 */

const RUNS = 1500;
const CALLS_PER_BATCH = 8;
/** Argument texts (or non-text values) the test sends: the figure the README quotes. */
const HOSTILE_TEXTS = RUNS * CALLS_PER_BATCH;

const rawSchema: JsonSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    days: { type: 'integer', minimum: 1, maximum: 14 },
    weight: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    where: {
      type: 'object',
      properties: {
        lat: { type: 'number', minimum: -90, maximum: 90 },
        lon: { type: 'number', minimum: -180, maximum: 180 },
      },
      required: ['lat', 'lon'],
      additionalProperties: false,
    },
  },
  required: ['city'],
  additionalProperties: false,
};

const zodSchema = z.object({
  city: z.string().min(1),
  days: z.number().int().min(1).max(14).optional(),
  weight: z.number().optional(),
  tags: z.array(z.string()).max(5).optional(),
  where: z
    .object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) })
    .optional(),
});

/** The oracle: is this raw text a valid call? Written without the library's parser. */
function isValidArguments(raw: unknown): boolean {
  if (typeof raw !== 'string' || Buffer.byteLength(raw) > 1024 * 1024) return false;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return false;
  }
  return isValidInput(value);
}

function isValidInput(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const allowed = new Set(['city', 'days', 'weight', 'tags', 'where']);
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  const { city, days, weight, tags, where } = value;
  if (!isText(city) || city.length === 0) return false;
  if (
    days !== undefined &&
    !(Number.isInteger(days) && (days as number) >= 1 && (days as number) <= 14)
  ) {
    return false;
  }
  if (weight !== undefined && !(typeof weight === 'number' && Number.isFinite(weight)))
    return false;
  if (tags !== undefined && !(Array.isArray(tags) && tags.length <= 5 && tags.every(isText))) {
    return false;
  }
  if (where !== undefined) {
    if (!isPlainObject(where)) return false;
    const keys = Object.keys(where).sort();
    if (keys.join(',') !== 'lat,lon') return false;
    if (!inRange(where.lat, 90) || !inRange(where.lon, 180)) return false;
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isText(value: unknown): value is string {
  return (
    typeof value === 'string' && (value as string & { isWellFormed(): boolean }).isWellFormed()
  );
}

function inRange(value: unknown, bound: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= -bound && value <= bound;
}

/** Every input a tool received, checked by the oracle (text for the hand-written callback). */
const received: { tool: string; valid: boolean }[] = [];

const standardSchema: StandardJsonSchemaV1 = {
  '~standard': {
    version: 1,
    vendor: 'hand-written',
    validate: (value) => ({ value }),
    jsonSchema: { input: () => rawSchema, output: () => rawSchema },
  },
};

class MethodTools {
  @tool({ inputSchema: rawSchema })
  decoratedRaw(input: unknown) {
    received.push({ tool: 'decoratedRaw', valid: isValidInput(input) });
    return 'ok';
  }

  @tool({ inputSchema: zodSchema })
  decoratedZod(input: unknown) {
    received.push({ tool: 'decoratedZod', valid: isValidInput(input) });
    return 'ok';
  }
}

const handWritten: ToolCallback = {
  definition: { name: 'handWritten', description: 'Takes the raw text', inputSchema: rawSchema },
  metadata: {},
  async call(input) {
    received.push({ tool: 'handWritten', valid: isValidArguments(input) });
    return 'ok';
  },
};

const tools: ToolCallback[] = [
  tool({
    name: 'functionRaw',
    inputSchema: rawSchema,
    execute: (input) => {
      received.push({ tool: 'functionRaw', valid: isValidInput(input) });
      return 'ok';
    },
  }),
  tool({
    name: 'functionZod',
    inputSchema: zodSchema,
    execute: (input) => {
      received.push({ tool: 'functionZod', valid: isValidInput(input) });
      return 'ok';
    },
  }),
  tool({
    name: 'functionStandard',
    inputSchema: standardSchema,
    execute: (input) => {
      received.push({ tool: 'functionStandard', valid: isValidInput(input) });
      return 'ok';
    },
  }),
  ...toolCallbacksFrom(new MethodTools()),
  handWritten,
];
const toolNames = tools.map((callback) => callback.definition.name);

const validArguments = fc.record(
  {
    city: fc.string({ minLength: 1, maxLength: 12 }),
    days: fc.integer({ min: 1, max: 14 }),
    weight: fc.double({ noNaN: true, noDefaultInfinity: true }),
    tags: fc.array(fc.string({ maxLength: 6 }), { maxLength: 5 }),
    where: fc.record({
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
    }),
  },
  { requiredKeys: ['city'] },
);

/** Ways to break a valid argument text, each a class of hostile output seen from models. */
const mutations: ((text: string, cut: number) => string)[] = [
  (text, cut) => text.slice(0, cut % Math.max(text.length, 1)), // truncated
  (text) => text.replace('{', '{"__proto__":{"polluted":true},'),
  (text) => text.replace('{', '{"constructor":{"prototype":{"polluted":true}},'),
  (text) => text.replace('{', '{"extra":1,'),
  (text) => text.replace('{', '{"days":1e999,'),
  (text) => text.replace('{', '{"days":-1E400,'),
  (text) => text.replace('{', `{"days":${'9'.repeat(400)},`),
  (text) => text.replace('{', '{"weight":1e999,'),
  (text) => text.replace('{', `{"weight":-${'7'.repeat(320)},`),
  (text) => text.replace('{', '{"days":NaN,'),
  (text) => text.replace('{', '{"days":Infinity,'),
  (text) => text.replace(/"city":"/, '"city":"\\ud800'),
  (text) => text.replace('{', '{"\\udfff":1,'),
  (text) => `${text}<|endoftext|>`,
  (text) => `\uFEFF${text}`,
  (text) => text.replaceAll('"', "'"),
  (text) => `[${text}]`,
  (text) => JSON.stringify(text), // the arguments object double-encoded as a string
  (text) => text.replace('{', `{"deep":${'['.repeat(200)}${']'.repeat(200)},`),
  (text) => text.replace('"city"', '"\\u0063ity"'), // an escaped but valid key
  (text) => text.replace('{', '{"city":5,'), // a duplicate key, the later one wins
  (text) => `  \n${text}\t `, // surrounding whitespace: still valid
  (text) => text.replace(/"days":\d+/, '"days":"3"'),
  (text) => text.replace(/"days":\d+/, '"days":3.5'),
  (text) => text.replace(/"lat":[^,}]+/, '"lat":1e308'),
  (text) => `${text.slice(0, -1)},}`, // a trailing comma
];

const hostileArguments: fc.Arbitrary<unknown> = fc.oneof(
  validArguments.map((value) => JSON.stringify(value)),
  fc
    .tuple(validArguments, fc.nat(mutations.length - 1), fc.nat())
    .map(([value, which, cut]) =>
      (mutations[which] as (typeof mutations)[number])(JSON.stringify(value), cut),
    ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.json({ maxDepth: 3 }),
  fc.constantFrom('', '   ', '{}', 'null', '[]', '{"city":""}', '{"city":null}'),
  // Not text at all: what an adapter passing a provider's value on would hand over.
  fc.oneof(
    validArguments,
    fc.integer(),
    fc.constant(null),
    fc.constant(undefined),
    fc.boolean(),
    fc.array(fc.string()),
  ),
);

describe('hostile tool-call arguments against every tool style', () => {
  it(`runs a tool on none of ${HOSTILE_TEXTS} hostile argument texts that break its contract, and on every valid one`, async () => {
    received.length = 0;
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const manager = createToolCallingManager({
      limits: { maxCallsPerTool: 'unlimited', maxTotalToolCalls: 'unlimited' },
    });
    let sent = 0;
    let expectedRuns = 0;
    let uncaught = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...toolNames), hostileArguments), {
          minLength: CALLS_PER_BATCH,
          maxLength: CALLS_PER_BATCH,
        }),
        async (batch) => {
          const calls = batch.map(
            ([name, args], index): ToolCall => ({
              id: `c${index}`,
              name,
              arguments: args as string,
            }),
          );
          sent += calls.length;
          for (const call of calls) if (isValidArguments(call.arguments)) expectedRuns++;
          let history: Message[];
          try {
            history = (await manager.executeToolCalls(promptWith(tools), toolCallResponse(calls)))
              .conversationHistory;
          } catch {
            uncaught++;
            return;
          }
          // Every call answered once, in order; an error result for every call that did not run.
          const responses = (history.at(-1) as ToolResponseMessage).responses;
          expect(responses.map((response) => response.id)).toEqual(calls.map((call) => call.id));
          calls.forEach((call, index) => {
            expect(responses[index]?.isError === true).toBe(!isValidArguments(call.arguments));
          });
        },
      ),
      { numRuns: RUNS, seed: 20260510 },
    );

    expect(sent).toBe(HOSTILE_TEXTS);
    expect(uncaught).toBe(0);
    // Tools ran on invalid input: 0. Valid calls refused: 0.
    expect(received.filter((entry) => !entry.valid)).toEqual([]);
    expect(received.length).toBe(expectedRuns);
    // The set is hostile: most texts are invalid, yet every tool style ran on valid ones too.
    expect(expectedRuns).toBeGreaterThan(HOSTILE_TEXTS / 10);
    expect(expectedRuns).toBeLessThan(HOSTILE_TEXTS / 2);
    expect(new Set(received.map((entry) => entry.tool))).toEqual(new Set(toolNames));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  });
});
