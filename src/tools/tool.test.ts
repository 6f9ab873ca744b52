import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  AbortError,
  InvalidToolInputError,
  ToolDefinitionError,
  ToolExecutionError,
} from '../errors/index.js';
import { jsonSchema } from './schema/typed-json-schema.js';
import { tool } from './tool.js';
import type { ToolCallback, ToolContext } from './tool-callback.js';
import { toolCallbacksFrom } from './tool-decorator.js';

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('tool() with execute (function tools)', () => {
  it('builds a ToolCallback from a Zod schema, typed from the schema', async () => {
    const currentWeather = tool({
      name: 'currentWeather',
      inputSchema: z.object({ city: z.string(), unit: z.enum(['C', 'F']).default('C') }),
      execute: async (input) => {
        expectTypeOf(input).toEqualTypeOf<{ city: string; unit: 'C' | 'F' }>();
        return { city: input.city, temperature: 21, unit: input.unit };
      },
    });
    expectTypeOf(currentWeather).toEqualTypeOf<ToolCallback>();
    expect(currentWeather.definition.name).toBe('currentWeather');
    expect(currentWeather.definition.description).toBe('current weather');
    expect(currentWeather.definition.inputSchema.required).toEqual(['city']);
    expect(currentWeather.metadata).toEqual({ returnDirect: false, sequential: false });
    expect(await currentWeather.call('{"city":"Paris"}')).toBe(
      '{"city":"Paris","temperature":21,"unit":"C"}',
    );
  });

  it('takes a raw JSON Schema and validates with it', async () => {
    const echo = tool({
      name: 'echo',
      description: 'Echoes a word',
      inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<Record<string, unknown>>();
        return input.word;
      },
    });
    expect(echo.definition.description).toBe('Echoes a word');
    expect(await echo.call('{"word":"hi"}')).toBe('"hi"');
    const error = await rejectionOf(echo.call('{"word":3}'));
    expect(error).toBeInstanceOf(InvalidToolInputError);
    expect((error as InvalidToolInputError).issues).toEqual([
      { path: '/word', message: 'must be string' },
    ]);
  });

  it('types the input of a raw JSON Schema marked with jsonSchema<T>()', async () => {
    const echo = tool({
      name: 'echo',
      inputSchema: jsonSchema<{ word: string }>({
        type: 'object',
        properties: { word: { type: 'string' } },
        required: ['word'],
      }),
      execute: ({ word }) => {
        expectTypeOf(word).toEqualTypeOf<string>();
        return word.toUpperCase();
      },
    });
    expect(await echo.call('{"word":"hi"}')).toBe('"HI"');
    await expect(echo.call('{}')).rejects.toBeInstanceOf(InvalidToolInputError);
  });

  it('without inputSchema takes no arguments and treats empty text as {}', async () => {
    let received: unknown;
    const now = tool({
      name: 'now',
      execute: (input) => {
        received = input;
        return '2026-01-01';
      },
    });
    expect(JSON.stringify(now.definition.inputSchema)).toBe(
      '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"required":[],"additionalProperties":false}',
    );
    expect(await now.call('')).toBe('"2026-01-01"');
    expect(received).toEqual({});
    expect(await now.call('  {} ')).toBe('"2026-01-01"');
  });

  it('leaves nullable properties out of required for Zod, keeps a raw schema as written (README)', async () => {
    const seen: unknown[] = [];
    const zodTool = tool({
      name: 'zodNote',
      inputSchema: z.object({ title: z.string(), note: z.string().nullable() }),
      execute: (input) => {
        seen.push(input);
      },
    });
    const rawTool = tool({
      name: 'rawNote',
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string' }, note: { type: ['string', 'null'] } },
        required: ['title', 'note'],
      },
      execute: (input) => {
        seen.push(input);
      },
    });
    // Zod: the model may omit the nullable property; the tool receives null for it.
    expect(zodTool.definition.inputSchema.required).toEqual(['title']);
    await zodTool.call('{"title":"t"}');
    expect(seen).toEqual([{ title: 't', note: null }]);
    // Raw JSON Schema: required exactly as the author wrote it; omitting the property is invalid.
    expect(rawTool.definition.inputSchema.required).toEqual(['title', 'note']);
    const error = await rejectionOf(rawTool.call('{"title":"t"}'));
    expect(error).toBeInstanceOf(InvalidToolInputError);
    expect((error as InvalidToolInputError).issues).toEqual([
      { path: '/note', message: 'is required' },
    ]);
    await rawTool.call('{"title":"t","note":null}');
    expect(seen).toEqual([
      { title: 't', note: null },
      { title: 't', note: null },
    ]);
  });

  it('never runs execute on bad input and reports JSON-pointer issues', async () => {
    let runs = 0;
    const lookup = tool({
      name: 'lookup',
      inputSchema: z.object({ id: z.number(), tags: z.array(z.string()) }),
      execute: () => {
        runs++;
        return 'found';
      },
    });
    for (const raw of [
      '{"id":',
      '[1]',
      'null',
      '{"__proto__":{"x":1}}',
      '{"id":"a","tags":[1]}',
      '{}',
    ]) {
      const error = await rejectionOf(lookup.call(raw));
      expect(error).toBeInstanceOf(InvalidToolInputError);
      expect((error as InvalidToolInputError).toolName).toBe('lookup');
    }
    const error = (await rejectionOf(
      lookup.call('{"id":"a","tags":[1]}'),
    )) as InvalidToolInputError;
    expect(error.issues.map((issue) => issue.path)).toEqual(['/id', '/tags/0']);
    expect(runs).toBe(0);
  });

  it('never hands a non-finite number to a tool, whatever the schema style, at any depth', async () => {
    const runs: unknown[] = [];
    const execute = (input: unknown) => {
      runs.push(input);
      return 'ran';
    };
    const standardSchema = {
      '~standard': {
        version: 1 as const,
        vendor: 'hand-written',
        validate: (value: unknown) => ({ value }),
        jsonSchema: {
          input: () => ({ type: 'object', properties: { n: {}, deep: {} } }),
          output: () => ({ type: 'object' }),
        },
      },
    };
    class Methods {
      @tool({
        inputSchema: { type: 'object', properties: { n: { type: 'number' }, deep: {} } },
      })
      decorated(input: unknown) {
        return execute(input);
      }
    }
    const tools = [
      tool({
        name: 'rawNumber',
        inputSchema: { type: 'object', properties: { n: { type: 'number' }, deep: {} } },
        execute,
      }),
      tool({
        name: 'rawInteger',
        inputSchema: { type: 'object', properties: { n: { type: 'integer' }, deep: {} } },
        execute,
      }),
      tool({ name: 'zodAny', inputSchema: z.object({ n: z.any(), deep: z.any() }), execute }),
      tool({ name: 'standard', inputSchema: standardSchema, execute }),
      ...toolCallbacksFrom(new Methods()),
    ];
    for (const callback of tools) {
      for (const raw of ['{"n":1e999}', '{"n":-1E400}', '{"deep":{"list":[0,{"x":1e309}]}}']) {
        const error = await rejectionOf(callback.call(raw));
        expect(error).toBeInstanceOf(InvalidToolInputError);
        expect((error as Error).message).toContain('overflows to Infinity');
      }
    }
    expect(runs).toEqual([]);
  });

  it('passes the caller context, or an empty one when none is given', async () => {
    const contexts: ToolContext[] = [];
    const whoAmI = tool({
      name: 'whoAmI',
      inputSchema: z.object({}),
      execute: (_input, context) => {
        contexts.push(context);
        return context.context.userId ?? 'anonymous';
      },
    });
    const signal = new AbortController().signal;
    expect(
      await whoAmI.call('{}', { context: { userId: 'alice' }, toolCallId: 'c1', signal }),
    ).toBe('"alice"');
    expect(await whoAmI.call('{}')).toBe('"anonymous"');
    expect(contexts[0]?.toolCallId).toBe('c1');
    expect(contexts[0]?.signal).toBe(signal);
    expect(contexts[1]).toEqual({ context: {} });
    expect(JSON.stringify(whoAmI.definition)).not.toContain('userId');
  });

  it('does not start a tool whose signal is already aborted', async () => {
    let runs = 0;
    const counted = tool({ name: 'counted', execute: () => ++runs });
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(counted.call('{}', { context: {}, signal: controller.signal }));
    expect(error).toBe(controller.signal.reason);
    const custom = new AbortController();
    custom.abort(new Error('shutdown'));
    const wrapped = await rejectionOf(counted.call('{}', { context: {}, signal: custom.signal }));
    expect(wrapped).toBeInstanceOf(AbortError);
    expect((wrapped as AbortError).cause).toBe(custom.signal.reason);
    expect(runs).toBe(0);
  });

  it('gives a tool an empty map when a hand-built context lacks one', async () => {
    const reader = tool({
      name: 'reader',
      execute: (_input, context) => Object.keys(context.context).length,
    });
    expect(await reader.call('{}', { toolCallId: 'x' } as unknown as ToolContext)).toBe('0');
  });

  it('wraps what the tool throws in ToolExecutionError with the cause', async () => {
    const cause = new RangeError('test exception');
    const failing = tool({
      name: 'failing',
      execute: () => {
        throw cause;
      },
    });
    const error = await rejectionOf(failing.call('{}'));
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as ToolExecutionError).message).toBe('test exception');
    expect((error as ToolExecutionError).toolName).toBe('failing');
    expect((error as ToolExecutionError).cause).toBe(cause);
  });

  it('passes a ToolExecutionError through unchanged', async () => {
    const own = new ToolExecutionError({ toolName: 'other', message: 'already wrapped' });
    const passing = tool({
      name: 'passing',
      execute: async () => {
        throw own;
      },
    });
    expect(await rejectionOf(passing.call('{}'))).toBe(own);
  });

  it('passes an abort error through only when the signal it was given is aborted', async () => {
    for (const thrown of [new AbortError(), new DOMException('stopped', 'AbortError')]) {
      const controller = new AbortController();
      const fetching = tool({
        name: 'fetching',
        execute: async () => {
          controller.abort();
          throw thrown;
        },
      });
      // The caller's (or the timeout's) abort: the tool was stopped, the request ends.
      expect(
        await rejectionOf(fetching.call('{}', { context: {}, signal: controller.signal })),
      ).toBe(thrown);
      // An abort of the tool's own (its sub-fetch was cancelled): a tool failure like any other.
      const own = await rejectionOf(fetching.call('{}', { context: {} }));
      expect(own).toBeInstanceOf(ToolExecutionError);
      expect((own as ToolExecutionError).cause).toBe(thrown);
      const unaborted = await rejectionOf(
        fetching.call('{}', { context: {}, signal: new AbortController().signal }),
      );
      expect(unaborted).toBeInstanceOf(ToolExecutionError);
    }
  });

  it('converts void to "Done", and uses a custom converter when given', async () => {
    const silent = tool({ name: 'silent', execute: () => undefined });
    expect(await silent.call('{}')).toBe('"Done"');
    const custom = tool({
      name: 'custom',
      resultConverter: (result) => `<${String(result)}>`,
      execute: () => 42,
    });
    expect(await custom.call('{}')).toBe('<42>');
  });

  it('fails with a ToolExecutionError when a resultConverter returns no string', async () => {
    const numeric = tool({
      name: 'numeric',
      resultConverter: () => 5 as unknown as string,
      execute: () => 'x',
    });
    const error = await rejectionOf(numeric.call('{}'));
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as Error).message).toBe(
      "The resultConverter of tool 'numeric' returned a number instead of a string or a ToolResult",
    );
  });

  it('turns an unconvertible result into a ToolExecutionError', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const error = await rejectionOf(tool({ name: 'loop', execute: () => circular }).call('{}'));
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as Error).message).toMatch(/circular reference/);
  });

  it('carries returnDirect, sequential and timeoutMs into the metadata', () => {
    const direct = tool({
      name: 'direct',
      returnDirect: true,
      sequential: true,
      timeoutMs: 5000,
      execute: () => 'x',
    });
    expect(direct.metadata).toEqual({ returnDirect: true, sequential: true, timeoutMs: 5000 });
  });

  it('carries the behaviour hints readOnly, destructive, idempotent and openWorld when given', () => {
    const lookup = tool({
      name: 'lookup',
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
      execute: () => 'x',
    });
    expect(lookup.metadata).toEqual({
      returnDirect: false,
      sequential: false,
      readOnly: true,
      destructive: false,
      idempotent: true,
      openWorld: false,
    });
  });

  const badOptions: [Record<string, unknown>, string][] = [
    [{ name: '', execute: () => 1 }, 'Tool name cannot be null or empty'],
    [{ name: '  ', execute: () => 1 }, 'Tool name cannot be null or empty'],
    [{ name: 'x', execute: 'nope' }, "Tool 'x': execute must be a function"],
    [{ name: 'x', execute: undefined }, "Tool 'x': execute must be a function"],
    [{ name: 'x', timeoutMs: 0, execute: () => 1 }, 'timeoutMs must be a positive number'],
    [{ name: 'x', timeoutMs: Number.NaN, execute: () => 1 }, 'timeoutMs must be a positive number'],
    [{ name: 'x', timeoutMs: '5', execute: () => 1 }, 'timeoutMs must be a positive number'],
    [{ name: 'x', returnDirect: 'yes', execute: () => 1 }, 'returnDirect must be a boolean'],
    [{ name: 'x', readOnly: 1, execute: () => 1 }, 'readOnly must be a boolean'],
    [{ name: 'x', idempotent: 'yes', execute: () => 1 }, 'idempotent must be a boolean'],
    [{ name: 'x', description: 5, execute: () => 1 }, 'description must be a string'],
    [
      { name: 'x', resultConverter: 'json', execute: () => 1 },
      'resultConverter must be a function',
    ],
    [
      { name: 'x', inputSchema: { type: 'string' }, execute: () => 1 },
      'must describe a JSON object',
    ],
  ];
  it.each(badOptions)('rejects bad options at definition time: %j', (options, message) => {
    const define = () => tool(options as never);
    expect(define).toThrow(ToolDefinitionError);
    expect(define).toThrow(message);
  });
});
