import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SENTINELS, sampleTurnEvents } from './__tests__/sample-turn-events.js';
import {
  type DebugLogger,
  debugLoggingFromEnvironment,
  debugLogListener,
  environmentDebugLogListener,
} from './debug-log-listener.js';

function capturingLogger() {
  const lines: { details: Record<string, unknown>; message: string }[] = [];
  const logger: DebugLogger = { debug: (details, message) => lines.push({ details, message }) };
  return { logger, lines };
}

afterEach(() => vi.restoreAllMocks());

describe('debugLogListener', () => {
  it('logs what was offered, what was called, how calls and turns ended', () => {
    const { logger, lines } = capturingLogger();
    const listener = debugLogListener({ logger });
    for (const event of sampleTurnEvents()) listener(event);
    const messages = lines.map((line) => line.message);
    expect(messages).toEqual([
      'turn started',
      'model call 1: 2 tools offered',
      'model called tool weather',
      'model called tool lookup_account',
      'model call 1 ended: TOOL_CALLS',
      'tool weather started',
      'tool lookup_account started',
      'tool weather ended: ok',
      'tool lookup_account ended: error',
      'model call 2: 2 tools offered',
      'model call 2 ended: STOP',
      'turn finished: STOP',
      'turn started',
      'model call 1: 0 tools offered',
      'model call 1 failed: ChatModelError',
      'turn failed: CHAT_MODEL_FAILED',
    ]);
    expect(lines[1]?.details).toMatchObject({
      turnId: 'turn-1',
      tools: ['weather', 'lookup_account'],
      model: 'gpt-test',
    });
    expect(lines[8]?.details).toMatchObject({
      toolCallId: 'call-account',
      outcome: 'error',
      errorType: 'ToolExecutionError',
      durationMs: 80,
    });
  });

  it('logs limits, the iteration cap and approval pauses', () => {
    const { logger, lines } = capturingLogger();
    const listener = debugLogListener({ logger });
    const base = { turnId: 't', timestamp: 1, iteration: 2 };
    listener({ ...base, type: 'limit-exceeded', scope: 'per-tool', toolName: 'search', limit: 3 });
    listener({ ...base, type: 'limit-exceeded', scope: 'total', limit: 10 });
    listener({ ...base, type: 'iteration-cap', maxIterations: 2 });
    listener({
      ...base,
      type: 'approval-pending',
      toolCalls: [{ id: 'c1', name: 'pay', arguments: `{"card":"${SENTINELS.argument}"}` }],
    });
    expect(lines.map((line) => line.message)).toEqual([
      'tool call limit of search reached (3)',
      'total tool call limit reached (10)',
      'iteration cap reached (2)',
      'turn paused: 1 tool calls wait for approval',
    ]);
    expect(JSON.stringify(lines)).not.toContain(SENTINELS.argument);
  });

  it('logs a tool search that went on without a failing part', () => {
    const { logger, lines } = capturingLogger();
    const listener = debugLogListener({ logger });
    const base = { turnId: 't', timestamp: 1, type: 'tool-search-fallback' } as const;
    listener({
      ...base,
      iteration: 0,
      phase: 'index',
      source: 'VectorToolIndex',
      reason: 'timeout',
    });
    listener({
      ...base,
      iteration: 1,
      phase: 'search',
      toolCallId: 's1',
      source: 'VectorToolIndex',
      reason: 'error',
      error: { type: 'ChatModelError', message: 'embeddings request failed with HTTP 500' },
    });
    expect(lines.map((line) => line.message)).toEqual([
      'tool indexing went on without VectorToolIndex: timeout',
      'tool search went on without VectorToolIndex: error',
    ]);
    expect(lines[1]?.details).toMatchObject({
      turnId: 't',
      iteration: 1,
      toolCallId: 's1',
      error: { type: 'ChatModelError' },
    });
    expect(JSON.stringify(lines)).not.toContain('HTTP 500');
  });

  it('logs no argument, result, answer or provider message unless logContent is on', () => {
    const quiet = capturingLogger();
    const listener = debugLogListener({ logger: quiet.logger });
    for (const event of sampleTurnEvents()) listener(event);
    const quietText = JSON.stringify(quiet.lines);
    for (const sentinel of [SENTINELS.argument, SENTINELS.result, SENTINELS.answer])
      expect(quietText).not.toContain(sentinel);
    const loud = capturingLogger();
    const contentListener = debugLogListener({ logger: loud.logger, logContent: true });
    for (const event of sampleTurnEvents()) contentListener(event);
    const loudText = JSON.stringify(loud.lines);
    for (const sentinel of [SENTINELS.argument, SENTINELS.result, SENTINELS.answer])
      expect(loudText).toContain(sentinel);
  });

  it('writes to standard error by default', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    debugLogListener()(sampleTurnEvents()[0]!);
    expect(error).toHaveBeenCalledWith(
      '[toolloop] turn started',
      expect.stringContaining('"turnId":"turn-1"'),
    );
  });

  it('takes a pino logger as it is', () => {
    const written: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    const listener = debugLogListener({ logger });
    for (const event of sampleTurnEvents()) listener(event);
    const records = written
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(16);
    expect(records[0]).toMatchObject({
      level: 20,
      msg: 'turn started',
      turnId: 'turn-1',
      mode: 'stream',
    });
    expect(records[7]).toMatchObject({
      msg: 'tool weather ended: ok',
      toolName: 'weather',
      outcome: 'ok',
    });
  });
});

describe('debugLoggingFromEnvironment', () => {
  it.each([
    [{}, false, false],
    [{ TOOLLOOP_DEBUG: '1' }, true, false],
    [{ TOOLLOOP_DEBUG: 'true' }, true, false],
    [{ TOOLLOOP_DEBUG: 'content' }, true, true],
    [{ TOOLLOOP_DEBUG: '0' }, false, false],
    [{ TOOLLOOP_DEBUG: 'false' }, false, false],
    [{ DEBUG: 'toolloop' }, true, false],
    [{ DEBUG: 'express,toolloop' }, true, false],
    [{ DEBUG: 'tool*' }, true, false],
    [{ DEBUG: '*' }, true, false],
    [{ DEBUG: '*,-toolloop' }, false, false],
    [{ DEBUG: 'express' }, false, false],
    [{ DEBUG: 'toolloop.x' }, false, false],
  ])('%o: enabled %s, content %s', (environment, enabled, logContent) => {
    expect(debugLoggingFromEnvironment(environment)).toEqual({ enabled, logContent });
  });

  it('gives a listener only when the environment asks for one', () => {
    const { logger, lines } = capturingLogger();
    expect(environmentDebugLogListener({}, logger)).toBeUndefined();
    environmentDebugLogListener({ DEBUG: 'toolloop' }, logger)?.(sampleTurnEvents()[0]!);
    expect(lines).toHaveLength(1);
  });
});

describe('debugLogListener and tool results with parts', () => {
  it("logs each part's type, media type and size, never its bytes, even with content on", () => {
    const bytes = Buffer.alloc(600, 1).toString('base64');
    for (const logContent of [false, true]) {
      const { logger, lines } = capturingLogger();
      debugLogListener({ logger, logContent })({
        type: 'tool-result',
        turnId: 't',
        timestamp: 0,
        iteration: 1,
        toolCallId: 'c1',
        toolName: 'shot',
        outcome: 'ok',
        result: 'A page\n[image image/png, 600 B]',
        isError: false,
        durationMs: 3,
        parts: [
          { type: 'text', bytes: 6 },
          { type: 'image', mediaType: 'image/png', bytes: 600, source: 'inline' },
        ],
        content: [
          { type: 'text', text: 'A page' },
          { type: 'image', mediaType: 'image/png', data: bytes },
        ],
      });
      expect(lines[0]?.details.parts).toEqual([
        { type: 'text', bytes: 6 },
        { type: 'image', mediaType: 'image/png', bytes: 600, source: 'inline' },
      ]);
      expect(JSON.stringify(lines)).not.toContain(bytes);
    }
  });
});
