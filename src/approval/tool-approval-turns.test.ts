import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type CallAdvisor,
  type ChatClientResponse,
  HIGHEST_PRECEDENCE,
  type StreamAdvisor,
} from '../advisors/index.js';
import { ChatClient } from '../client/chat-client.js';
import type { ChatClientRequestSpec } from '../client/chat-client-request-spec.js';
import { ToolApprovalError } from '../errors/index.js';
import { CONVERSATION_ID } from '../memory/chat-memory.js';
import { InMemoryChatMemoryRepository } from '../memory/in-memory-chat-memory-repository.js';
import { MessageChatMemoryAdvisor } from '../memory/message-chat-memory-advisor.js';
import { MessageWindowChatMemory } from '../memory/message-window-chat-memory.js';
import type { AssistantMessage, Message, ToolResponseMessage } from '../messages/index.js';
import { FinishReason } from '../model/index.js';
import type { TurnEvent } from '../observability/turn-event.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { createToolCallingManager } from '../tool-calling/create-tool-calling-manager.js';
import { ToolCallingAdvisor } from '../tool-calling/tool-calling-advisor.js';
import { TOOL_SEARCH_TOOL_NAME } from '../tool-search/tool-search-tool.js';
import { ToolSearchToolCallingAdvisor } from '../tool-search/tool-search-tool-calling-advisor.js';
import { tool } from '../tools/tool.js';
import { type PendingToolApproval, pendingApprovalOf } from './pending-tool-approval.js';
import {
  approveToolCall,
  denyToolCall,
  type ToolApprovalDecision,
} from './tool-approval-decision.js';
import { ToolApprovalPolicies } from './tool-approval-policy.js';

const KEY = 'approval-test-signing-key-0123456789';
type Mode = 'call' | 'stream';

/** Tools that count their executions. */
function bank() {
  const transfers: { to: string; amount: number }[] = [];
  const lookups: string[] = [];
  const transfer = tool({
    name: 'transfer',
    description: 'Send money',
    inputSchema: z.object({ to: z.string(), amount: z.number().positive().max(1000) }),
    needsApproval: true,
    execute: (input) => {
      transfers.push(input);
      return `sent ${input.amount} to ${input.to}`;
    },
  });
  const balance = tool({
    name: 'balance',
    description: 'Read the balance',
    inputSchema: z.object({ account: z.string() }),
    readOnly: true,
    execute: ({ account }) => {
      lookups.push(account);
      return `${account}: 5000`;
    },
  });
  return { transfers, lookups, tools: [transfer, balance] };
}

/** Runs a spec in the given mode and returns the response the caller ends with. */
async function run(spec: ChatClientRequestSpec, mode: Mode): Promise<ChatClientResponse> {
  if (mode === 'call') return spec.call();
  const chunks: ChatClientResponse[] = [];
  for await (const chunk of spec.stream().chatClientResponse()) chunks.push(chunk);
  const last = chunks.at(-1) as ChatClientResponse;
  // The pause is the stream's last chunk; an answer is aggregated as the awaitable spec does.
  if (pendingApprovalOf(last) !== undefined) return last;
  const text = chunks.map((chunk) => chunk.chatResponse?.results[0]?.output.text ?? '').join('');
  return {
    ...last,
    chatResponse: {
      results: [
        {
          output: { role: 'assistant', text, toolCalls: [] },
          metadata: {
            finishReason:
              chunks
                .map((chunk) => chunk.chatResponse?.results[0]?.metadata.finishReason)
                .filter((reason) => reason != null)
                .at(-1) ?? null,
          },
        },
      ],
      metadata: {},
    },
  };
}

function pendingOf(response: ChatClientResponse): PendingToolApproval {
  const pending = pendingApprovalOf(response);
  expect(pending, 'the turn should have paused').toBeDefined();
  return pending as PendingToolApproval;
}

function lastToolMessage(messages: readonly Message[] | undefined): ToolResponseMessage {
  const last = messages?.at(-1);
  expect(last?.role).toBe('tool');
  return last as ToolResponseMessage;
}

function textOf(response: ChatClientResponse): string | null | undefined {
  return response.chatResponse?.results[0]?.output.text;
}

async function refusal(promise: Promise<unknown>): Promise<ToolApprovalError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ToolApprovalError);
  return error as ToolApprovalError;
}

describe.each<Mode>(['call', 'stream'])('approval in %s mode', (mode) => {
  function pausedTurn(extra: ConstructorParameters<typeof ScriptedChatModel>[0] = []) {
    const { transfers, lookups, tools } = bank();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } }]),
      ...extra,
    ]);
    const client = ChatClient.create(model, { tools, approval: { signingKey: KEY } });
    return { transfers, lookups, model, client };
  }

  it('pauses before the call runs, with the call, its arguments and an approval finish reason', async () => {
    const { transfers, model, client } = pausedTurn();
    const response = await run(client.prompt('Pay bob 100'), mode);
    const pending = pendingOf(response);
    expect(response.chatResponse?.results[0]?.metadata.finishReason).toBe(
      FinishReason.APPROVAL_PENDING,
    );
    expect(response.chatResponse?.results[0]?.output.toolCalls.map((call) => call.id)).toEqual([
      't1',
    ]);
    expect(pending.toolCalls).toEqual([
      expect.objectContaining({
        id: 't1',
        name: 'transfer',
        arguments: { to: 'bob', amount: 100 },
      }),
    ]);
    expect(pending.signature).toMatch(/^[\w-]+$/);
    expect(JSON.parse(JSON.stringify(pending))).toEqual(pending);
    expect(transfers).toEqual([]);
    expect(model.callCount).toBe(1);
  });

  it('a call of a response stopped by a content filter or refusal neither pauses nor runs', async () => {
    const { transfers, tools } = bank();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } }], {
        finishReason: FinishReason.CONTENT_FILTER,
      }),
      textResponse('I cannot help with that.'),
    ]);
    const client = ChatClient.create(model, { tools, approval: { signingKey: KEY } });
    const response = await run(client.prompt('Pay bob 100'), mode);
    expect(pendingApprovalOf(response)).toBeUndefined();
    expect(textOf(response)).toBe('I cannot help with that.');
    expect(transfers).toEqual([]);
    expect(lastToolMessage(model.prompts[1]?.messages).responses[0]?.responseData).toContain(
      'content filter',
    );
  });

  it('approve: the call runs exactly once and the model receives its result', async () => {
    const { transfers, model, client } = pausedTurn([textResponse('Sent.')]);
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    const state = JSON.parse(JSON.stringify(pending));
    const resumed = await run(client.resume(state, [approveToolCall(state.toolCalls[0])]), mode);
    expect(textOf(resumed)).toBe('Sent.');
    expect(transfers).toEqual([{ to: 'bob', amount: 100 }]);
    expect(model.callCount).toBe(2);
    expect(lastToolMessage(model.prompts[1]?.messages).responses).toEqual([
      { id: 't1', name: 'transfer', responseData: '"sent 100 to bob"' },
    ]);
    // The transcript the model sees is the whole turn, in order, once.
    expect(model.prompts[1]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
    ]);
  });

  it('deny: the call never runs and the model receives an error result with the reason', async () => {
    const { transfers, model, client } = pausedTurn([textResponse('I did not send it.')]);
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    const resumed = await run(
      client.resume(pending, [
        denyToolCall(pending.toolCalls[0] as never, 'Bob was paid yesterday'),
      ]),
      mode,
    );
    expect(textOf(resumed)).toBe('I did not send it.');
    expect(transfers).toEqual([]);
    expect(lastToolMessage(model.prompts[1]?.messages).responses).toEqual([
      {
        id: 't1',
        name: 'transfer',
        responseData:
          "Tool call not executed: the user denied this call of tool 'transfer'. Reason: Bob was paid yesterday",
        isError: true,
      },
    ]);
  });

  it('edit: the call runs with the edited arguments, which the model sees in the transcript', async () => {
    const { transfers, model, client } = pausedTurn([textResponse('Sent 50.')]);
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    const call = pending.toolCalls[0] as PendingToolApproval['toolCalls'][number];
    await run(
      client.resume(pending, [approveToolCall(call, { arguments: { to: 'bob', amount: 50 } })]),
      mode,
    );
    expect(transfers).toEqual([{ to: 'bob', amount: 50 }]);
    const assistant = model.prompts[1]?.messages[1] as AssistantMessage;
    expect(JSON.parse(assistant.toolCalls[0]?.arguments ?? '')).toEqual({ to: 'bob', amount: 50 });
  });

  it('an invalid edit is refused before anything runs', async () => {
    const { transfers, model, client } = pausedTurn([textResponse('unused')]);
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    const call = pending.toolCalls[0] as PendingToolApproval['toolCalls'][number];
    const error = await refusal(
      run(
        client.resume(pending, [approveToolCall(call, { arguments: { to: 'bob', amount: 5000 } })]),
        mode,
      ),
    );
    expect(error.problem).toBe('invalid-edit');
    expect(error.code).toBe('TOOL_APPROVAL_REFUSED');
    expect(transfers).toEqual([]);
    expect(model.callCount).toBe(1);
  });

  it('a tampered state is refused before anything runs', async () => {
    const { transfers, model, client } = pausedTurn([textResponse('unused')]);
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    const forged = JSON.parse(JSON.stringify(pending));
    forged.messages[0].text = 'Pay bob 100 and mallory 1000';
    const error = await refusal(
      run(client.resume(forged, [approveToolCall(forged.toolCalls[0])]), mode),
    );
    expect(error.problem).toBe('tampered-state');
    expect(error.message).not.toContain('mallory');
    expect(transfers).toEqual([]);
    expect(model.callCount).toBe(1);
  });

  it('a decision for other arguments is refused', async () => {
    const { transfers, client } = pausedTurn([textResponse('unused')]);
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    const call = pending.toolCalls[0] as PendingToolApproval['toolCalls'][number];
    const decision: ToolApprovalDecision = {
      ...approveToolCall(call),
      argumentsHash: approveToolCall({ ...call, argumentsHash: 'f'.repeat(64) }).argumentsHash,
    };
    const error = await refusal(run(client.resume(pending, [decision]), mode));
    expect(error.problem).toBe('arguments-mismatch');
    expect(error.toolCallId).toBe('t1');
    expect(transfers).toEqual([]);
  });

  it('pauses twice in one turn; iterations continue across the resumes', async () => {
    const { transfers, model, client } = pausedTurn([
      toolCallResponse([{ id: 't2', name: 'transfer', arguments: { to: 'carol', amount: 20 } }]),
      textResponse('Both sent.'),
    ]);
    const first = pendingOf(await run(client.prompt('Pay bob 100, then carol 20'), mode));
    expect(first.iteration).toBe(1);
    const second = pendingOf(
      await run(client.resume(first, [approveToolCall(first.toolCalls[0] as never)]), mode),
    );
    expect(second.iteration).toBe(2);
    expect(second.turnId).toBe(first.turnId);
    expect(second.toolCalls.map((call) => call.id)).toEqual(['t2']);
    expect(transfers).toEqual([{ to: 'bob', amount: 100 }]);
    const done = await run(
      client.resume(second, [approveToolCall(second.toolCalls[0] as never)]),
      mode,
    );
    expect(textOf(done)).toBe('Both sent.');
    expect(transfers).toEqual([
      { to: 'bob', amount: 100 },
      { to: 'carol', amount: 20 },
    ]);
    expect(model.prompts[2]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
  });

  it('mixed batch: no call of the batch runs before the decision; the others run with the approved ones', async () => {
    const { transfers, lookups, tools } = bank();
    const mixed = new ScriptedChatModel([
      toolCallResponse([
        { id: 'b1', name: 'balance', arguments: { account: 'main' } },
        { id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } },
      ]),
      textResponse('Done.'),
    ]);
    const client = ChatClient.create(mixed, { tools });
    const pending = pendingOf(await run(client.prompt('Check and pay'), mode));
    expect(pending.toolCalls.map((call) => call.id)).toEqual(['t1']);
    expect(lookups).toEqual([]);
    await run(client.resume(pending, [approveToolCall(pending.toolCalls[0] as never)]), mode);
    expect(lookups).toEqual(['main']);
    expect(transfers).toEqual([{ to: 'bob', amount: 100 }]);
    expect(lastToolMessage(mixed.prompts[1]?.messages).responses.map((r) => r.id)).toEqual([
      'b1',
      't1',
    ]);
  });

  it('a denied call of a mixed batch never runs; the others do', async () => {
    const { transfers, lookups, tools } = bank();
    const mixed = new ScriptedChatModel([
      toolCallResponse([
        { id: 'b1', name: 'balance', arguments: { account: 'main' } },
        { id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } },
      ]),
      textResponse('Balance read, transfer refused.'),
    ]);
    const client = ChatClient.create(mixed, { tools });
    const pending = pendingOf(await run(client.prompt('Check and pay'), mode));
    await run(client.resume(pending, [denyToolCall(pending.toolCalls[0] as never)]), mode);
    expect(lookups).toEqual(['main']);
    expect(transfers).toEqual([]);
    const responses = lastToolMessage(mixed.prompts[1]?.messages).responses;
    expect(responses.map((r) => [r.id, r.isError === true])).toEqual([
      ['b1', false],
      ['t1', true],
    ]);
  });

  it('a client-wide policy asks for destructive tools; a tool stating needsApproval: false is not asked', async () => {
    let wiped = 0;
    let trimmed = 0;
    const wipe = tool({ name: 'wipe', destructive: true, execute: () => ++wiped });
    const trim = tool({
      name: 'trim',
      destructive: true,
      needsApproval: false,
      execute: () => ++trimmed,
    });
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'w', name: 'wipe' },
        { id: 't', name: 'trim' },
      ]),
      textResponse('ok'),
    ]);
    const client = ChatClient.create(model, {
      tools: [wipe, trim],
      approval: { policy: ToolApprovalPolicies.destructive },
    });
    const pending = pendingOf(await run(client.prompt('clean'), mode));
    expect(pending.toolCalls.map((call) => call.name)).toEqual(['wipe']);
    expect([wiped, trimmed]).toEqual([0, 0]);
    await run(client.resume(pending, [approveToolCall(pending.toolCalls[0] as never)]), mode);
    expect([wiped, trimmed]).toEqual([1, 1]);
  });

  it('the iteration cap holds across resumes', async () => {
    const { transfers, tools } = bank();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 1 } }]),
      textResponse('Stopped after one round.'),
    ]);
    const client = ChatClient.create(model, {
      tools,
      toolCallingAdvisor: new ToolCallingAdvisor({ maxIterations: 1 }),
    });
    const pending = pendingOf(await run(client.prompt('pay'), mode));
    const done = await run(
      client.resume(pending, [approveToolCall(pending.toolCalls[0] as never)]),
      mode,
    );
    expect(transfers).toHaveLength(1);
    expect(model.prompts[1]?.options.toolChoice).toBe('none');
    expect(done.chatResponse?.results[0]?.metadata.finishReason).toBe(FinishReason.MAX_ITERATIONS);
  });

  it('call limits hold across resumes: an approved call over the limit never runs', async () => {
    const { transfers, tools } = bank();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 1 } }]),
      toolCallResponse([{ id: 't2', name: 'transfer', arguments: { to: 'bob', amount: 2 } }]),
      textResponse('The limit stopped the second transfer.'),
    ]);
    const client = ChatClient.create(model, {
      tools,
      toolCallingAdvisor: new ToolCallingAdvisor({
        toolCallingManager: createToolCallingManager({
          limits: { maxCallsPerTool: 1, onLimitExceeded: 'RETURN_ERROR_RESPONSE' },
        }),
      }),
    });
    const first = pendingOf(await run(client.prompt('pay twice'), mode));
    const second = pendingOf(
      await run(client.resume(first, [approveToolCall(first.toolCalls[0] as never)]), mode),
    );
    await run(client.resume(second, [approveToolCall(second.toolCalls[0] as never)]), mode);
    expect(transfers).toEqual([{ to: 'bob', amount: 1 }]);
    const refused = lastToolMessage(model.prompts[2]?.messages).responses[0];
    expect(refused?.isError).toBe(true);
  });

  it('works with memory inside the loop: nothing is stored while paused, the whole turn after', async () => {
    const { transfers, tools } = bank();
    const repository = new InMemoryChatMemoryRepository();
    const chatMemory = new MessageWindowChatMemory({ repository });
    const memory = new MessageChatMemoryAdvisor({
      chatMemory,
      order: ToolCallingAdvisor.DEFAULT_ORDER + 1,
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } }]),
      textResponse('Sent.'),
    ]);
    const client = ChatClient.create(model, {
      tools,
      system: 'You are a bank.',
      advisors: [memory, (a) => a.param(CONVERSATION_ID, 'c-1')],
    });
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    expect(await chatMemory.get('c-1')).toEqual([]);
    await run(client.resume(pending, [approveToolCall(pending.toolCalls[0] as never)]), mode);
    expect(transfers).toHaveLength(1);
    expect((await chatMemory.get('c-1')).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(model.prompts[1]?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
  });

  it('works with tool search: a tool found by search pauses, and runs once approved', async () => {
    const { transfers, tools } = bank();
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 's1', name: TOOL_SEARCH_TOOL_NAME, arguments: { query: 'send money transfer' } },
      ]),
      toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } }]),
      textResponse('Sent.'),
    ]);
    const client = ChatClient.create(model, {
      tools,
      advisors: [new ToolSearchToolCallingAdvisor({ approval: { signingKey: KEY } })],
    });
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    expect(pending.iteration).toBe(2);
    expect(transfers).toEqual([]);
    const done = await run(
      client.resume(pending, [approveToolCall(pending.toolCalls[0] as never)]),
      mode,
    );
    expect(textOf(done)).toBe('Sent.');
    expect(transfers).toHaveLength(1);
    const offered = model.prompts[2]?.options.toolCallbacks?.map((t) => t.definition.name);
    expect(offered).toContain('transfer');
  });
});

describe.each<Mode>(['call', 'stream'])('approval events in %s mode', (mode) => {
  /** An advisor ahead of the loop that hands the loop a listener (as the client will). */
  function listening(events: TurnEvent[]): CallAdvisor & StreamAdvisor {
    const listeners = [(event: TurnEvent) => events.push(event)];
    return {
      name: 'listening',
      order: HIGHEST_PRECEDENCE + 1,
      adviseCall: (request, chain) => chain.nextCall({ ...request, listeners }),
      adviseStream: (request, chain) => chain.nextStream({ ...request, listeners }),
    };
  }

  it('the pause emits approval-pending and ends the turn with finish reason approvalPending; the resume keeps the turn id', async () => {
    const { transfers, tools } = bank();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } }]),
      textResponse('Sent.'),
    ]);
    const events: TurnEvent[] = [];
    const client = ChatClient.create(model, { tools, advisors: [listening(events)] });
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    const types = events.map((event) => event.type);
    expect(types).toContain('approval-pending');
    expect(types).not.toContain('tool-execution-start');
    const paused = events.find((event) => event.type === 'approval-pending');
    expect(paused).toMatchObject({ iteration: 1, toolCalls: [{ id: 't1', name: 'transfer' }] });
    expect(events.at(-1)).toMatchObject({ type: 'turn-finish', finishReason: 'approvalPending' });
    expect(new Set(events.map((event) => event.turnId))).toEqual(new Set([pending.turnId]));

    events.length = 0;
    await run(client.resume(pending, [approveToolCall(pending.toolCalls[0] as never)]), mode);
    expect(transfers).toHaveLength(1);
    expect(new Set(events.map((event) => event.turnId))).toEqual(new Set([pending.turnId]));
    expect(events.at(-1)).toMatchObject({ type: 'turn-finish', finishReason: 'stop' });
  });

  it('a denied call is reported as a tool-result with outcome denied and its reason, and never starts', async () => {
    const { transfers, tools } = bank();
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } }]),
      textResponse('Not sent.'),
    ]);
    const events: TurnEvent[] = [];
    const client = ChatClient.create(model, { tools, advisors: [listening(events)] });
    const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
    events.length = 0;
    await run(
      client.resume(pending, [denyToolCall(pending.toolCalls[0] as never, 'Over budget')]),
      mode,
    );
    expect(transfers).toHaveLength(0);
    expect(events.map((event) => event.type)).not.toContain('tool-execution-start');
    const results = events.filter((event) => event.type === 'tool-result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ toolCallId: 't1', outcome: 'denied', isError: true });
    expect((results[0] as { result: string }).result).toContain('Over budget');
  });
});

describe.each<Mode>(['call', 'stream'])(
  'approval with memory outside the loop, %s mode',
  (mode) => {
    it('stores nothing while paused; the user message and the answer once the resumed turn ends', async () => {
      const { transfers, tools } = bank();
      const chatMemory = new MessageWindowChatMemory({
        repository: new InMemoryChatMemoryRepository(),
      });
      await chatMemory.add('c-out', [
        { role: 'user', text: 'Hi' },
        { role: 'assistant', text: 'Hello.', toolCalls: [] },
      ]);
      const model = new ScriptedChatModel([
        toolCallResponse([{ id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100 } }]),
        textResponse('Sent.'),
      ]);
      const client = ChatClient.create(model, {
        tools,
        advisors: [
          new MessageChatMemoryAdvisor({ chatMemory }),
          (a) => a.param(CONVERSATION_ID, 'c-out'),
        ],
      });
      const pending = pendingOf(await run(client.prompt('Pay bob 100'), mode));
      expect(await chatMemory.get('c-out')).toHaveLength(2);
      await run(client.resume(pending, [approveToolCall(pending.toolCalls[0] as never)]), mode);
      expect(transfers).toHaveLength(1);
      // The history is sent once, not again on top of the state's messages.
      expect(model.prompts[1]?.messages.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'user',
        'assistant',
        'tool',
      ]);
      expect(
        (await chatMemory.get('c-out')).map((message) =>
          'text' in message ? message.text : message.role,
        ),
      ).toEqual(['Hi', 'Hello.', 'Pay bob 100', 'Sent.']);
    });
  },
);
