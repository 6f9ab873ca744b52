import { describe, expect, it } from 'vitest';
import {
  type DeferredSignalOwner,
  DeferredSignalToolContext,
  peekToolSignal,
} from './deferred-tool-signal.js';

/** An owner that counts the signals it makes and can abort them. */
function countingOwner() {
  const controller = new AbortController();
  let made = 0;
  let aborted = false;
  const owner: DeferredSignalOwner = {
    signal() {
      made++;
      return controller.signal;
    },
    peekSignal() {
      return made > 0 || aborted ? controller.signal : undefined;
    },
  };
  return {
    owner,
    made: () => made,
    abort() {
      aborted = true;
      controller.abort();
    },
  };
}

describe('DeferredSignalToolContext', () => {
  it('creates no signal until a tool reads it, then reads the owner’s signal', () => {
    const { owner, made } = countingOwner();
    const context = new DeferredSignalToolContext({ user: 'ada' }, 'call-1', '{}', [], owner);
    expect(made()).toBe(0);
    expect(peekToolSignal(context)).toBeUndefined();
    const signal = context.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(made()).toBe(1);
    expect(peekToolSignal(context)).toBe(signal);
  });

  it('lets peekToolSignal see an abort that happened before anyone read the signal', () => {
    const { owner, made, abort } = countingOwner();
    const context = new DeferredSignalToolContext({}, 'call-1', '{}', undefined, owner);
    abort();
    expect(peekToolSignal(context)?.aborted).toBe(true);
    expect(made()).toBe(0);
  });

  it('looks like a plain context to spreading, Object.keys and deep equality', () => {
    const { owner } = countingOwner();
    const context = new DeferredSignalToolContext({ user: 'ada' }, 'call-1', '{"a":1}', [], owner);
    expect(Object.keys(context)).toEqual([
      'context',
      'toolCallId',
      'rawArguments',
      'messages',
      'signal',
    ]);
    const copy = { ...context };
    expect(copy.signal).toBeInstanceOf(AbortSignal);
    expect(copy).toEqual({
      context: { user: 'ada' },
      toolCallId: 'call-1',
      rawArguments: '{"a":1}',
      messages: [],
      signal: copy.signal,
    });
    expect(Object.getOwnPropertySymbols(context)).toEqual([]);
  });

  it('turns signal into a plain property when it is written, and peeks at what was written', () => {
    const { owner, made } = countingOwner();
    const context = new DeferredSignalToolContext({}, 'call-1', '{}', [], owner) as {
      signal?: AbortSignal;
    };
    const own = new AbortController().signal;
    context.signal = own;
    expect(context.signal).toBe(own);
    expect(made()).toBe(0);
    expect(Object.getOwnPropertyDescriptor(context, 'signal')).toMatchObject({
      value: own,
      writable: true,
      enumerable: true,
    });
    expect(peekToolSignal(context as never)).toBe(own);
  });

  it('peeks at the signal of any other context as it is', () => {
    const signal = new AbortController().signal;
    expect(peekToolSignal({ context: {}, signal })).toBe(signal);
    expect(peekToolSignal({ context: {} })).toBeUndefined();
    expect(peekToolSignal(undefined)).toBeUndefined();
  });
});
