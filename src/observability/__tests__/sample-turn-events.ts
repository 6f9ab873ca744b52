import type { TurnEvent } from '../turn-event.js';

/** Strings that must never leave the process unless content export is switched on. */
export const SENTINELS = {
  argument: 'SENTINEL-ARGUMENT-7f3a',
  result: 'SENTINEL-RESULT-91bc',
  errorMessage: 'SENTINEL-ERROR-MESSAGE-55de',
  answer: 'SENTINEL-ANSWER-0c2e',
} as const;

/**
 * Two turns of one conversation, as the loop emits them: a streamed turn with a tool round (one
 * call's arguments streamed in pieces; one tool ok, one failing) and a final answer, then a turn
 * whose model call fails.
 */
export function sampleTurnEvents(start = 1_700_000_000_000): TurnEvent[] {
  const t = (offset: number) => start + offset;
  const turnId = 'turn-1';
  const failedTurnId = 'turn-2';
  return [
    { type: 'turn-start', turnId, timestamp: t(0), mode: 'stream', conversationId: 'conv-1' },
    {
      type: 'model-call-start',
      turnId,
      timestamp: t(1),
      iteration: 1,
      model: 'gpt-test',
      toolNames: ['weather', 'lookup_account'],
    },
    // The weather call's arguments as the provider streamed them: the sentinel is one whole piece.
    ...['{"city":"', SENTINELS.argument, '"}'].map(
      (argumentsDelta, piece): TurnEvent => ({
        type: 'tool-call-delta',
        turnId,
        timestamp: t(100 + piece),
        iteration: 1,
        toolCallId: 'call-weather',
        ...(piece === 0 ? { toolName: 'weather' } : {}),
        argumentsDelta,
      }),
    ),
    {
      type: 'tool-call',
      turnId,
      timestamp: t(120),
      iteration: 1,
      toolCall: {
        id: 'call-weather',
        name: 'weather',
        arguments: `{"city":"${SENTINELS.argument}"}`,
      },
    },
    {
      type: 'tool-call',
      turnId,
      timestamp: t(121),
      iteration: 1,
      toolCall: { id: 'call-account', name: 'lookup_account', arguments: '{"id":42}' },
    },
    {
      type: 'model-call-end',
      turnId,
      timestamp: t(122),
      iteration: 1,
      model: 'gpt-test-2026',
      usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
      finishReason: 'TOOL_CALLS',
      durationMs: 121,
    },
    {
      type: 'tool-execution-start',
      turnId,
      timestamp: t(123),
      iteration: 1,
      toolCallId: 'call-weather',
      toolName: 'weather',
    },
    {
      type: 'tool-execution-start',
      turnId,
      timestamp: t(123),
      iteration: 1,
      toolCallId: 'call-account',
      toolName: 'lookup_account',
    },
    {
      type: 'tool-result',
      turnId,
      timestamp: t(173),
      iteration: 1,
      toolCallId: 'call-weather',
      toolName: 'weather',
      outcome: 'ok',
      result: `{"forecast":"${SENTINELS.result}"}`,
      isError: false,
      durationMs: 50,
    },
    {
      type: 'tool-result',
      turnId,
      timestamp: t(203),
      iteration: 1,
      toolCallId: 'call-account',
      toolName: 'lookup_account',
      outcome: 'error',
      result: `Tool failed: ${SENTINELS.errorMessage}`,
      isError: true,
      durationMs: 80,
      errorType: 'ToolExecutionError',
    },
    {
      type: 'step-finish',
      turnId,
      timestamp: t(204),
      iteration: 1,
      finishReason: 'TOOL_CALLS',
      usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
      toolCalls: [
        { id: 'call-weather', name: 'weather', arguments: `{"city":"${SENTINELS.argument}"}` },
        { id: 'call-account', name: 'lookup_account', arguments: '{"id":42}' },
      ],
    },
    {
      type: 'model-call-start',
      turnId,
      timestamp: t(205),
      iteration: 2,
      model: 'gpt-test',
      toolNames: ['weather', 'lookup_account'],
    },
    {
      type: 'model-call-end',
      turnId,
      timestamp: t(305),
      iteration: 2,
      model: 'gpt-test-2026',
      usage: { promptTokens: 180, completionTokens: 30, totalTokens: 210 },
      finishReason: 'STOP',
      durationMs: 100,
    },
    {
      type: 'step-finish',
      turnId,
      timestamp: t(306),
      iteration: 2,
      finishReason: 'STOP',
      toolCalls: [],
    },
    {
      type: 'turn-finish',
      turnId,
      timestamp: t(307),
      durationMs: 307,
      usage: { promptTokens: 280, completionTokens: 50, totalTokens: 330 },
      finishReason: 'STOP',
      text: `It is sunny. ${SENTINELS.answer}`,
    },
    {
      type: 'turn-start',
      turnId: failedTurnId,
      timestamp: t(1000),
      mode: 'stream',
      conversationId: 'conv-1',
    },
    {
      type: 'model-call-start',
      turnId: failedTurnId,
      timestamp: t(1001),
      iteration: 1,
      model: 'gpt-test',
      toolNames: [],
    },
    {
      type: 'model-call-end',
      turnId: failedTurnId,
      timestamp: t(1051),
      iteration: 1,
      durationMs: 50,
      error: { type: 'ChatModelError', message: `provider said ${SENTINELS.errorMessage}` },
    },
    {
      type: 'turn-error',
      turnId: failedTurnId,
      timestamp: t(1052),
      durationMs: 52,
      error: {
        type: 'ChatModelError',
        code: 'CHAT_MODEL_FAILED',
        message: `provider said ${SENTINELS.errorMessage}`,
      },
    },
  ];
}
