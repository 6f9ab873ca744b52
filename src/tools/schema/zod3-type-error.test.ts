import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typeErrors } from '../__tests__/type-errors.js';

// A Zod 3 schema is refused at run time with a clear message (unsupported-zod-schema.test.ts); the
// compiler must say the same where the schema is passed, instead of a bare "No overload matches
// this call" (TS2769). `zod3` is the real Zod 3 package under an alias.

const userFile = fileURLToPath(new URL('./user-schemas.virtual.ts', import.meta.url));
const NEEDS_ZOD_4 =
  'toolloop needs Zod 4 (zod >= 4.2) or a Standard Schema with JSON Schema output';

const USES: [string, string][] = [
  [
    'tool({ inputSchema, execute })',
    "export const weather = tool({ name: 'weather', inputSchema: z.object({ city: z.string() }), execute: ({ city }) => city });",
  ],
  [
    '@tool({ inputSchema })',
    'export class Weather {\n  @tool({ inputSchema: z.object({ city: z.string() }) })\n  weather(input: { city: string }) {\n    return input.city;\n  }\n}',
  ],
  [
    'entity(schema)',
    "export const answer = ChatClient.create(new ScriptedChatModel([])).prompt('hi').call().entity(z.object({ city: z.string() }));",
  ],
  [
    'AugmentedToolCallbackProvider({ argumentSchema })',
    'export const augmented = new AugmentedToolCallbackProvider({ tools: [], argumentSchema: z.object({ reasoning: z.string() }) });',
  ],
];

function module(zodPackage: 'zod' | 'zod3', use: string): string {
  return (
    `import { z } from '${zodPackage}';\n` +
    "import { AugmentedToolCallbackProvider, ChatClient, tool } from '../../index.js';\n" +
    "import { ScriptedChatModel } from '../../testing/index.js';\n" +
    `${use}\n`
  );
}

describe.each(USES)('a Zod 3 schema given to %s', (_, use) => {
  it('is a type error that names what toolloop needs', () => {
    const errors = typeErrors(userFile, module('zod3', use));
    expect(errors.filter((error) => error.includes(NEEDS_ZOD_4))).toHaveLength(1);
    // A decorator whose call failed also gets "Unable to resolve signature of method decorator".
    const others = errors.filter((error) => !error.includes(NEEDS_ZOD_4));
    for (const other of others) expect(other).toMatch(/^TS1241: /);
  }, 60_000);

  it('type-checks with a Zod 4 schema', () => {
    expect(typeErrors(userFile, module('zod', use))).toEqual([]);
  }, 60_000);
});
