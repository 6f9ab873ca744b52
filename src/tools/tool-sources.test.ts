import { describe, expect, it } from 'vitest';
import { AbortError, InvalidArgumentError, ToolDefinitionError } from '../errors/index.js';
import { assertUniqueToolNames } from './assert-unique-tool-names.js';
import { staticToolCallbackProvider } from './static-tool-callback-provider.js';
import { tool } from './tool.js';
import type { ToolCallback, ToolCallbackProvider } from './tool-callback.js';
import {
  collectToolSources,
  isToolCallback,
  isToolCallbackProvider,
  resolveToolCallbacks,
} from './tool-sources.js';

const names = (callbacks: readonly ToolCallback[]) =>
  callbacks.map((callback) => callback.definition.name);

const alpha = tool({ name: 'alpha', execute: () => 'a' });
const beta = tool({ name: 'beta', execute: () => 'b' });

class ClockTools {
  @tool()
  now() {
    return '12:00';
  }
}

describe('isToolCallback / isToolCallbackProvider', () => {
  it('recognise the shapes structurally', () => {
    expect(isToolCallback(alpha)).toBe(true);
    expect(isToolCallback({ definition: { name: 'x' }, metadata: {}, call: async () => '' })).toBe(
      true,
    );
    expect(isToolCallback({ definition: {}, call: () => '' })).toBe(false);
    expect(isToolCallback(new ClockTools())).toBe(false);
    expect(isToolCallback(null)).toBe(false);
    expect(isToolCallbackProvider(staticToolCallbackProvider([alpha]))).toBe(true);
    expect(isToolCallbackProvider(alpha)).toBe(false);
  });
});

describe('collectToolSources', () => {
  it('sorts callbacks, providers and @tool objects, flattening nested arrays in order', () => {
    const provider = staticToolCallbackProvider([beta]);
    const collected = collectToolSources([alpha, [[new ClockTools()], provider]]);
    expect(names(collected.callbacks)).toEqual(['alpha', 'now']);
    expect(collected.providers).toEqual([provider]);
  });

  it('fails at once for an object without @tool methods', () => {
    expect(() => collectToolSources([alpha, { notATool: true }])).toThrow(ToolDefinitionError);
    expect(() => collectToolSources([{ notATool: true }])).toThrow(
      'No @tool annotated methods found in Object',
    );
  });

  it('asks for an instance when given the class instead of an instance', () => {
    expect(() => collectToolSources([alpha, ClockTools])).toThrow(
      'pass an instance: new ClockTools()',
    );
  });

  it.each([null, undefined, 'alpha', 42, true])('rejects a %j entry', (entry) => {
    expect(() => collectToolSources([alpha, entry as never])).toThrow(InvalidArgumentError);
  });

  it('accepts an empty list', () => {
    expect(collectToolSources([])).toEqual({ callbacks: [], providers: [] });
  });
});

describe('resolveToolCallbacks', () => {
  it("passes the request's signal to providers and stops waiting for one that never answers once it aborts", async () => {
    const seen: (AbortSignal | undefined)[] = [];
    const stuck: ToolCallbackProvider = {
      getToolCallbacks(request) {
        seen.push(request?.signal);
        return new Promise(() => {});
      },
    };
    const controller = new AbortController();
    const pending = resolveToolCallbacks(collectToolSources([alpha, stuck]), {
      reservedNames: new Set(),
      signal: controller.signal,
    });
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(seen).toEqual([controller.signal]);
  });

  it('lists the callbacks, then asks every provider anew on each call', async () => {
    let round = 0;
    const changing: ToolCallbackProvider = {
      async getToolCallbacks() {
        round++;
        return round === 1 ? [beta] : [beta, tool({ name: `late${round}`, execute: () => 1 })];
      },
    };
    const collected = collectToolSources([alpha, changing]);
    expect(names(await resolveToolCallbacks(collected))).toEqual(['alpha', 'beta']);
    expect(names(await resolveToolCallbacks(collected))).toEqual(['alpha', 'beta', 'late2']);
    expect(round).toBe(2);
  });

  it('rejects a provider that returns something other than callbacks', async () => {
    const broken = { getToolCallbacks: () => [{ name: 'x' }] } as unknown as ToolCallbackProvider;
    await expect(resolveToolCallbacks(collectToolSources([broken]))).rejects.toThrow(
      'A ToolCallbackProvider must return an array of ToolCallbacks',
    );
  });
});

describe('resolveToolCallbacks reserved names', () => {
  it('tells each provider the names taken by the fixed tools and by earlier providers', async () => {
    const seen: string[][] = [];
    const recording = (callbacks: ToolCallback[]): ToolCallbackProvider => ({
      getToolCallbacks: (request) => {
        seen.push([...(request?.reservedNames ?? [])].sort());
        return callbacks;
      },
    });
    const gamma = tool({ name: 'gamma', execute: () => 'g' });
    const resolved = await resolveToolCallbacks(
      collectToolSources([recording([beta]), alpha, recording([gamma])]),
    );
    expect(names(resolved)).toEqual(['alpha', 'beta', 'gamma']);
    expect(seen).toEqual([['alpha'], ['alpha', 'beta']]);
  });
});

describe('assertUniqueToolNames', () => {
  it('passes distinct names', () => {
    expect(() => assertUniqueToolNames([alpha, beta], 'the request')).not.toThrow();
  });

  it('names each duplicated name once', () => {
    const again = tool({ name: 'alpha', execute: () => 'again' });
    const betaAgain = tool({ name: 'beta', execute: () => 'again' });
    expect(() =>
      assertUniqueToolNames([alpha, beta, again, betaAgain, again], 'the request'),
    ).toThrow('Multiple tools with the same name (alpha, beta) found in the request');
  });

  it('finds duplicates the same way in a long list of tools', () => {
    const many = Array.from({ length: 40 }, (_, index) =>
      tool({ name: `tool_${index}`, execute: () => 'ok' }),
    );
    expect(() => assertUniqueToolNames(many, 'the request')).not.toThrow();
    const again = tool({ name: 'tool_3', execute: () => 'again' });
    expect(() => assertUniqueToolNames([...many, again, again], 'the request')).toThrow(
      'Multiple tools with the same name (tool_3) found in the request',
    );
  });

  it('keeps the order of nested arrays and reads a repeated array once', () => {
    const nested = [beta, [alpha]];
    expect(names(collectToolSources([alpha, nested, [nested], beta]).callbacks)).toEqual([
      'alpha',
      'beta',
      'alpha',
      'beta',
    ]);
  });
});

describe('staticToolCallbackProvider', () => {
  it('returns a copy of the callbacks it was given', async () => {
    const list = [alpha];
    const provider = staticToolCallbackProvider(list);
    list.push(beta);
    const first = await provider.getToolCallbacks();
    expect(names(first)).toEqual(['alpha']);
    first.push(beta);
    expect(names(await provider.getToolCallbacks())).toEqual(['alpha']);
  });
});
