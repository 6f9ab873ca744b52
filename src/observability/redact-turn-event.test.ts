import { describe, expect, it } from 'vitest';
import { redactTurnEvent } from './redact-turn-event.js';
import type { ToolSearchFallbackEvent } from './turn-event.js';

describe('redactTurnEvent', () => {
  it('keeps a tool-search fallback but the error message, which may quote the request', () => {
    const event: ToolSearchFallbackEvent = {
      type: 'tool-search-fallback',
      turnId: 't',
      timestamp: 1,
      iteration: 1,
      phase: 'search',
      toolCallId: 's1',
      source: 'VectorToolIndex',
      reason: 'error',
      error: { type: 'ChatModelError', code: 'CHAT_MODEL_FAILED', message: 'input: my salary' },
    };
    expect(redactTurnEvent(event)).toEqual({
      ...event,
      error: { type: 'ChatModelError', code: 'CHAT_MODEL_FAILED', message: '' },
    });
    const { error: _error, ...timeout } = event;
    expect(redactTurnEvent({ ...timeout, reason: 'unavailable' })).toEqual({
      ...timeout,
      reason: 'unavailable',
    });
  });
});
