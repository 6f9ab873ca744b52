import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-callback.js';
import { ChatClient } from './chat-client.js';

interface TenantContext {
  tenantId: string;
  plan: 'free' | 'pro';
}

describe('typed tool context', () => {
  it('types a tool that declares its context, and the client that passes it', async () => {
    const seen: string[] = [];
    const lookup = tool({
      name: 'lookupAccount',
      inputSchema: z.object({ accountId: z.number() }),
      execute: async ({ accountId }, { context }: ToolContext<TenantContext>) => {
        expectTypeOf(accountId).toEqualTypeOf<number>();
        expectTypeOf(context.tenantId).toEqualTypeOf<string>();
        expectTypeOf(context.plan).toEqualTypeOf<'free' | 'pro'>();
        seen.push(`${context.tenantId}/${context.plan}/${accountId}`);
        return { ok: true };
      },
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'lookupAccount', arguments: { accountId: 7 } }]),
      textResponse('done'),
    ]);
    const client = ChatClient.create<TenantContext>(model, {
      tools: [lookup],
      toolContext: { plan: 'pro' },
    });
    expectTypeOf(client).toEqualTypeOf<ChatClient<TenantContext>>();
    const answer = await client
      .prompt('Account 7?')
      .toolContext({ tenantId: 'acme' })
      .call()
      .content();
    expect(answer).toBe('done');
    expect(seen).toEqual(['acme/pro/7']);
  });

  it('checks .toolContext() entries against the client type', () => {
    const client = ChatClient.create<TenantContext>(new ScriptedChatModel());
    const spec = client.prompt('q');
    expectTypeOf(spec.toolContext).parameter(0).toEqualTypeOf<Partial<TenantContext>>();
    // @ts-expect-error a key the client type does not have
    spec.toolContext({ tenant: 'acme' });
    // @ts-expect-error a value of the wrong type
    spec.toolContext({ plan: 'enterprise' });
  });

  it('types @tool methods that declare their context', async () => {
    class AccountTools {
      @tool({ inputSchema: z.object({}) })
      whoAmI(_input: Record<string, never>, { context }: ToolContext<TenantContext>) {
        expectTypeOf(context.tenantId).toEqualTypeOf<string>();
        return context.tenantId;
      }
    }
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'whoAmI', arguments: {} }]),
      (prompt) => textResponse(String(prompt.messages.at(-1)?.role === 'tool' ? 'ok' : 'no')),
    ]);
    const client = ChatClient.create<TenantContext>(model, { tools: [new AccountTools()] });
    await client.prompt('who?').toolContext({ tenantId: 'globex', plan: 'free' }).call();
    const toolMessage = model.prompts[1]?.messages.at(-1);
    expect(toolMessage).toMatchObject({ role: 'tool' });
    expect(JSON.stringify(toolMessage)).toContain('globex');
  });

  it('defaults to Record<string, unknown> everywhere when nothing is declared', () => {
    const untyped = tool({
      name: 'untyped',
      execute: (_input, context) => {
        expectTypeOf(context).toEqualTypeOf<ToolContext>();
        expectTypeOf(context.context).toEqualTypeOf<Readonly<Record<string, unknown>>>();
        return null;
      },
    });
    expect(untyped.definition.name).toBe('untyped');
    const client = ChatClient.create(new ScriptedChatModel(), { toolContext: { any: 1 } });
    expectTypeOf(client).toEqualTypeOf<ChatClient>();
    expectTypeOf(client.prompt().toolContext)
      .parameter(0)
      .toEqualTypeOf<Partial<Record<string, unknown>>>();
  });
});
