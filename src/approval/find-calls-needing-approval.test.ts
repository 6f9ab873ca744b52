import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../messages/index.js';
import { jsonSchema } from '../tools/schema/typed-json-schema.js';
import { tool } from '../tools/tool.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { hashToolArguments } from './canonical-json.js';
import { findCallsNeedingApproval } from './find-calls-needing-approval.js';
import { ToolApprovalPolicies } from './tool-approval-policy.js';

const pathSchema = jsonSchema<{ path: string }>({
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
  additionalProperties: false,
});

function call(id: string, name: string, args: unknown): ToolCall {
  return { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

const readFile = tool({
  name: 'readFile',
  inputSchema: pathSchema,
  readOnly: true,
  execute: () => 'text',
});
const deleteFile = tool({
  name: 'deleteFile',
  inputSchema: pathSchema,
  destructive: true,
  execute: () => 'deleted',
});
const alwaysAsk = tool({
  name: 'alwaysAsk',
  inputSchema: pathSchema,
  needsApproval: true,
  execute: () => 'ok',
});
const neverAsk = tool({
  name: 'neverAsk',
  inputSchema: pathSchema,
  destructive: true,
  needsApproval: false,
  execute: () => 'ok',
});
const askOutsideTmp = tool({
  name: 'writeFile',
  inputSchema: pathSchema,
  needsApproval: ({ path }, { context }) => !path.startsWith('/tmp/') || context.strict === true,

  execute: () => 'written',
});

async function gate(
  calls: ToolCall[],
  callbacks: ToolCallback[],
  options: {
    policy?: typeof ToolApprovalPolicies.destructive;
    context?: Record<string, unknown>;
  } = {},
) {
  const pending = await findCallsNeedingApproval({
    calls,
    callbacks,
    policy: options.policy,
    toolContext: options.context,
    messages: [],
  });
  return pending.map((entry) => entry.id);
}

describe('findCallsNeedingApproval', () => {
  it('asks for a tool with needsApproval: true, with its parsed arguments and their hash', async () => {
    const pending = await findCallsNeedingApproval({
      calls: [call('c1', 'alwaysAsk', '{ "path" : "/etc/passwd" }')],
      callbacks: [alwaysAsk],
      policy: undefined,
      toolContext: undefined,
      messages: [],
    });
    expect(pending).toEqual([
      {
        id: 'c1',
        name: 'alwaysAsk',
        arguments: { path: '/etc/passwd' },
        argumentsHash: hashToolArguments({ path: '/etc/passwd' }),
      },
    ]);
  });

  it('asks nothing without needsApproval and without a policy', async () => {
    expect(await gate([call('c1', 'deleteFile', { path: '/x' })], [deleteFile])).toEqual([]);
  });

  it('lets a policy on the metadata hints decide for tools that state nothing', async () => {
    const calls = [call('r', 'readFile', { path: '/a' }), call('d', 'deleteFile', { path: '/a' })];
    expect(
      await gate(calls, [readFile, deleteFile], { policy: ToolApprovalPolicies.destructive }),
    ).toEqual(['d']);
    expect(
      await gate(calls, [readFile, deleteFile], { policy: ToolApprovalPolicies.unlessReadOnly }),
    ).toEqual(['d']);
    expect(
      await gate(calls, [readFile, deleteFile], { policy: ToolApprovalPolicies.always }),
    ).toEqual(['r', 'd']);
  });

  it("lets the tool's own setting win over the policy, false included", async () => {
    expect(
      await gate([call('n', 'neverAsk', { path: '/a' })], [neverAsk], {
        policy: ToolApprovalPolicies.always,
      }),
    ).toEqual([]);
  });

  it('calls a needsApproval function with the validated input and the caller context', async () => {
    const calls = [
      call('tmp', 'writeFile', { path: '/tmp/x' }),
      call('etc', 'writeFile', { path: '/etc/x' }),
    ];
    expect(await gate(calls, [askOutsideTmp])).toEqual(['etc']);
    expect(await gate(calls, [askOutsideTmp], { context: { strict: true } })).toEqual([
      'tmp',
      'etc',
    ]);
  });

  it('never asks about calls that cannot run: unknown tool, invalid, truncated or non-text arguments, repeated id', async () => {
    const calls: ToolCall[] = [
      call('unknown', 'nope', { path: '/a' }),
      call('invalid', 'alwaysAsk', { path: 7 }),
      call('broken', 'alwaysAsk', '{"path":'),
      { ...call('cut', 'alwaysAsk', { path: '/a' }), metadata: { truncated: true } },
      { ...call('object', 'alwaysAsk', { path: '/a' }), metadata: { nonTextArguments: true } },
      call('ok', 'alwaysAsk', { path: '/a' }),
      call('ok', 'alwaysAsk', { path: '/b' }),
    ];
    expect(await gate(calls, [alwaysAsk])).toEqual(['ok']);
  });

  it('asks when a hand-written callback puts an unknown value in needsApproval', async () => {
    const odd: ToolCallback = {
      definition: { name: 'odd', description: 'odd', inputSchema: { type: 'object' } },
      metadata: { needsApproval: 'yes' as unknown as boolean },
      call: async () => 'x',
    };
    expect(await gate([call('o', 'odd', {})], [odd])).toEqual(['o']);
  });

  it('fails when a needsApproval function throws', async () => {
    const failing = tool({
      name: 'failing',
      needsApproval: () => {
        throw new Error('policy store down');
      },
      execute: () => 'x',
    });
    await expect(gate([call('f', 'failing', {})], [failing])).rejects.toThrow('policy store down');
  });
});

describe('needsApproval on tool definitions', () => {
  it('is refused at definition time when it is neither a boolean nor a function', () => {
    expect(() =>
      tool({ name: 'bad', needsApproval: 'yes' as unknown as boolean, execute: () => 'x' }),
    ).toThrow("Tool 'bad': needsApproval must be a boolean or a function");
  });

  it('works on @tool methods, and the function sees the input after the Standard Schema applied', async () => {
    const { z } = await import('zod');
    const seen: unknown[] = [];
    class Files {
      @tool({
        description: 'Removes a file',
        inputSchema: z.object({ path: z.string(), force: z.boolean().default(false) }),
        needsApproval: (input) => {
          seen.push(input);
          return !input.force;
        },
      })
      remove(input: { path: string; force: boolean }) {
        return input.path;
      }
    }
    const { toolCallbacksFrom } = await import('../tools/tool-decorator.js');
    const [remove] = toolCallbacksFrom(new Files());
    expect(await gate([call('r', 'remove', { path: '/a' })], [remove as ToolCallback])).toEqual([
      'r',
    ]);
    expect(seen).toEqual([{ path: '/a', force: false }]);
  });
});

describe('needsApproval through argument augmentation', () => {
  it("hands the wrapped tool's function its own arguments, never the extra fields", async () => {
    const { AugmentedToolCallback } = await import('../augmentation/augmented-tool-callback.js');
    const augmented = new AugmentedToolCallback(askOutsideTmp, {
      argumentSchema: jsonSchema<{ reasoning: string }>({
        type: 'object',
        properties: { reasoning: { type: 'string' } },
        required: ['reasoning'],
      }),
    });
    expect(augmented.metadata.needsApproval).toBeTypeOf('function');
    const calls = [
      call('tmp', 'writeFile', { path: '/tmp/x', reasoning: 'scratch file' }),
      call('etc', 'writeFile', { path: '/etc/x', reasoning: 'config' }),
    ];
    expect(await gate(calls, [augmented])).toEqual(['etc']);
  });
});
