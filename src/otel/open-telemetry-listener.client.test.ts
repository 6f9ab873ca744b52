import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatClient } from '../client/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import { createOtelSdkHarness } from './__tests__/otel-sdk-harness.js';
import { openTelemetryListener } from './open-telemetry-listener.js';

const SECRET = {
  argument: 'SENTINEL-CLIENT-ARGUMENT-31d4',
  result: 'SENTINEL-CLIENT-RESULT-8a0f',
  context: 'SENTINEL-CLIENT-CONTEXT-c6e2',
  answer: 'SENTINEL-CLIENT-ANSWER-77b1',
};

const harness = createOtelSdkHarness();
afterAll(() => harness.shutdown());

describe('openTelemetryListener on a real ChatClient turn', () => {
  it('exports the turn and its model calls, and nothing of arguments, results, context or answer', async () => {
    const lookup = tool({
      name: 'account_lookup',
      description: 'Looks up an account',
      inputSchema: z.object({ query: z.string() }),
      execute: ({ query }, context) =>
        `${query} ${SECRET.result} ${String(context.context.tenant ?? '')}`,
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'account_lookup', arguments: { query: SECRET.argument } }]),
      textResponse(`Done. ${SECRET.answer}`),
      textResponse(`Streamed. ${SECRET.answer}`),
    ]);
    const client = ChatClient.create(model, {
      tools: [lookup],
      toolContext: { tenant: SECRET.context },
      listeners: [openTelemetryListener({ tracer: harness.tracer, meter: harness.meter })],
    });
    await client.prompt('look it up').call().content();
    for await (const _ of client.prompt('again').stream().content()) break;
    const spans = harness.spans();
    const turns = spans.filter((span) => span.name === 'invoke_agent');
    expect(turns.length).toBeGreaterThanOrEqual(2);
    expect(spans.filter((span) => span.name.startsWith('chat')).length).toBeGreaterThanOrEqual(2);
    for (const span of spans.filter((candidate) => candidate.name !== 'invoke_agent'))
      expect(turns.map((turn) => turn.spanContext().spanId)).toContain(
        span.parentSpanContext?.spanId,
      );
    expect(turns[0]?.status.code).toBe(SpanStatusCode.UNSET);
    const exported = await harness.exportedText();
    for (const sentinel of Object.values(SECRET)) expect(exported).not.toContain(sentinel);
  });
});
