import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** The real OpenTelemetry SDK with in-memory exporters, for asserting what toolloop exports. */
export function createOtelSdkHarness() {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(spanExporter)],
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const metricReader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [metricReader] });
  return {
    tracer: tracerProvider.getTracer('toolloop-test'),
    meter: meterProvider.getMeter('toolloop-test'),
    spans: (): ReadableSpan[] => spanExporter.getFinishedSpans(),
    async metrics(): Promise<ResourceMetrics[]> {
      await metricReader.forceFlush();
      return metricExporter.getMetrics();
    },
    /** Everything exported, as one string, for sentinel scans. */
    async exportedText(): Promise<string> {
      const spans = spanExporter.getFinishedSpans().map((span) => ({
        name: span.name,
        attributes: span.attributes,
        status: span.status,
        events: span.events,
        links: span.links,
      }));
      return JSON.stringify({ spans, metrics: await this.metrics() });
    },
    async shutdown(): Promise<void> {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The data points of one histogram metric, by name. */
export function metricPoints(
  resourceMetrics: ResourceMetrics[],
  name: string,
): DataPoint<Histogram>[] {
  return resourceMetrics
    .flatMap((resource) => resource.scopeMetrics)
    .flatMap((scope) => scope.metrics)
    .filter((metric) => metric.descriptor.name === name)
    .flatMap((metric) => metric.dataPoints as DataPoint<Histogram>[]);
}
