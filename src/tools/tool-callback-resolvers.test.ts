import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import { staticToolCallbackProvider } from './static-tool-callback-provider.js';
import { staticToolCallbackResolver } from './static-tool-callback-resolver.js';
import { tool } from './tool.js';
import type { ToolCallback } from './tool-callback.js';

const first = tool({ name: 'lookup', description: 'first', execute: () => 1 });
const second = tool({ name: 'lookup', description: 'second', execute: () => 2 });
const other = tool({ name: 'other', execute: () => 3 });

describe('staticToolCallbackResolver', () => {
  it('resolves by exact name; the last duplicate wins', () => {
    const resolve = staticToolCallbackResolver([first, other, second]);
    expect(resolve('lookup')).toBe(second);
    expect(resolve('other')).toBe(other);
    expect(resolve('Lookup')).toBeUndefined();
    expect(resolve('')).toBeUndefined();
  });

  it('keeps its own copy of the list', () => {
    const list = [first];
    const resolve = staticToolCallbackResolver(list);
    list.push(other);
    expect(resolve('other')).toBeUndefined();
  });

  it('chains with ?? in order, the first answer winning', () => {
    const resolvers = [[other], [first], [second]].map(staticToolCallbackResolver);
    const resolve = (name: string) =>
      resolvers[0]?.(name) ?? resolvers[1]?.(name) ?? resolvers[2]?.(name);
    expect(resolve('lookup')).toBe(first);
    expect(resolve('other')).toBe(other);
    expect(resolve('missing')).toBeUndefined();
  });
});

describe.each([
  ['staticToolCallbackResolver', staticToolCallbackResolver],
  ['staticToolCallbackProvider', staticToolCallbackProvider],
] as const)('%s', (_name, create) => {
  it('rejects a missing list and null elements where it is created, with the reference texts', () => {
    expect(() => create(null as unknown as ToolCallback[])).toThrow(
      new InvalidArgumentError('ToolCallbacks must not be null'),
    );
    expect(() => create([first, null as unknown as ToolCallback])).toThrow(
      new InvalidArgumentError('toolCallbacks cannot contain null elements'),
    );
    expect(() => create([undefined as unknown as ToolCallback])).toThrow(
      'toolCallbacks cannot contain null elements',
    );
    expect(() => create([])).not.toThrow();
  });
});
