import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatClient } from '../client/index.js';
import { InvalidArgumentError, ToolDefinitionError } from '../errors/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import {
  staticToolCallbackProvider,
  type ToolCallback,
  type ToolCallbackProviderRequest,
  tool,
} from '../tools/index.js';
import { AugmentedToolCallback } from './augmented-tool-callback.js';
import { AugmentedToolCallbackProvider } from './augmented-tool-callback-provider.js';

const Reasoning = z.object({ reasoning: z.string().describe('Why you call this tool') });

class ClockTools {
  readonly calls: unknown[] = [];

  @tool({
    name: 'now',
    description: 'The current time in a zone',
    inputSchema: z.object({ zone: z.string() }),
    returnDirect: true,
  })
  now(input: { zone: string }) {
    this.calls.push(input);
    return '12:00';
  }
}

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  sequential: true,
  execute: ({ a, b }) => a + b,
});

describe('AugmentedToolCallbackProvider', () => {
  it('wraps a @tool class instance and a tool() callback, keeping their metadata', async () => {
    const clock = new ClockTools();
    const provider = new AugmentedToolCallbackProvider({
      tools: [clock, add],
      argumentSchema: Reasoning,
    });
    const callbacks = await provider.getToolCallbacks();
    expect(callbacks.map((callback) => callback.definition.name)).toEqual(['now', 'add']);
    for (const callback of callbacks) {
      expect(callback).toBeInstanceOf(AugmentedToolCallback);
      expect(callback.definition.inputSchema.required).toContain('reasoning');
    }
    expect(callbacks[0]?.metadata.returnDirect).toBe(true);
    expect(callbacks[1]?.metadata.sequential).toBe(true);
    expect(await callbacks[0]?.call('{"zone":"UTC","reasoning":"the user asked"}')).toBe('"12:00"');
    expect(clock.calls).toEqual([{ zone: 'UTC' }]);
    expect(await provider.getToolCallbacks()).toEqual(callbacks);
  });

  it('hands every call of every tool to the consumer through ChatClient', async () => {
    const reasons: string[] = [];
    const provider = new AugmentedToolCallbackProvider({
      tools: [add],
      argumentSchema: Reasoning,
      argumentConsumer: (event) => {
        reasons.push(`${event.toolDefinition.name}: ${event.arguments.reasoning}`);
      },
    });
    const model = new ScriptedChatModel([
      toolCallResponse([
        { name: 'add', arguments: { a: 1, b: 2, reasoning: 'sum asked' } },
        { name: 'add', arguments: { a: 3, b: 4, reasoning: 'second sum' } },
      ]),
      textResponse('3 and 7'),
    ]);
    const answer = await ChatClient.create(model, { tools: [provider] })
      .prompt('Add 1+2 and 3+4')
      .call()
      .content();
    expect(answer).toBe('3 and 7');
    expect(reasons.sort()).toEqual(['add: second sum', 'add: sum asked']);
  });

  it('wraps the tools of a provider on every listing, passing on the reserved names', async () => {
    const requests: ToolCallbackProviderRequest[] = [];
    let listed: ToolCallback[] = [add];
    const inner = {
      getToolCallbacks(request?: ToolCallbackProviderRequest) {
        if (request !== undefined) requests.push(request);
        return listed;
      },
    };
    const clock = new ClockTools();
    const provider = new AugmentedToolCallbackProvider({
      tools: [clock, inner],
      argumentSchema: Reasoning,
    });
    const first = await provider.getToolCallbacks({ reservedNames: new Set(['other']) });
    expect(first.map((callback) => callback.definition.name)).toEqual(['now', 'add']);
    expect([...(requests[0]?.reservedNames ?? [])].sort()).toEqual(['now', 'other']);
    const again = await provider.getToolCallbacks();
    expect(again[1]).toBe(first[1]);
    listed = [tool({ name: 'sub', description: 'Subtracts', execute: () => 0 }), add];
    const changed = await provider.getToolCallbacks();
    expect(changed.map((callback) => callback.definition.name)).toEqual(['now', 'sub', 'add']);
  });

  it('fails when built on a clash with a fixed tool, and on the listing for a provided one', async () => {
    const clashing = z.object({ a: z.string() });
    expect(
      () => new AugmentedToolCallbackProvider({ tools: add, argumentSchema: clashing }),
    ).toThrow(ToolDefinitionError);
    const provider = new AugmentedToolCallbackProvider({
      tools: staticToolCallbackProvider([add]),
      argumentSchema: clashing,
    });
    await expect(provider.getToolCallbacks()).rejects.toThrow(
      /'add' already has an input property 'a'/,
    );
  });

  it('refuses missing tools or argument schema', () => {
    expect(
      () =>
        new AugmentedToolCallbackProvider({
          argumentSchema: Reasoning,
        } as unknown as ConstructorParameters<typeof AugmentedToolCallbackProvider>[0]),
    ).toThrow(InvalidArgumentError);
    expect(
      () =>
        new AugmentedToolCallbackProvider({
          tools: add,
        } as unknown as ConstructorParameters<typeof AugmentedToolCallbackProvider>[0]),
    ).toThrow(InvalidArgumentError);
  });
});
