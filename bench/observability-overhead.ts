import type { ExportResult } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { ChatClient, debugLogListener } from 'toolloop';

/** A turn event listener (the type `debugLogListener` returns). */
type TurnEventListener = ReturnType<typeof debugLogListener>;

import { openTelemetryListener } from 'toolloop/otel';
import { BenchChatModel } from './lib/bench-chat-model.js';
import {
  check,
  count,
  fmt,
  fmtBytes,
  type Measurement,
  measure,
  operationsFor,
  progress,
  runConcurrently,
  runSequentially,
  SMOKE,
  table,
  warmUp,
} from './lib/harness.js';
import { toolloopCall, toolloopSetup } from './lib/toolloop.js';
import { FINAL_TEXT, PARALLEL_CALLS } from './lib/workload.js';

/**
 * What observing a turn costs: the loop-overhead workload (one round of three parallel tool calls,
 * then a text answer) with no listener, with a no-op listener, with the debug log (to a logger
 * that drops its lines) and with the OpenTelemetry listener on the real SDK (spans ended and
 * handed to an exporter that drops them; metrics aggregated), in the same run.
 */

const CONVERSATIONS = count(2000, 12);
const IN_FLIGHT = count(100, 4);

/** An exporter that drops what it is given: the SDK still builds and ends every span. */
class DroppingSpanExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.spans += spans.length;
    done({ code: 0 });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const spanExporter = new DroppingSpanExporter();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(spanExporter)],
});
const meterProvider = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      exportIntervalMillis: 3_600_000,
    }),
  ],
});
let events = 0;

interface Variant {
  label: string;
  listener?: TurnEventListener;
}
const variants: Variant[] = [
  { label: 'no listener' },
  { label: 'no-op listener', listener: () => void events++ },
  {
    label: 'debug log (logger drops lines)',
    listener: debugLogListener({ logger: { debug: () => {} } }),
  },
  {
    label: 'OpenTelemetry (SDK, dropping exporter)',
    listener: openTelemetryListener({
      tracer: tracerProvider.getTracer('bench'),
      meter: meterProvider.getMeter('bench'),
    }),
  },
];

interface Row {
  variant: Variant;
  sequential: Measurement;
  concurrent: Measurement;
}

function clientFor(variant: Variant) {
  const setup = toolloopSetup();
  if (variant.listener !== undefined)
    setup.client = ChatClient.create(new BenchChatModel(3), { listeners: [variant.listener] });
  return setup;
}

async function bench(variant: Variant): Promise<Row> {
  const setup = clientFor(variant);
  const conversation = () => toolloopCall(setup);
  check((await conversation()) === FINAL_TEXT, `${variant.label}: wrong answer`);
  const msPerConversation = await warmUp(conversation, {
    budgetMs: SMOKE ? 50 : 1000,
    maxRuns: count(20_000, 4),
  });
  const conversations = operationsFor(msPerConversation, CONVERSATIONS, 200);
  const repetitions = SMOKE ? 2 : 5;
  const sequential = await measure(() => runSequentially(conversations, conversation), {
    operations: conversations,
    repetitions,
    warmup: 0,
  });
  const concurrent = await measure(() => runConcurrently(conversations, IN_FLIGHT, conversation), {
    operations: conversations,
    repetitions,
    warmup: 0,
  });
  progress(
    `observability overhead: ${variant.label} ${fmt(sequential.usPerOp)} µs sequential, ${fmt(concurrent.usPerOp)} µs at ${IN_FLIGHT} in flight`,
  );
  return { variant, sequential, concurrent };
}

// Every variant is warmed up before any is measured, so the first one does not pay for the JIT.
for (const variant of variants) {
  const setup = clientFor(variant);
  await warmUp(() => toolloopCall(setup), {
    budgetMs: SMOKE ? 20 : 500,
    maxRuns: count(10_000, 2),
  });
}
const rows: Row[] = [];
for (const variant of variants) rows.push(await bench(variant));
check(events > 0, 'the no-op listener received no events');
check(spanExporter.spans > 0, 'the OpenTelemetry listener ended no spans');
// Each conversation is one turn: an invoke_agent span, two chat spans and a span per tool call.
await tracerProvider.shutdown();
await meterProvider.shutdown();

const base = rows[0]!;
const out: string[] = [];
out.push('## Observability overhead', '');
out.push(
  `Workload: the loop-overhead conversation (${PARALLEL_CALLS} parallel schema-validated no-op tool calls, then a text answer; zero-latency scripted model), ${fmt(CONVERSATIONS)} conversations per repetition (fewer for slower variants, at least 200), median of ${SMOKE ? 2 : 5} repetitions, one at a time and ${IN_FLIGHT} in flight, all variants in the same process. Listeners are the client's (\`ChatClient.create(model, { listeners })\`); "no listener" is a plain client, where the loop builds no event objects at all. The OpenTelemetry row runs the real SDK (BasicTracerProvider, SimpleSpanProcessor, an exporter that drops the ended spans; a MeterProvider aggregating the histograms), with \`openTelemetryListener\` defaults (no content).`,
  '',
);
out.push(
  table(
    [
      'variant',
      'µs / conversation (sequential)',
      'min–max',
      `µs / conversation (${IN_FLIGHT} in flight)`,
      'allocated / conversation',
      'added µs (sequential)',
      'added µs (in flight)',
    ],
    rows.map(({ variant, sequential, concurrent }) => [
      variant.label,
      fmt(sequential.usPerOp),
      `${fmt(sequential.minUsPerOp)}–${fmt(sequential.maxUsPerOp)}`,
      fmt(concurrent.usPerOp),
      fmtBytes(sequential.median.allocatedBytes / sequential.operations),
      variant === base.variant ? '—' : fmt(sequential.usPerOp - base.sequential.usPerOp),
      variant === base.variant ? '—' : fmt(concurrent.usPerOp - base.concurrent.usPerOp),
    ]),
  ),
  '',
);
const noop = rows[1]!;
const otel = rows[3]!;
const added = (row: Row) =>
  `${fmt(row.sequential.usPerOp - base.sequential.usPerOp)} µs (${fmt((row.sequential.usPerOp / base.sequential.usPerOp - 1) * 100, 2)}%)`;
out.push(
  `With no listener the loop creates no emitter and no event object, so observability off costs nothing. A no-op listener adds ${added(noop)} per conversation (the events are built); the OpenTelemetry listener on the real SDK adds ${added(otel)} — a model call takes hundreds of milliseconds in production. Differences within the min–max spread are noise.`,
);
process.stdout.write(`${out.join('\n')}\n`);
