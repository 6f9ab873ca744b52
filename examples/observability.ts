// Observability: one turn seen three ways, all fed by the loop's events. OpenTelemetry spans (a
// turn span with a `chat` span per model call and an `execute_tool` span per tool call, on the real
// SDK with an in-memory exporter here; use your OTLP exporter in production), a debug log through a
// pino-shaped logger, and a trace page written to disk. Tool arguments and results stay out of all
// three unless content is switched on.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/observability.js
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ChatClient, type ChatModel, debugLogListener } from '../src/index.js';
import { openTelemetryListener } from '../src/otel/index.js';
import { renderTracePage, TurnEventRecorder } from '../src/trace/index.js';
import { scriptedWeatherModel, WeatherTools } from './weather-tools.js';

/** What the observed turn left behind. */
export interface ObservedTurn {
  answer: string | null;
  /** Finished spans as `name ← parent name` lines, children first as the SDK ends them. */
  spans: string[];
  /** The debug log's messages. */
  logLines: string[];
  /** Where the trace page was written. */
  tracePage: string;
  /** Every exported attribute and logged detail, for checking what left the process. */
  exported: string;
}

/** Runs "What is the weather in Amsterdam and Paris?" with the three observers attached. */
export async function runObservability(
  chatModel: ChatModel = scriptedWeatherModel(),
  print: (line: string) => void = console.log,
): Promise<ObservedTurn> {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const logLines: string[] = [];
  const logged: Record<string, unknown>[] = [];
  const recorder = new TurnEventRecorder();

  const client = ChatClient.create(chatModel, {
    tools: [new WeatherTools()],
    listeners: [
      openTelemetryListener({ tracer: tracerProvider.getTracer('weather-app') }),
      debugLogListener({
        logger: {
          debug(details, message) {
            logged.push(details);
            logLines.push(message);
          },
        },
      }),
      recorder.listener,
    ],
  });
  const answer = await client
    .prompt('What is the weather in Amsterdam and Paris?')
    .call()
    .content();

  const finished = exporter.getFinishedSpans();
  const nameOf = new Map(finished.map((span) => [span.spanContext().spanId, span.name]));
  const spans = finished.map((span) => {
    const parentId = span.parentSpanContext?.spanId;
    const parent = parentId === undefined ? undefined : nameOf.get(parentId);
    return parent === undefined ? span.name : `${span.name} ← ${parent}`;
  });
  const tracePage = join(mkdtempSync(join(tmpdir(), 'toolloop-trace-')), 'weather-turn.html');
  writeFileSync(tracePage, renderTracePage(recorder.events, { title: 'Weather turn' }));
  await tracerProvider.shutdown();

  print(`answer: ${answer}`);
  print('spans:');
  for (const line of spans) print(`  ${line}`);
  print('debug log:');
  for (const line of logLines) print(`  ${line}`);
  print(`trace page: ${tracePage}`);
  const exported = JSON.stringify({
    attributes: finished.map((span) => span.attributes),
    logged,
  });
  return { answer, spans, logLines, tracePage, exported };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runObservability();
}
