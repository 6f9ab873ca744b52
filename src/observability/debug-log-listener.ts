import type { ToolCall } from '../messages/index.js';
import type { TurnEvent, TurnEventListener } from './turn-event.js';

/**
 * Where debug lines go: `debug(details, message)`, the shape of pino's and bunyan's loggers (a
 * pino logger can be passed as it is). `details` is a plain object of ids, names, counts and
 * timings.
 */
export interface DebugLogger {
  debug(details: Record<string, unknown>, message: string): void;
}

/** Options of {@link debugLogListener}. */
export interface DebugLogListenerOptions {
  /** Where lines go. Default: {@link consoleDebugLogger} (standard error). */
  logger?: DebugLogger;
  /**
   * Also log tool arguments, tool results and the answer text. Off by default: they may hold
   * personal or secret data. The tool context and API keys are never logged.
   */
  logContent?: boolean;
}

/** Writes `[toolloop] message {details}` to standard error through `console.error`. */
export const consoleDebugLogger: DebugLogger = {
  debug(details, message) {
    console.error(`[toolloop] ${message}`, JSON.stringify(details));
  },
};

const callSummary = (call: ToolCall) => ({ id: call.id, name: call.name });

/**
 * A turn event listener that logs what the loop does at debug level: what each model call was
 * offered, which tools the model called and how each call ended, limits and caps reached,
 * approval pauses, and how the turn ended. Text and argument deltas and progress values are not
 * logged. Tool arguments, results and the answer only with `logContent`.
 */
export function debugLogListener(options: DebugLogListenerOptions = {}): TurnEventListener {
  const logger = options.logger ?? consoleDebugLogger;
  const logContent = options.logContent === true;
  return (event: TurnEvent) => {
    const turnId = event.turnId;
    switch (event.type) {
      case 'turn-start':
        logger.debug(
          { turnId, mode: event.mode, conversationId: event.conversationId },
          'turn started',
        );
        return;
      case 'model-call-start':
        logger.debug(
          { turnId, iteration: event.iteration, model: event.model, tools: event.toolNames },
          `model call ${event.iteration}: ${event.toolNames.length} tools offered`,
        );
        return;
      case 'model-call-end':
        logger.debug(
          {
            turnId,
            iteration: event.iteration,
            model: event.model,
            finishReason: event.finishReason,
            usage: event.usage,
            durationMs: event.durationMs,
            ...(event.replayed === true ? { replayed: true } : {}),
            ...(event.error === undefined
              ? {}
              : {
                  error: logContent ? event.error : { type: event.error.type },
                }),
          },
          event.error === undefined
            ? `model call ${event.iteration} ended: ${event.finishReason ?? 'no finish reason'}`
            : `model call ${event.iteration} failed: ${event.error.type}`,
        );
        return;
      case 'tool-call':
        logger.debug(
          {
            turnId,
            iteration: event.iteration,
            toolCallId: event.toolCall.id,
            toolName: event.toolCall.name,
            ...(logContent ? { arguments: event.toolCall.arguments } : {}),
          },
          `model called tool ${event.toolCall.name}`,
        );
        return;
      case 'tool-execution-start':
        logger.debug(
          {
            turnId,
            iteration: event.iteration,
            toolCallId: event.toolCallId,
            toolName: event.toolName,
          },
          `tool ${event.toolName} started`,
        );
        return;
      case 'tool-result':
        logger.debug(
          {
            turnId,
            iteration: event.iteration,
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            outcome: event.outcome,
            durationMs: event.durationMs,
            ...(event.replayed === true ? { replayed: true } : {}),
            ...(event.errorType === undefined ? {} : { errorType: event.errorType }),
            // Type, media type and size of each part; the bytes never go into a log line.
            ...(event.parts === undefined ? {} : { parts: event.parts }),
            ...(logContent ? { result: event.result } : {}),
          },
          `tool ${event.toolName} ended: ${event.outcome}`,
        );
        return;
      case 'limit-exceeded':
        logger.debug(
          {
            turnId,
            iteration: event.iteration,
            scope: event.scope,
            limit: event.limit,
            toolName: event.toolName,
          },
          event.scope === 'total'
            ? `total tool call limit reached (${event.limit})`
            : `tool call limit of ${event.toolName} reached (${event.limit})`,
        );
        return;
      case 'iteration-cap':
        logger.debug(
          { turnId, iteration: event.iteration, maxIterations: event.maxIterations },
          `iteration cap reached (${event.maxIterations})`,
        );
        return;
      case 'approval-pending':
        logger.debug(
          { turnId, iteration: event.iteration, toolCalls: event.toolCalls.map(callSummary) },
          `turn paused: ${event.toolCalls.length} tool calls wait for approval`,
        );
        return;
      case 'tool-search-fallback':
        logger.debug(
          {
            turnId,
            iteration: event.iteration,
            phase: event.phase,
            toolCallId: event.toolCallId,
            source: event.source,
            reason: event.reason,
            ...(event.error === undefined
              ? {}
              : {
                  // A provider's message may quote the request: content, as for model calls.
                  error: logContent
                    ? event.error
                    : { type: event.error.type, code: event.error.code },
                }),
          },
          `tool ${event.phase === 'index' ? 'indexing' : 'search'} went on without ${event.source}: ${event.reason}`,
        );
        return;
      case 'turn-finish':
        logger.debug(
          {
            turnId,
            durationMs: event.durationMs,
            finishReason: event.finishReason,
            usage: event.usage,
            ...(logContent && event.text != null ? { text: event.text } : {}),
          },
          `turn finished: ${event.finishReason ?? 'no finish reason'}`,
        );
        return;
      case 'turn-error':
        // The message may be a tool's own (its arguments, context values) or a provider's (which
        // may quote the request): content, as for model calls and tool results.
        logger.debug(
          {
            turnId,
            durationMs: event.durationMs,
            error: logContent
              ? event.error
              : {
                  type: event.error.type,
                  ...(event.error.code === undefined ? {} : { code: event.error.code }),
                },
          },
          `turn failed: ${event.error.code ?? event.error.type}`,
        );
        return;
      default:
        return;
    }
  };
}

/**
 * Whether the environment asks for toolloop's debug log: `TOOLLOOP_DEBUG` set to anything but
 * `0`/`false`/empty, or `DEBUG` naming `toolloop` (comma or space separated, `*` and `toolloop*`
 * patterns as the `debug` package reads them; `-toolloop` excludes). `TOOLLOOP_DEBUG=content` also
 * asks for content (arguments, results, answer).
 */
export function debugLoggingFromEnvironment(
  environment: Record<string, string | undefined> = typeof process === 'undefined'
    ? {}
    : process.env,
): { enabled: boolean; logContent: boolean } {
  const own = environment.TOOLLOOP_DEBUG?.trim().toLowerCase();
  if (own !== undefined && own !== '' && own !== '0' && own !== 'false')
    return { enabled: true, logContent: own === 'content' };
  const patterns = (environment.DEBUG ?? '').split(/[\s,]+/).filter(Boolean);
  const matches = (pattern: string) =>
    new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(
      'toolloop',
    );
  const excluded = patterns.some((pattern) => pattern.startsWith('-') && matches(pattern.slice(1)));
  const included = patterns.some((pattern) => !pattern.startsWith('-') && matches(pattern));
  return { enabled: included && !excluded, logContent: false };
}

/**
 * The debug log listener the environment asks for (see {@link debugLoggingFromEnvironment}), or
 * `undefined` when it asks for none.
 */
export function environmentDebugLogListener(
  environment?: Record<string, string | undefined>,
  logger?: DebugLogger,
): TurnEventListener | undefined {
  const { enabled, logContent } =
    environment === undefined ? processDebugLogging() : debugLoggingFromEnvironment(environment);
  return enabled ? debugLogListener({ logger, logContent }) : undefined;
}

let seenOwn: string | undefined;
let seenDebug: string | undefined;
let seenDecision: { enabled: boolean; logContent: boolean } | undefined;

/**
 * {@link debugLoggingFromEnvironment} for `process.env`, read on every turn (the variables may
 * change while the process runs) but decided again only when they changed: the decision splits and
 * matches `DEBUG`, which allocated 0.3 KB per turn (bench/allocation-profile.ts).
 */
function processDebugLogging(): { enabled: boolean; logContent: boolean } {
  if (typeof process === 'undefined') return debugLoggingFromEnvironment({});
  const own = process.env.TOOLLOOP_DEBUG;
  const debug = process.env.DEBUG;
  if (seenDecision === undefined || own !== seenOwn || debug !== seenDebug) {
    seenDecision = debugLoggingFromEnvironment({ TOOLLOOP_DEBUG: own, DEBUG: debug });
    seenOwn = own;
    seenDebug = debug;
  }
  return seenDecision;
}
