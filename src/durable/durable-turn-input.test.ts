import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import { storedTurnInput } from './durable-turn-input.js';

describe('storedTurnInput', () => {
  it('keeps a plain JSON input with its agent', () => {
    expect(
      storedTurnInput('orders', {
        user: 'Refund order 42',
        conversationId: 'c-1',
        toolContext: { tenant: 'acme', limits: [1, 2] },
        options: { temperature: 0 },
        stream: true,
      }),
    ).toEqual({
      agent: 'orders',
      user: 'Refund order 42',
      conversationId: 'c-1',
      toolContext: { tenant: 'acme', limits: [1, 2] },
      options: { temperature: 0 },
      stream: true,
    });
  });

  it.each([
    [{ user: 42 }, "the turn input's user must be a string"],
    [{ messages: 'hi' }, "the turn input's messages must be an array of messages"],
    [{ toolContext: [] }, "the turn input's toolContext must be an object"],
    [{ stream: 'yes' }, "the turn input's stream must be a boolean"],
    [
      { toolContext: { now: new Date(0) } },
      'the turn input must be plain JSON, but input.toolContext.now is a Date',
    ],
    [
      { toolContext: { send: () => 1 } },
      'the turn input must be plain JSON, but input.toolContext.send is a function',
    ],
    [
      { params: { ratio: Number.NaN } },
      'the turn input must be plain JSON, but input.params.ratio is NaN',
    ],
    [
      { options: { toolCallbacks: [] } },
      "the turn input's options cannot carry toolCallbacks or toolContext",
    ],
  ])('refuses %j: %s', (input, message) => {
    const attempt = () => storedTurnInput('orders', input as never);
    expect(attempt).toThrow(InvalidArgumentError);
    expect(attempt).toThrow(message);
  });

  it('refuses a turn without an agent name', () => {
    expect(() => storedTurnInput('', { user: 'hi' })).toThrow(
      'agent must be the name of a registered agent',
    );
  });
});
