import {
  type Attributes,
  type Context,
  context,
  type Histogram,
  type Meter,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { Usage } from '../model/index.js';
import type {
  ModelCallEndEvent,
  ModelCallStartEvent,
  ToolResultEvent,
  TurnEvent,
  TurnEventListener,
} from '../observability/index.js';
import {
  GenAiAttributes as A,
  DURATION_BUCKETS,
  GenAiMetrics,
  GenAiOperations,
  TOKEN_USAGE_BUCKETS,
} from './gen-ai-attributes.js';

/** Options of {@link openTelemetryListener}. */
export interface OpenTelemetryListenerOptions {
  /** The tracer spans are made with. Default: the global tracer provider's `toolloop` tracer. */
  tracer?: Tracer;
  /** The meter metrics are recorded with. Default: the global meter provider's `toolloop` meter. */
  meter?: Meter;
  /**
   * Export tool arguments (`gen_ai.tool.call.arguments`) and results (`gen_ai.tool.call.result`)
   * on the tool spans. Off by default: they may hold personal or secret data. The tool context is
   * never exported.
   */
  recordContent?: boolean;
  /** `gen_ai.agent.name` of the turn span, and the suffix of its name (`invoke_agent {name}`). */
  agentName?: string;
  /** `gen_ai.provider.name` of the model call spans and metrics (e.g. `openai`, `anthropic`). */
  providerName?: string;
}

const TRACER_NAME = 'toolloop';

/** What the listener keeps of a turn that is running. */
interface TurnSpans {
  readonly span: Span;
  readonly context: Context;
  readonly modelCalls: Map<number, { span: Span; requestModel?: string }>;
  readonly toolCalls: Map<string, Span>;
  readonly toolArguments: Map<string, string>;
}

/**
 * Turns toolloop's turn events into OpenTelemetry spans and metrics, following the GenAI
 * semantic conventions: one `invoke_agent` span per turn (INTERNAL: the agent runs in this
 * process), and under it a `chat {model}` span (CLIENT) per model call and an
 * `execute_tool {name}` span (INTERNAL) per tool call. Model calls record
 * `gen_ai.client.token.usage` and `gen_ai.client.operation.duration`; tool calls record
 * `toolloop.tool.duration`. Failures set the span status to ERROR with `error.type`.
 *
 * The turn span's parent is the context active when the turn starts (an HTTP server span, say).
 * Error messages, tool arguments and tool results are not exported unless `recordContent` is on;
 * the tool context never is. Register the result as a turn event listener.
 */
export function openTelemetryListener(
  options: OpenTelemetryListenerOptions = {},
): TurnEventListener {
  const tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
  const meter = options.meter ?? metrics.getMeter(TRACER_NAME);
  const recordContent = options.recordContent === true;
  const instruments = createInstruments(meter);
  const turns = new Map<string, TurnSpans>();
  const providerAttributes: Attributes =
    options.providerName === undefined ? {} : { [A.providerName]: options.providerName };

  const startChild = (
    turn: TurnSpans,
    name: string,
    kind: SpanKind,
    start: number,
    attributes: Attributes,
  ) => tracer.startSpan(name, { kind, startTime: start, attributes }, turn.context);

  const onModelCallStart = (turn: TurnSpans, event: ModelCallStartEvent) => {
    const span = startChild(
      turn,
      event.model === undefined ? GenAiOperations.chat : `${GenAiOperations.chat} ${event.model}`,
      SpanKind.CLIENT,
      event.timestamp,
      {
        [A.operationName]: GenAiOperations.chat,
        ...providerAttributes,
        ...(event.model === undefined ? {} : { [A.requestModel]: event.model }),
        [A.iteration]: event.iteration,
        [A.offeredTools]: [...event.toolNames],
      },
    );
    turn.modelCalls.set(event.iteration, { span, requestModel: event.model });
  };

  const onModelCallEnd = (turn: TurnSpans, event: ModelCallEndEvent) => {
    const started = turn.modelCalls.get(event.iteration);
    turn.modelCalls.delete(event.iteration);
    const span =
      started?.span ??
      startChild(turn, GenAiOperations.chat, SpanKind.CLIENT, event.timestamp - event.durationMs, {
        [A.operationName]: GenAiOperations.chat,
        ...providerAttributes,
        [A.iteration]: event.iteration,
      });
    if (event.model !== undefined) span.setAttribute(A.responseModel, event.model);
    if (event.finishReason != null)
      span.setAttribute(A.responseFinishReasons, [event.finishReason]);
    if (event.replayed === true) {
      // Answered from a checkpoint: no request was made, so no tokens or latency to count again.
      span.setAttribute(A.replayed, true);
      span.end(event.timestamp);
      return;
    }
    if (event.usage !== undefined) setUsageAttributes(span, event.usage);
    const metricAttributes: Attributes = {
      [A.operationName]: GenAiOperations.chat,
      ...providerAttributes,
      ...(started?.requestModel === undefined ? {} : { [A.requestModel]: started.requestModel }),
      ...(event.model === undefined ? {} : { [A.responseModel]: event.model }),
    };
    if (event.error !== undefined) {
      span.setAttribute(A.errorType, event.error.type);
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: statusMessage(event.error, recordContent),
      });
      metricAttributes[A.errorType] = event.error.type;
    }
    span.end(event.timestamp);
    instruments.operationDuration.record(event.durationMs / 1000, metricAttributes);
    if (event.usage !== undefined) {
      instruments.tokenUsage.record(event.usage.promptTokens, {
        ...metricAttributes,
        [A.tokenType]: 'input',
      });
      instruments.tokenUsage.record(event.usage.completionTokens, {
        ...metricAttributes,
        [A.tokenType]: 'output',
      });
    }
  };

  const toolAttributes = (toolName: string, toolCallId: string, iteration: number): Attributes => ({
    [A.operationName]: GenAiOperations.executeTool,
    [A.toolName]: toolName,
    [A.toolCallId]: toolCallId,
    [A.toolType]: 'function',
    [A.iteration]: iteration,
  });

  const onToolResult = (turn: TurnSpans, event: ToolResultEvent) => {
    const span =
      turn.toolCalls.get(event.toolCallId) ??
      startChild(
        turn,
        `${GenAiOperations.executeTool} ${event.toolName}`,
        SpanKind.INTERNAL,
        event.timestamp - event.durationMs,
        toolAttributes(event.toolName, event.toolCallId, event.iteration),
      );
    turn.toolCalls.delete(event.toolCallId);
    const toolArguments = turn.toolArguments.get(event.toolCallId);
    turn.toolArguments.delete(event.toolCallId);
    span.setAttribute(A.toolOutcome, event.outcome);
    if (event.replayed === true) span.setAttribute(A.replayed, true);
    if (event.parts !== undefined) {
      span.setAttribute(
        A.toolResultParts,
        event.parts.map((part) =>
          [part.type, part.mediaType, part.source === 'url' ? 'url' : `${part.bytes} bytes`]
            .filter((entry) => entry !== undefined)
            .join(' '),
        ),
      );
    }
    if (recordContent) {
      if (toolArguments !== undefined) span.setAttribute(A.toolCallArguments, toolArguments);
      span.setAttribute(A.toolCallResult, event.result);
    }
    const metricAttributes: Attributes = {
      [A.operationName]: GenAiOperations.executeTool,
      [A.toolName]: event.toolName,
      [A.toolOutcome]: event.outcome,
    };
    if (event.outcome !== 'ok') {
      const errorType = event.errorType ?? event.outcome;
      span.setAttribute(A.errorType, errorType);
      // The result text is what the model reads; it may quote the tool's data, so it is not the
      // status message unless content export is on.
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: recordContent ? event.result : errorType,
      });
      metricAttributes[A.errorType] = errorType;
    }
    span.end(event.timestamp);
    // A result answered from a checkpoint took no tool time in this run.
    if (event.replayed !== true) {
      instruments.toolDuration.record(event.durationMs / 1000, metricAttributes);
    }
  };

  const endTurn = (turn: TurnSpans, turnId: string, end: number) => {
    // Spans left open (an abort between start and end) end with the turn rather than leak.
    for (const { span } of turn.modelCalls.values()) span.end(end);
    for (const span of turn.toolCalls.values()) span.end(end);
    turn.span.end(end);
    turns.delete(turnId);
  };

  return (event: TurnEvent) => {
    if (event.type === 'turn-start') {
      const name =
        options.agentName === undefined
          ? GenAiOperations.invokeAgent
          : `${GenAiOperations.invokeAgent} ${options.agentName}`;
      const span = tracer.startSpan(
        name,
        {
          kind: SpanKind.INTERNAL,
          startTime: event.timestamp,
          attributes: {
            [A.operationName]: GenAiOperations.invokeAgent,
            ...providerAttributes,
            ...(options.agentName === undefined ? {} : { [A.agentName]: options.agentName }),
            ...(event.conversationId === undefined
              ? {}
              : { [A.conversationId]: event.conversationId }),
            [A.turnId]: event.turnId,
            [A.turnMode]: event.mode,
          },
        },
        context.active(),
      );
      turns.set(event.turnId, {
        span,
        context: trace.setSpan(context.active(), span),
        modelCalls: new Map(),
        toolCalls: new Map(),
        toolArguments: new Map(),
      });
      return;
    }
    const turn = turns.get(event.turnId);
    if (turn === undefined) return;
    switch (event.type) {
      case 'model-call-start':
        onModelCallStart(turn, event);
        return;
      case 'model-call-end':
        onModelCallEnd(turn, event);
        return;
      case 'tool-call':
        if (recordContent) turn.toolArguments.set(event.toolCall.id, event.toolCall.arguments);
        return;
      case 'tool-execution-start':
        turn.toolCalls.set(
          event.toolCallId,
          startChild(
            turn,
            `${GenAiOperations.executeTool} ${event.toolName}`,
            SpanKind.INTERNAL,
            event.timestamp,
            toolAttributes(event.toolName, event.toolCallId, event.iteration),
          ),
        );
        return;
      case 'tool-result':
        onToolResult(turn, event);
        return;
      case 'limit-exceeded':
        turn.span.addEvent(
          'toolloop.limit_exceeded',
          {
            'toolloop.limit.scope': event.scope,
            'toolloop.limit.value': event.limit,
            ...(event.toolName === undefined ? {} : { [A.toolName]: event.toolName }),
          },
          event.timestamp,
        );
        return;
      case 'iteration-cap':
        turn.span.addEvent(
          'toolloop.iteration_cap',
          { 'toolloop.iteration.max': event.maxIterations },
          event.timestamp,
        );
        return;
      case 'tool-search-fallback':
        turn.span.addEvent(
          'toolloop.tool_search.fallback',
          {
            'toolloop.tool_search.phase': event.phase,
            'toolloop.tool_search.source': event.source,
            'toolloop.tool_search.reason': event.reason,
            ...(event.toolCallId === undefined ? {} : { [A.toolCallId]: event.toolCallId }),
            ...(event.error === undefined
              ? {}
              : { [A.errorType]: event.error.code ?? event.error.type }),
          },
          event.timestamp,
        );
        return;
      case 'approval-pending':
        turn.span.addEvent(
          'toolloop.approval_pending',
          {
            [A.toolName]: event.toolCalls.map((call) => call.name),
            [A.toolCallId]: event.toolCalls.map((call) => call.id),
          },
          event.timestamp,
        );
        return;
      case 'turn-finish':
        if (event.usage !== undefined) setUsageAttributes(turn.span, event.usage);
        if (event.finishReason != null)
          turn.span.setAttribute(A.responseFinishReasons, [event.finishReason]);
        endTurn(turn, event.turnId, event.timestamp);
        return;
      case 'turn-error':
        turn.span.setAttribute(A.errorType, event.error.code ?? event.error.type);
        turn.span.setStatus({
          code: SpanStatusCode.ERROR,
          message: statusMessage(event.error, recordContent),
        });
        endTurn(turn, event.turnId, event.timestamp);
        return;
      default:
        return;
    }
  };
}

/**
 * Token counts on a span: input and output always, the cache and reasoning counts when the
 * provider reported them (Anthropic's cache, OpenAI's cached and reasoning tokens, Gemini's
 * thought tokens), so a dashboard can tell reasoning spend from answer text.
 */
function setUsageAttributes(span: Span, usage: Usage): void {
  span.setAttribute(A.usageInputTokens, usage.promptTokens);
  span.setAttribute(A.usageOutputTokens, usage.completionTokens);
  if (usage.cacheReadTokens !== undefined)
    span.setAttribute(A.usageCacheReadInputTokens, usage.cacheReadTokens);
  if (usage.cacheWriteTokens !== undefined)
    span.setAttribute(A.usageCacheCreationInputTokens, usage.cacheWriteTokens);
  if (usage.reasoningTokens !== undefined)
    span.setAttribute(A.usageReasoningOutputTokens, usage.reasoningTokens);
}

/** An error's status message: its type (and code), its message only with content export on. */
function statusMessage(
  error: { readonly type: string; readonly code?: string; readonly message: string },
  recordContent: boolean,
): string {
  const kind = error.code === undefined ? error.type : `${error.type} (${error.code})`;
  return recordContent ? `${kind}: ${error.message}` : kind;
}

function createInstruments(meter: Meter): {
  tokenUsage: Histogram;
  operationDuration: Histogram;
  toolDuration: Histogram;
} {
  return {
    tokenUsage: meter.createHistogram(GenAiMetrics.tokenUsage, {
      description: 'Number of input and output tokens used per model call',
      unit: '{token}',
      advice: { explicitBucketBoundaries: TOKEN_USAGE_BUCKETS },
    }),
    operationDuration: meter.createHistogram(GenAiMetrics.operationDuration, {
      description: 'Duration of a model call',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    toolDuration: meter.createHistogram(GenAiMetrics.toolDuration, {
      description: 'Duration of a tool call (0 for calls that never ran)',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  };
}
