import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { chatClientFromConfig, loadConfig } from '../../src/config/index.js';
import { jsonSchema, tool } from '../../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../src/testing/index.js';
import { parseTurnEventRecording } from '../../src/trace/index.js';

const dir = mkdtempSync(join(tmpdir(), 'toolloop-config-observability-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => trace.disable());

const ARGUMENT = 'argument-sentinel-7f3a';
const RESULT = 'result-sentinel-91c2';

const lookup = tool({
  name: 'lookupOrder',
  description: 'Looks an order up',
  inputSchema: jsonSchema<{ note: string }>({
    type: 'object',
    properties: { note: { type: 'string' } },
    required: ['note'],
  }),
  execute: () => RESULT,
});

/** One turn with one tool call, seen by every listener the config switches on. */
async function observedTurn(includeContent: boolean | undefined) {
  const exporter = new InMemorySpanExporter();
  trace.disable();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  const recording = join(dir, `turns-${String(includeContent)}`, 'chat.jsonl');
  const lines = [
    'toolloop.observability.debug-log=true',
    'toolloop.observability.open-telemetry=true',
    `toolloop.observability.recording-file=${recording}`,
    ...(includeContent === undefined
      ? []
      : [`spring.ai.tools.observations.include-content=${includeContent}`]),
  ];
  const config = await loadConfig({
    env: false,
    texts: [{ text: lines.join('\n'), format: 'properties', source: 'application.properties' }],
  });
  const logged: string[] = [];
  const model = new ScriptedChatModel([
    toolCallResponse([{ id: 'call-1', name: 'lookupOrder', arguments: { note: ARGUMENT } }]),
    textResponse('Found it.'),
  ]);
  const built = await chatClientFromConfig(config, {
    chatModel: model,
    tools: [lookup],
    debugLogger: {
      debug: (details, message) => logged.push(`${message} ${JSON.stringify(details)}`),
    },
  });
  try {
    expect(await built.client.prompt('Where is my order?').call().content()).toBe('Found it.');
  } finally {
    await built.close();
  }
  const spans = exporter.getFinishedSpans();
  return {
    log: logged.join('\n'),
    spans,
    toolSpan: spans.find((span) => span.name === 'execute_tool lookupOrder'),
    recordingText: readFileSync(recording, 'utf8'),
  };
}

describe('spring.ai.tools.observations.include-content', () => {
  it('is off by default: the debug log, the spans and the recording name the tool but carry none of its content', async () => {
    const seen = await observedTurn(undefined);
    expect(seen.log).toContain('model called tool lookupOrder');
    expect(seen.toolSpan?.attributes['gen_ai.tool.name']).toBe('lookupOrder');
    const events = parseTurnEventRecording(seen.recordingText);
    expect(events.some((e) => e.type === 'tool-call' && e.toolCall.name === 'lookupOrder')).toBe(
      true,
    );
    for (const text of [
      seen.log,
      JSON.stringify(seen.spans.map((s) => s.attributes)),
      seen.recordingText,
    ]) {
      expect(text).not.toContain(ARGUMENT);
      expect(text).not.toContain(RESULT);
    }
  });

  it('=false keeps the content out; =true puts arguments and results in all three', async () => {
    const off = await observedTurn(false);
    expect(off.recordingText + off.log).not.toContain(ARGUMENT);
    const on = await observedTurn(true);
    expect(on.log).toContain(ARGUMENT);
    expect(on.log).toContain(RESULT);
    expect(on.toolSpan?.attributes['gen_ai.tool.call.arguments']).toContain(ARGUMENT);
    expect(on.toolSpan?.attributes['gen_ai.tool.call.result']).toContain(RESULT);
    expect(on.recordingText).toContain(ARGUMENT);
    expect(on.recordingText).toContain(RESULT);
  });

  it('appends each turn to the recording file, one event a line, across clients', async () => {
    const recording = join(dir, 'appended', 'turns.jsonl');
    const config = await loadConfig({
      env: false,
      overrides: { observability: { recordingFile: recording } },
    });
    for (const answer of ['first', 'second']) {
      const built = await chatClientFromConfig(config, {
        chatModel: new ScriptedChatModel([textResponse(answer)]),
      });
      await built.client.prompt('hi').call().content();
      await built.close();
    }
    const events = parseTurnEventRecording(readFileSync(recording, 'utf8'));
    const turns = new Set(events.map((event) => event.turnId));
    expect(turns.size).toBe(2);
    expect(events.filter((event) => event.type === 'turn-finish')).toHaveLength(2);
    expect(readFileSync(recording, 'utf8').trim().split('\n')).toHaveLength(events.length);
  });

  it('exports no span and writes no log or file when toolloop.observability.* is unset', async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    const config = await loadConfig({ env: false });
    expect(config.observability).toEqual({
      debugLog: false,
      openTelemetry: false,
      recordingFile: undefined,
    });
    const logged: string[] = [];
    const built = await chatClientFromConfig(config, {
      chatModel: new ScriptedChatModel([textResponse('ok')]),
      debugLogger: { debug: (_details, message) => logged.push(message) },
      cwd: dir,
    });
    await built.client.prompt('hi').call().content();
    await built.close();
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(logged).toEqual([]);
  });
});
