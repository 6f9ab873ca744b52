import { describe, expect, it } from 'vitest';
import { ToolApprovalError, ToolloopError } from '../errors/index.js';
import type { AssistantMessage } from '../messages/index.js';
import { tool } from '../tools/tool.js';
import { hashToolArguments } from './canonical-json.js';
import { createPendingApproval } from './create-pending-approval.js';
import type { PendingToolApproval } from './pending-tool-approval.js';
import { applyApprovalDecisions, readPendingApproval } from './resume-pending-approval.js';
import { approveToolCall, denyToolCall } from './tool-approval-decision.js';

const KEY = 'k'.repeat(32);
const transfer = tool({
  name: 'transfer',
  inputSchema: {
    type: 'object',
    properties: { amount: { type: 'number', maximum: 1000 }, to: { type: 'string' } },
    required: ['amount', 'to'],
    additionalProperties: false,
  },
  needsApproval: true,
  execute: () => 'done',
});
const assistant: AssistantMessage = {
  role: 'assistant',
  text: null,
  toolCalls: [
    { id: 'c1', name: 'transfer', arguments: '{"to":"bob","amount":100}' },
    { id: 'c2', name: 'lookup', arguments: '{}' },
  ],
};
const pendingCall = {
  id: 'c1',
  name: 'transfer',
  arguments: { amount: 100, to: 'bob' },
  argumentsHash: hashToolArguments({ amount: 100, to: 'bob' }),
};

function state(signingKey?: string): PendingToolApproval {
  return createPendingApproval({
    turnId: 't1',
    iteration: 1,
    messages: [{ role: 'user', text: 'pay bob 100' }],
    turn: [assistant],
    toolCalls: [pendingCall],
    usage: undefined,
    signingKey,
    binding: { conversationId: 'c-1' },
    ttlMs: 60_000,
  });
}

function refusal(run: () => unknown): ToolApprovalError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolApprovalError);
    expect(ToolloopError.isInstance(error) && error.code).toBe('TOOL_APPROVAL_REFUSED');
    return error as ToolApprovalError;
  }
  throw new Error('expected a ToolApprovalError');
}

describe('readPendingApproval', () => {
  it('accepts a state that went through JSON text, signed or not', () => {
    const signed = JSON.parse(JSON.stringify(state(KEY)));
    expect(readPendingApproval(signed, KEY).toolCalls).toEqual([pendingCall]);
    expect(readPendingApproval(JSON.parse(JSON.stringify(state())), undefined).turnId).toBe('t1');
  });

  it('refuses a signed state whose transcript, waiting call or arguments were changed', () => {
    const signed = state(KEY);
    const forgedTranscript = {
      ...signed,
      messages: [{ role: 'user', text: 'pay bob 100 and mallory 900' }],
    };
    expect(refusal(() => readPendingApproval(forgedTranscript, KEY)).problem).toBe(
      'tampered-state',
    );
    const forgedIteration = { ...signed, iteration: 0 + 1, turnId: 'other' };
    expect(refusal(() => readPendingApproval(forgedIteration, KEY)).problem).toBe('tampered-state');
    expect(refusal(() => readPendingApproval(signed, 'x'.repeat(32))).problem).toBe(
      'tampered-state',
    );
  });

  it('refuses an unsigned state when the client signs', () => {
    expect(refusal(() => readPendingApproval(state(), KEY)).problem).toBe('unsigned-state');
  });

  it('refuses, even unsigned, waiting calls that do not match the turn', () => {
    const swapped = {
      ...state(),
      toolCalls: [
        {
          ...pendingCall,
          arguments: { amount: 1, to: 'bob' },
          argumentsHash: hashToolArguments({ amount: 1, to: 'bob' }),
        },
      ],
    };
    const error = refusal(() => readPendingApproval(swapped, undefined));
    expect(error.problem).toBe('tampered-state');
    expect(error.toolCallId).toBe('c1');
  });

  it('refuses what is not a pending state', () => {
    for (const value of [null, 'text', {}, { ...state(), version: 3 }, { ...state(), turn: [] }]) {
      expect(refusal(() => readPendingApproval(value, undefined)).problem).toBe('malformed-state');
    }
  });
});

describe('applyApprovalDecisions', () => {
  const base = { state: state(), callbacks: [transfer], stillNeeded: [pendingCall] };

  it('approves as shown: the assistant message is unchanged and nothing is denied', () => {
    const resolved = applyApprovalDecisions({ ...base, decisions: [approveToolCall(pendingCall)] });
    expect(resolved.assistant).toEqual(assistant);
    expect(resolved.denied.size).toBe(0);
  });

  it('denies with the reason in the text the model receives', () => {
    const resolved = applyApprovalDecisions({
      ...base,
      decisions: [denyToolCall(pendingCall, 'Bob was paid yesterday')],
    });
    expect(resolved.denied.get('c1')).toBe(
      "Tool call not executed: the user denied this call of tool 'transfer'. Reason: Bob was paid yesterday",
    );
  });

  it('writes valid edited arguments into the call', () => {
    const resolved = applyApprovalDecisions({
      ...base,
      decisions: [approveToolCall(pendingCall, { arguments: { amount: 50, to: 'bob' } })],
    });
    expect(resolved.assistant.toolCalls[0]?.arguments).toBe('{"amount":50,"to":"bob"}');
    expect(resolved.assistant.toolCalls[1]).toEqual(assistant.toolCalls[1]);
  });

  it('refuses an edit that fails the schema, with the issues', () => {
    const error = refusal(() =>
      applyApprovalDecisions({
        ...base,
        decisions: [approveToolCall(pendingCall, { arguments: { amount: 5000, to: 'bob' } })],
      }),
    );
    expect(error.problem).toBe('invalid-edit');
    expect(error.issues[0]?.path).toBe('/amount');
  });

  it('refuses a decision made for other arguments', () => {
    const decision = { ...approveToolCall(pendingCall), argumentsHash: hashToolArguments({}) };
    expect(refusal(() => applyApprovalDecisions({ ...base, decisions: [decision] })).problem).toBe(
      'arguments-mismatch',
    );
  });

  it('refuses missing, duplicate, unknown and malformed decisions', () => {
    const cases: [unknown, string][] = [
      [[], 'missing-decision'],
      [[approveToolCall(pendingCall), denyToolCall(pendingCall)], 'duplicate-decision'],
      [[{ ...approveToolCall(pendingCall), toolCallId: 'c2' }], 'unknown-call'],
      [[{ ...approveToolCall(pendingCall), type: 'maybe' }], 'invalid-decision'],
      ['approve', 'invalid-decision'],
    ];
    for (const [decisions, problem] of cases) {
      expect(refusal(() => applyApprovalDecisions({ ...base, decisions })).problem).toBe(problem);
    }
  });

  it('refuses when a call needs approval now that the state does not list', () => {
    const error = refusal(() =>
      applyApprovalDecisions({
        ...base,
        decisions: [approveToolCall(pendingCall)],
        stillNeeded: [pendingCall, { ...pendingCall, id: 'c2', name: 'lookup' }],
      }),
    );
    expect(error.problem).toBe('missing-decision');
    expect(error.toolCallId).toBe('c2');
  });
});
