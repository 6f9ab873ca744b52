import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { SENTINELS, sampleTurnEvents } from '../observability/__tests__/sample-turn-events.js';
import { createOtelSdkHarness, metricPoints } from './__tests__/otel-sdk-harness.js';
import { openTelemetryListener } from './open-telemetry-listener.js';

const harnesses: ReturnType<typeof createOtelSdkHarness>[] = [];
function harness() {
  const created = createOtelSdkHarness();
  harnesses.push(created);
  return created;
}
afterEach(async () => {
  for (const created of harnesses.splice(0)) await created.shutdown();
});

const byName = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('openTelemetryListener', () => {
  it('makes one invoke_agent span per turn with chat and execute_tool spans nested under it', () => {
    const otel = harness();
    const listener = openTelemetryListener({
      tracer: otel.tracer,
      meter: otel.meter,
      agentName: 'support',
    });
    for (const event of sampleTurnEvents()) listener(event);
    const spans = otel.spans();
    const turns = byName(spans, 'invoke_agent support');
    expect(turns).toHaveLength(2);
    const [turn] = turns as [ReadableSpan];
    expect(turn.kind).toBe(SpanKind.INTERNAL);
    expect(turn.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'support',
      'gen_ai.conversation.id': 'conv-1',
      'gen_ai.usage.input_tokens': 280,
      'gen_ai.usage.output_tokens': 50,
      'toolloop.turn.id': 'turn-1',
    });
    expect(turn.status.code).toBe(SpanStatusCode.UNSET);
    const turnSpanId = turn.spanContext().spanId;
    const chats = byName(spans, 'chat gpt-test').filter((span) => parentId(span) === turnSpanId);
    expect(chats).toHaveLength(2);
    const [first, second] = chats.sort(
      (a, b) =>
        (a.attributes['toolloop.iteration'] as number) -
        (b.attributes['toolloop.iteration'] as number),
    ) as [ReadableSpan, ReadableSpan];
    expect(first.kind).toBe(SpanKind.CLIENT);
    expect(first.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.response.model': 'gpt-test-2026',
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.response.finish_reasons': ['TOOL_CALLS'],
      'toolloop.tools.offered': ['weather', 'lookup_account'],
    });
    expect(second.attributes['gen_ai.response.finish_reasons']).toEqual(['STOP']);
    // Times come from the events, not from when the listener ran.
    expect(first.startTime).toEqual([1_700_000_000, 1_000_000]);
    expect(first.endTime).toEqual([1_700_000_000, 122_000_000]);

    const [weather] = byName(spans, 'execute_tool weather') as [ReadableSpan];
    expect(parentId(weather)).toBe(turnSpanId);
    expect(weather.kind).toBe(SpanKind.INTERNAL);
    expect(weather.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'weather',
      'gen_ai.tool.call.id': 'call-weather',
      'gen_ai.tool.type': 'function',
      'toolloop.tool.outcome': 'ok',
    });
    expect(weather.status.code).toBe(SpanStatusCode.UNSET);
    expect(weather.attributes['error.type']).toBeUndefined();
  });

  it('marks failed tool calls, model calls and turns with ERROR status and error.type', () => {
    const otel = harness();
    const listener = openTelemetryListener({ tracer: otel.tracer, meter: otel.meter });
    for (const event of sampleTurnEvents()) listener(event);
    const spans = otel.spans();
    const [account] = byName(spans, 'execute_tool lookup_account') as [ReadableSpan];
    expect(account.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ToolExecutionError' });
    expect(account.attributes['error.type']).toBe('ToolExecutionError');
    expect(account.attributes['toolloop.tool.outcome']).toBe('error');
    const failedTurn = byName(spans, 'invoke_agent').find(
      (span) => span.attributes['toolloop.turn.id'] === 'turn-2',
    );
    expect(failedTurn?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'ChatModelError (CHAT_MODEL_FAILED)',
    });
    expect(failedTurn?.attributes['error.type']).toBe('CHAT_MODEL_FAILED');
    const failedChat = spans.find(
      (span) =>
        span.name === 'chat gpt-test' && parentId(span) === failedTurn?.spanContext().spanId,
    );
    expect(failedChat?.status.code).toBe(SpanStatusCode.ERROR);
    expect(failedChat?.attributes['error.type']).toBe('ChatModelError');
  });

  it('records cache and reasoning token counts when the provider reports them', () => {
    const otel = harness();
    const listener = openTelemetryListener({ tracer: otel.tracer, meter: otel.meter });
    for (const event of sampleTurnEvents()) {
      if (event.type === 'model-call-end' && event.usage !== undefined) {
        listener({
          ...event,
          usage: { ...event.usage, cacheReadTokens: 7, cacheWriteTokens: 3, reasoningTokens: 11 },
        });
      } else listener(event);
    }
    const chats = otel
      .spans()
      .filter(
        (span) =>
          span.attributes['gen_ai.operation.name'] === 'chat' &&
          span.attributes['gen_ai.usage.input_tokens'] !== undefined,
      );
    expect(chats.length).toBeGreaterThan(1);
    for (const chat of chats) {
      expect(chat.attributes).toMatchObject({
        'gen_ai.usage.cache_read.input_tokens': 7,
        'gen_ai.usage.cache_creation.input_tokens': 3,
        'gen_ai.usage.reasoning.output_tokens': 11,
      });
    }
    const plain = harness();
    const plainListener = openTelemetryListener({ tracer: plain.tracer, meter: plain.meter });
    for (const event of sampleTurnEvents()) plainListener(event);
    for (const span of plain.spans()) {
      expect(span.attributes['gen_ai.usage.reasoning.output_tokens']).toBeUndefined();
    }
  });

  it('records token usage and durations as histograms with GenAI attributes', async () => {
    const otel = harness();
    const listener = openTelemetryListener({
      tracer: otel.tracer,
      meter: otel.meter,
      providerName: 'openai',
    });
    for (const event of sampleTurnEvents()) listener(event);
    const exported = await otel.metrics();
    const usage = metricPoints(exported, 'gen_ai.client.token.usage');
    const input = usage.find((point) => point.attributes['gen_ai.token.type'] === 'input');
    const output = usage.find((point) => point.attributes['gen_ai.token.type'] === 'output');
    expect(input?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.response.model': 'gpt-test-2026',
    });
    expect(input?.value).toMatchObject({ count: 2, sum: 280 });
    expect(output?.value).toMatchObject({ count: 2, sum: 50 });
    const toolDurations = metricPoints(exported, 'toolloop.tool.duration');
    const weather = toolDurations.find(
      (point) => point.attributes['gen_ai.tool.name'] === 'weather',
    );
    expect(weather?.value).toMatchObject({ count: 1, sum: 0.05 });
    const account = toolDurations.find(
      (point) => point.attributes['gen_ai.tool.name'] === 'lookup_account',
    );
    expect(account?.attributes['error.type']).toBe('ToolExecutionError');
    const modelDurations = metricPoints(exported, 'gen_ai.client.operation.duration');
    expect(modelDurations.reduce((sum, point) => sum + point.value.count, 0)).toBe(3);
  });

  it('counts no tokens, latency or tool time for calls a recovered durable turn replayed', async () => {
    const otel = harness();
    const listener = openTelemetryListener({ tracer: otel.tracer, meter: otel.meter });
    // Every model call and tool call of the sample turn, answered from checkpoints.
    for (const event of sampleTurnEvents()) {
      listener(
        event.type === 'model-call-end' || event.type === 'tool-result'
          ? { ...event, replayed: true }
          : event,
      );
    }
    const exported = await otel.metrics();
    expect(metricPoints(exported, 'gen_ai.client.token.usage')).toEqual([]);
    expect(metricPoints(exported, 'gen_ai.client.operation.duration')).toEqual([]);
    expect(metricPoints(exported, 'toolloop.tool.duration')).toEqual([]);
    const calls = otel
      .spans()
      .filter((span) => span.attributes['gen_ai.operation.name'] !== 'invoke_agent');
    expect(calls.length).toBeGreaterThan(0);
    for (const span of calls) {
      expect(span.attributes['toolloop.replayed']).toBe(true);
      expect(span.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
    }
  });

  it('exports no argument, result, error message or answer by default (sentinel scan)', async () => {
    const otel = harness();
    const listener = openTelemetryListener({ tracer: otel.tracer, meter: otel.meter });
    for (const event of sampleTurnEvents()) listener(event);
    const exported = await otel.exportedText();
    expect(exported).toContain('execute_tool weather');
    for (const sentinel of Object.values(SENTINELS)) expect(exported).not.toContain(sentinel);
  });

  it('exports tool arguments and results when recordContent is on', () => {
    const otel = harness();
    const listener = openTelemetryListener({
      tracer: otel.tracer,
      meter: otel.meter,
      recordContent: true,
    });
    for (const event of sampleTurnEvents()) listener(event);
    const [weather] = byName(otel.spans(), 'execute_tool weather') as [ReadableSpan];
    expect(weather.attributes['gen_ai.tool.call.arguments']).toContain(SENTINELS.argument);
    expect(weather.attributes['gen_ai.tool.call.result']).toContain(SENTINELS.result);
  });

  it('parents the turn span on the span active when the turn starts', () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const otel = harness();
      const listener = openTelemetryListener({ tracer: otel.tracer, meter: otel.meter });
      const request = otel.tracer.startSpan('GET /chat');
      const [turnStart, ...rest] = sampleTurnEvents().filter((event) => event.turnId === 'turn-1');
      context.with(trace.setSpan(context.active(), request), () => listener(turnStart!));
      for (const event of rest) listener(event);
      request.end();
      const [turn] = byName(otel.spans(), 'invoke_agent') as [ReadableSpan];
      expect(parentId(turn)).toBe(request.spanContext().spanId);
      expect(turn.spanContext().traceId).toBe(request.spanContext().traceId);
    } finally {
      context.disable();
    }
  });

  it('ends spans left open when a turn ends, and ignores events of turns it never saw start', () => {
    const otel = harness();
    const listener = openTelemetryListener({ tracer: otel.tracer, meter: otel.meter });
    const events = sampleTurnEvents();
    listener({ ...events[1]!, turnId: 'unknown' } as never);
    listener(events[0]!);
    listener(events[1]!);
    listener({
      type: 'turn-error',
      turnId: 'turn-1',
      timestamp: events[1]!.timestamp + 5,
      durationMs: 5,
      error: { type: 'AbortError', code: 'ABORTED', message: 'aborted' },
    });
    const spans = otel.spans();
    expect(spans.map((span) => span.name).sort()).toEqual(['chat gpt-test', 'invoke_agent']);
  });

  it('marks a tool search that went on without a failing part with a span event', () => {
    const otel = harness();
    const listener = openTelemetryListener({ tracer: otel.tracer, meter: otel.meter });
    const [start] = sampleTurnEvents();
    listener(start!);
    listener({
      type: 'tool-search-fallback',
      turnId: 'turn-1',
      timestamp: start!.timestamp + 3,
      iteration: 1,
      phase: 'search',
      toolCallId: 'search-1',
      source: 'VectorToolIndex',
      reason: 'error',
      error: { type: 'ChatModelError', message: `HTTP 500 ${SENTINELS.errorMessage}` },
    });
    listener({
      type: 'turn-finish',
      turnId: 'turn-1',
      timestamp: start!.timestamp + 4,
      durationMs: 4,
      finishReason: 'STOP',
    });
    const [turn] = byName(otel.spans(), 'invoke_agent');
    expect(turn?.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'toolloop.tool_search.fallback',
        {
          'toolloop.tool_search.phase': 'search',
          'toolloop.tool_search.source': 'VectorToolIndex',
          'toolloop.tool_search.reason': 'error',
          'gen_ai.tool.call.id': 'search-1',
          'error.type': 'ChatModelError',
        },
      ],
    ]);
    expect(JSON.stringify(otel.spans().map((span) => span.events))).not.toContain(
      SENTINELS.errorMessage,
    );
  });
});

describe('openTelemetryListener and tool results with parts', () => {
  it("records each part's type, media type and size on the execute_tool span, never its bytes", () => {
    const otel = harness();
    const listener = openTelemetryListener({ tracer: otel.tracer, meter: otel.meter });
    const bytes = Buffer.alloc(900, 2).toString('base64');
    listener({ type: 'turn-start', turnId: 'p', timestamp: 1, mode: 'call' });
    listener({
      type: 'tool-execution-start',
      turnId: 'p',
      timestamp: 2,
      iteration: 1,
      toolCallId: 'c1',
      toolName: 'shot',
    });
    listener({
      type: 'tool-result',
      turnId: 'p',
      timestamp: 3,
      iteration: 1,
      toolCallId: 'c1',
      toolName: 'shot',
      outcome: 'ok',
      result: '[image image/png, 900 B]',
      isError: false,
      durationMs: 1,
      parts: [{ type: 'image', mediaType: 'image/png', bytes: 900, source: 'inline' }],
      content: [{ type: 'image', mediaType: 'image/png', data: bytes }],
    });
    listener({
      type: 'turn-finish',
      turnId: 'p',
      timestamp: 4,
      durationMs: 3,
      finishReason: 'STOP',
    });
    const [span] = byName(otel.spans(), 'execute_tool shot');
    expect(span?.attributes['toolloop.tool.result.parts']).toEqual(['image image/png 900 bytes']);
    expect(JSON.stringify(otel.spans().map((each) => each.attributes))).not.toContain(bytes);
  });
});
