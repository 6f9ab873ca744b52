import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import { DelegatingToolCallbackResolver } from './delegating-tool-callback-resolver.js';
import { StaticToolCallbackResolver } from './static-tool-callback-resolver.js';
import { tool } from './tool.js';
import type { ToolCallback } from './tool-callback.js';

const first = tool({ name: 'lookup', description: 'first', execute: () => 1 });
const second = tool({ name: 'lookup', description: 'second', execute: () => 2 });
const other = tool({ name: 'other', execute: () => 3 });

describe('StaticToolCallbackResolver', () => {
  it('resolves by exact name; the last duplicate wins', () => {
    const resolver = new StaticToolCallbackResolver([first, other, second]);
    expect(resolver.resolve('lookup')).toBe(second);
    expect(resolver.resolve('other')).toBe(other);
    expect(resolver.resolve('Lookup')).toBeUndefined();
  });

  it.each(['', '  '])('rejects the empty name %j', (name) => {
    const resolver = new StaticToolCallbackResolver([first]);
    expect(() => resolver.resolve(name)).toThrow(InvalidArgumentError);
    expect(() => resolver.resolve(name)).toThrow('toolName cannot be null or empty');
  });

  it('rejects null elements', () => {
    expect(() => new StaticToolCallbackResolver([first, null as unknown as ToolCallback])).toThrow(
      'toolCallbacks cannot contain null elements',
    );
  });
});

describe('DelegatingToolCallbackResolver', () => {
  it('returns the first answer of its delegates', () => {
    const resolver = new DelegatingToolCallbackResolver([
      new StaticToolCallbackResolver([other]),
      new StaticToolCallbackResolver([first]),
      new StaticToolCallbackResolver([second]),
    ]);
    expect(resolver.resolve('lookup')).toBe(first);
    expect(resolver.resolve('other')).toBe(other);
    expect(resolver.resolve('missing')).toBeUndefined();
  });

  it('resolves nothing without delegates (the manager default)', () => {
    expect(new DelegatingToolCallbackResolver().resolve('lookup')).toBeUndefined();
  });
});
