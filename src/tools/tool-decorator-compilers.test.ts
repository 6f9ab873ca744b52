import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as zod from 'zod';
import { ToolDefinitionError } from '../errors/index.js';
import * as toolloop from '../index.js';
import { typeErrors } from './__tests__/type-errors.js';
import { tool } from './tool.js';
import { toolCallbacksFrom } from './tool-decorator.js';

// A user's class with @tool methods, compiled by the TypeScript compiler as a project would:
// under TC39 decorators (the default) and under `experimentalDecorators` (NestJS, TypeORM,
// Angular), with and without `emitDecoratorMetadata`. It must type-check in each mode, keep
// catching a method whose input does not match its schema, and work when run.

const userFile = fileURLToPath(new URL('./user-tools.virtual.ts', import.meta.url));

const USER_TOOLS = `
import { tool, type ToolContext } from '../index.js';
import { z } from 'zod';

export class WeatherTools {
  readonly unit = 'C';

  @tool({ description: 'Current weather for a city', inputSchema: z.object({ city: z.string() }) })
  getWeather(input: { city: string }) {
    return \`\${input.city}: 21 \${this.unit}\`;
  }

  @tool({ inputSchema: z.object({}) })
  whoAmI(_input: Record<string, never>, context: ToolContext<{ userId: string }>) {
    return context.context.userId;
  }

  @tool()
  serverTime() {
    return '2026-09-23T18:00:00Z';
  }

  @tool({ name: 'convert_units', inputSchema: { type: 'object', properties: { c: { type: 'number' } } } })
  async toFahrenheit(input: unknown) {
    return ((input as { c: number }).c * 9) / 5 + 32;
  }

  notATool() {
    return 'plain';
  }
}

export class StaticTools {
  @tool({ description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) })
  static add({ a, b }: { a: number; b: number }) {
    return a + b;
  }
}
`;

const MISMATCHED_INPUT = `
import { tool } from '../index.js';
import { z } from 'zod';

export class Mismatched {
  @tool({ inputSchema: z.object({ city: z.string() }) })
  getWeather(input: { town: number }) {
    return input.town;
  }
}
`;

type Mode = Pick<ts.CompilerOptions, 'experimentalDecorators' | 'emitDecoratorMetadata'>;

const MODES: [string, Mode][] = [
  ['TC39 decorators', {}],
  ['experimentalDecorators', { experimentalDecorators: true }],
  [
    'experimentalDecorators with emitDecoratorMetadata',
    { experimentalDecorators: true, emitDecoratorMetadata: true },
  ],
];

/** Compiles `source` as `tsc` would in `mode` (target ES2022) and runs it against this checkout. */
function compileAndRun(source: string, mode: Mode): Record<string, unknown> {
  const { outputText } = ts.transpileModule(source, {
    fileName: userFile,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, ...mode },
  });
  const modules: Record<string, unknown> = { '../index.js': toolloop, zod };
  const exports: Record<string, unknown> = {};
  const requireModule = (specifier: string) => {
    if (!(specifier in modules)) throw new Error(`unexpected import ${specifier}`);
    return modules[specifier];
  };
  new Function('require', 'exports', outputText)(requireModule, exports);
  return exports;
}

describe.each(MODES)('@tool compiled with %s', (_, mode) => {
  it('type-checks', () => {
    expect(typeErrors(userFile, USER_TOOLS, mode)).toEqual([]);
  }, 60_000);

  it('still refuses a method whose input does not match its schema', () => {
    const errors = typeErrors(userFile, MISMATCHED_INPUT, mode);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toContain('town');
  }, 60_000);

  it('registers the decorated methods, which run bound to their instance or class', async () => {
    const { WeatherTools, StaticTools } = compileAndRun(USER_TOOLS, mode) as {
      WeatherTools: new () => object;
      StaticTools: object;
    };
    const callbacks = toolCallbacksFrom(new WeatherTools());
    expect(callbacks.map((callback) => callback.definition.name)).toEqual([
      'getWeather',
      'whoAmI',
      'serverTime',
      'convert_units',
    ]);
    const [weather, whoAmI, time, convert] = callbacks;
    expect(weather?.definition.description).toBe('Current weather for a city');
    expect(time?.definition.description).toBe('server time');
    expect(await weather?.call('{"city":"Paris"}')).toBe('"Paris: 21 C"');
    expect(await whoAmI?.call('{}', { context: { userId: 'alice' } })).toBe('"alice"');
    expect(await time?.call('{}')).toBe('"2026-09-23T18:00:00Z"');
    expect(await convert?.call('{"c":100}')).toBe('212');
    await expect(weather?.call('{"city":3}')).rejects.toThrow(/city/);

    const [add] = toolCallbacksFrom(StaticTools);
    expect(add?.definition.name).toBe('add');
    expect(await add?.call('{"a":2,"b":3}')).toBe('5');
  });
});

describe('@tool called as a legacy (experimentalDecorators) decorator', () => {
  it('refuses an accessor, naming it', () => {
    const target = {};
    const descriptor = { get: () => 1, configurable: true, enumerable: false };
    const decorate = tool({ description: 'x' }) as unknown as (
      target: object,
      key: string,
      descriptor: PropertyDescriptor,
    ) => void;
    expect(() => decorate(target, 'size', descriptor)).toThrow(ToolDefinitionError);
    expect(() => decorate(target, 'size', descriptor)).toThrow(/'size'.*methods only/);
  });

  it('refuses a property (a legacy property decorator gets no descriptor)', () => {
    const decorate = tool() as unknown as (target: object, key: string) => void;
    expect(() => decorate({}, 'name')).toThrow(/methods only/);
  });
});
