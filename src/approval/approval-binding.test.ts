import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ChatClientResponse } from '../advisors/index.js';
import { ChatClient } from '../client/chat-client.js';
import type { ChatClientRequestSpec } from '../client/chat-client-request-spec.js';
import { InvalidArgumentError, ToolApprovalError } from '../errors/index.js';
import { CONVERSATION_ID } from '../memory/chat-memory.js';
import { InMemoryChatMemoryRepository } from '../memory/in-memory-chat-memory-repository.js';
import { MessageChatMemoryAdvisor } from '../memory/message-chat-memory-advisor.js';
import { MessageWindowChatMemory } from '../memory/message-window-chat-memory.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { ToolCallingAdvisor } from '../tool-calling/tool-calling-advisor.js';
import { tool } from '../tools/tool.js';
import { signPendingApproval } from './pending-approval-signature.js';
import { type PendingToolApproval, pendingApprovalOf } from './pending-tool-approval.js';
import { approveToolCall } from './tool-approval-decision.js';
import type { ToolApprovalOptions } from './tool-approval-policy.js';

// A signed pending state must be bound to the conversation (and the user) it was paused in, expire,
// and run at most once. The attack: a state paused in conversation A, resumed under conversation
// B, ran with B's context and wrote A's prompt into B's memory; a replayed state ran again.

const KEY = 'approval-binding-test-key-0123456789';
const HOUR = 3_600_000;
type Mode = 'call' | 'stream';

afterEach(() => {
  vi.useRealTimers();
});

function bank() {
  const transfers: { to: string; amount: number; tenant: unknown }[] = [];
  const transfer = tool({
    name: 'transfer',
    description: 'Send money',
    inputSchema: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute: (input, { context }) => {
      transfers.push({ ...input, tenant: context.tenant });
      return `sent ${input.amount} to ${input.to}`;
    },
  });
  return { transfers, transfer };
}

async function run(spec: ChatClientRequestSpec, mode: Mode): Promise<ChatClientResponse> {
  if (mode === 'call') return spec.call();
  let last: ChatClientResponse | undefined;
  for await (const chunk of spec.stream().chatClientResponse()) last = chunk;
  return last as ChatClientResponse;
}

async function refusal(promise: Promise<unknown>): Promise<ToolApprovalError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ToolApprovalError);
  return error as ToolApprovalError;
}

function setup(approval: ToolApprovalOptions = {}, memoryOrder?: number) {
  const { transfers, transfer } = bank();
  const model = new ScriptedChatModel([
    toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'mallory', amount: 900 } }]),
    textResponse('Sent.'),
    textResponse('Sent again.'),
  ]);
  const repository = new InMemoryChatMemoryRepository();
  const memory = new MessageChatMemoryAdvisor({
    chatMemory: new MessageWindowChatMemory({ repository }),
    ...(memoryOrder === undefined ? {} : { order: memoryOrder }),
  });
  const client = ChatClient.create(model, {
    tools: [transfer],
    advisors: [memory],
    approval: { signingKey: KEY, ...approval },
  });
  const turn = (conversationId: string, tenant: string, text?: string) =>
    (text === undefined ? client.prompt() : client.prompt(text))
      .toolContext({ tenant })
      .advisors((a) => a.param(CONVERSATION_ID, conversationId));
  return { transfers, model, repository, client, turn };
}

async function pause(setupResult: ReturnType<typeof setup>, mode: Mode) {
  const paused = await run(setupResult.turn('conv-A', 'tenant-A', 'Pay mallory 900'), mode);
  const state = pendingApprovalOf(paused) as PendingToolApproval;
  expect(state).toBeDefined();
  return JSON.parse(JSON.stringify(state)) as PendingToolApproval;
}

describe.each<Mode>(['call', 'stream'])('approval states are bound (%s)', (mode) => {
  it.each([
    ['outside the loop (default order)', undefined],
    ['inside the loop', ToolCallingAdvisor.DEFAULT_ORDER + 1],
  ])(
    'a state paused in conversation A and resumed under B is refused, memory %s: nothing runs, B stays empty',
    async (_where, order) => {
      const bound = setup({}, order);
      const state = await pause(bound, mode);
      const before = await bound.repository.findByConversationId('conv-A');
      const resumeUnderB = bound.client
        .resume(state, [approveToolCall(state.toolCalls[0]!)])
        .toolContext({ tenant: 'tenant-B' })
        .advisors((a) => a.param(CONVERSATION_ID, 'conv-B'));
      const error = await refusal(run(resumeUnderB, mode));
      expect(error.problem).toBe('conversation-mismatch');
      expect(error.message).not.toContain('conv-A');
      expect(bound.transfers).toEqual([]);
      expect(bound.model.callCount).toBe(1);
      expect(await bound.repository.findByConversationId('conv-B')).toEqual([]);
      expect(await bound.repository.findByConversationId('conv-A')).toEqual(before);
      // The state still works where it belongs.
      const resumed = bound.client
        .resume(state, [approveToolCall(state.toolCalls[0]!)])
        .toolContext({ tenant: 'tenant-A' })
        .advisors((a) => a.param(CONVERSATION_ID, 'conv-A'));
      await run(resumed, mode);
      expect(bound.transfers).toEqual([{ to: 'mallory', amount: 900, tenant: 'tenant-A' }]);
    },
  );

  it('a state is refused under another principal, and accepted under its own', async () => {
    const bound = setup({ principal: (toolContext) => toolContext.tenant as string | undefined });
    const state = await pause(bound, mode);
    expect(state.principal).toBe('tenant-A');
    const asB = bound.client
      .resume(state, [approveToolCall(state.toolCalls[0]!)])
      .toolContext({ tenant: 'tenant-B' })
      .advisors((a) => a.param(CONVERSATION_ID, 'conv-A'));
    expect((await refusal(run(asB, mode))).problem).toBe('principal-mismatch');
    expect(bound.transfers).toEqual([]);
    const asA = bound.client
      .resume(state, [approveToolCall(state.toolCalls[0]!)])
      .toolContext({ tenant: 'tenant-A' })
      .advisors((a) => a.param(CONVERSATION_ID, 'conv-A'));
    await run(asA, mode);
    expect(bound.transfers).toHaveLength(1);
  });

  it('a replayed state is refused: the call runs once', async () => {
    const bound = setup();
    const state = await pause(bound, mode);
    const resume = () =>
      bound.client
        .resume(state, [approveToolCall(state.toolCalls[0]!)])
        .toolContext({ tenant: 'tenant-A' })
        .advisors((a) => a.param(CONVERSATION_ID, 'conv-A'));
    await run(resume(), mode);
    expect((await refusal(run(resume(), mode))).problem).toBe('replayed-state');
    expect(bound.transfers).toHaveLength(1);
    expect(bound.model.callCount).toBe(2);
  });

  it('two concurrent resumes of one state: exactly one runs', async () => {
    const bound = setup();
    const state = await pause(bound, mode);
    const resume = () =>
      run(
        bound.client
          .resume(state, [approveToolCall(state.toolCalls[0]!)])
          .toolContext({ tenant: 'tenant-A' })
          .advisors((a) => a.param(CONVERSATION_ID, 'conv-A')),
        mode,
      );
    const outcomes = await Promise.allSettled([resume(), resume()]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
    expect((rejected as PromiseRejectedResult).reason).toMatchObject({ problem: 'replayed-state' });
    expect(bound.transfers).toHaveLength(1);
  });

  it('a state expires: 24 h by default, stateTtlMs when set', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2025-01-01T00:00:00Z') });
    const byDefault = setup();
    const state = await pause(byDefault, mode);
    expect(Date.parse(state.expiresAt) - Date.parse(state.createdAt)).toBe(24 * HOUR);
    vi.setSystemTime(Date.parse('2025-01-02T00:00:01Z'));
    const late = byDefault.client
      .resume(state, [approveToolCall(state.toolCalls[0]!)])
      .toolContext({ tenant: 'tenant-A' })
      .advisors((a) => a.param(CONVERSATION_ID, 'conv-A'));
    expect((await refusal(run(late, mode))).problem).toBe('expired-state');
    expect(byDefault.transfers).toEqual([]);

    vi.setSystemTime(Date.parse('2025-01-01T00:00:00Z'));
    const short = setup({ stateTtlMs: 60_000 });
    const shortState = await pause(short, mode);
    vi.setSystemTime(Date.parse('2025-01-01T00:00:59Z'));
    await run(
      short.client
        .resume(shortState, [approveToolCall(shortState.toolCalls[0]!)])
        .toolContext({ tenant: 'tenant-A' })
        .advisors((a) => a.param(CONVERSATION_ID, 'conv-A')),
      mode,
    );
    expect(short.transfers).toHaveLength(1);
  });

  it('the binding is inside the signature: changing the conversation, expiry or token is tampering', async () => {
    const bound = setup();
    const state = await pause(bound, mode);
    for (const change of [
      { conversationId: 'conv-B' },
      { expiresAt: '2999-01-01T00:00:00.000Z' },
      { nonce: 'AAAAAAAAAAAAAAAAAAAAAA' },
      { principal: 'tenant-B' },
    ]) {
      const forged = { ...state, ...change };
      const spec = bound.client
        .resume(forged, [approveToolCall(state.toolCalls[0]!)])
        .toolContext({ tenant: 'tenant-B' })
        .advisors((a) => a.param(CONVERSATION_ID, forged.conversationId ?? 'conv-A'));
      expect((await refusal(run(spec, mode))).problem).toBe('tampered-state');
    }
    expect(bound.transfers).toEqual([]);
  });

  it('refuses a version 1 state (bound to nothing) with a clear message', async () => {
    const bound = setup();
    const state = await pause(bound, mode);
    const {
      conversationId: _c,
      principal: _p,
      expiresAt: _e,
      nonce: _n,
      signature: _s,
      ...rest
    } = state;
    const old = { ...rest, version: 1 } as unknown as PendingToolApproval;
    const signed = { ...old, signature: signPendingApproval(old, KEY) } as PendingToolApproval;
    const spec = bound.client
      .resume(signed, [approveToolCall(state.toolCalls[0]!)])
      .toolContext({ tenant: 'tenant-A' })
      .advisors((a) => a.param(CONVERSATION_ID, 'conv-A'));
    const error = await refusal(run(spec, mode));
    expect(error.problem).toBe('malformed-state');
    expect(error.message).toMatch(/version 1/);
    expect(bound.transfers).toEqual([]);
  });
});

describe('the conversation an approval state is bound to', () => {
  // String() of any object is '[object Object]': a state paused under one object id resumed
  // under any other object id, in another user's conversation.
  it('is refused when the conversation id is not a string or a number', async () => {
    const { transfer, transfers } = bank();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'mallory', amount: 9 } }]),
    ]);
    const client = ChatClient.create(model, {
      tools: [transfer],
      approval: { signingKey: KEY },
    });
    const error = await client
      .prompt('Pay mallory 9')
      .advisors((a) => a.param(CONVERSATION_ID, { user: 'alice' }))
      .call()
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as Error).message).toBe(
      'the conversation id (advisor param CONVERSATION_ID) must be a string or a number, not an object',
    );
    expect(transfers).toEqual([]);
  });
});
