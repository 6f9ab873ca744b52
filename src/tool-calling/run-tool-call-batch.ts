import { AbortError, ToolExecutionError, ToolloopError } from '../errors/index.js';
import { keepInstanceShape } from '../internal/keep-instance-shape.js';
import { LongTimeout } from '../internal/long-timeout.js';
import {
  type Message,
  summarizeToolResultParts,
  type ToolCall,
  type ToolResponse,
} from '../messages/index.js';
import type { ToolResultOutcome } from '../observability/turn-event.js';
import type { TurnEventEmitter } from '../observability/turn-event-emitter.js';
import {
  type DeferredSignalOwner,
  DeferredSignalToolContext,
} from '../tools/deferred-tool-signal.js';
import { describeValueType } from '../tools/describe-value-type.js';
import type { ToolCallback, ToolCallOptions, ToolContext } from '../tools/tool-callback.js';
import { executeOf } from '../tools/tool-execute.js';
import type { ToolResult } from '../tools/tool-result.js';
import { VOID_RESULT_TEXT } from '../tools/tool-result-converter.js';
import { capToolResultText } from './cap-tool-result-text.js';
import { richToolResponse } from './rich-tool-response.js';
import { emitToolExecutionStart, emitToolProgress, emitToolResult } from './tool-batch-events.js';
import type { ToolCallObserver, ToolCallOutcome } from './tool-call-observer.js';
import {
  createDefaultToolExecutionExceptionProcessor,
  errorTypeName,
  type ToolExecutionExceptionProcessor,
} from './tool-execution-exception-processor.js';

/** The text of a failure whose processor returned none: the default processor's (never throws). */
const DEFAULT_ERROR_TEXT = createDefaultToolExecutionExceptionProcessor();

/** One call that passed every check and may run. */
export interface PlannedToolCall {
  /** Position of the call in its batch; its response goes to the same position. */
  readonly index: number;
  readonly call: ToolCall;
  readonly callback: ToolCallback;
  /** The argument text handed to a callback's `call` (`'{}'` for empty arguments). */
  readonly input: string;
  /** The arguments parsed and checked against the definition: what `execute` receives. */
  readonly arguments: Record<string, unknown>;
  /** What the callback is called with besides the text: the arguments parsed and validated. */
  readonly callOptions: ToolCallOptions;
  readonly timeoutMs: number | undefined;
  readonly sequential: boolean;
}

/** Everything {@link runToolCallBatch} needs besides the calls. */
export interface ToolCallBatchSettings {
  /** Receives one response per planned call, at the call's index. */
  readonly responses: ToolResponse[];
  /** The frozen copy of the caller's tool context shared by the batch. */
  readonly context: Readonly<Record<string, unknown>>;
  /** The prompt's messages + the assistant message. */
  readonly messages: readonly Message[];
  readonly signal: AbortSignal | undefined;
  readonly maxConcurrency: number;
  readonly processor: ToolExecutionExceptionProcessor;
  readonly observer: ToolCallObserver | undefined;
  /** Largest result or error text handed to the model, in UTF-8 bytes (see `capToolResultText`). */
  readonly maxResultBytes: number;
  /** Largest sum of inline media bytes of one result (see `richToolResponse`). */
  readonly maxResultMediaBytes: number;
  /** Receives each executed call's start, progress and result; `undefined` when nobody listens. */
  readonly events?: TurnEventEmitter | undefined;
  /** The loop round of the batch, stamped on its events. */
  readonly iteration?: number;
}

/**
 * Runs the planned calls of one batch: concurrently up to `maxConcurrency`, started in call order,
 * a `sequential` call alone; each call's timeout aborts its signal and answers with a timeout
 * error. Resolves to whether every planned call succeeded with a `returnDirect` tool (a call
 * answered with an error result of any kind, a timeout included, never counts). Rejects with an `AbortError` as soon as the caller aborts (queued calls never
 * start, running calls see their signal aborted), or with the first error that must end the
 * request (a processor rethrow); the other calls are aborted then. An abort error a tool throws
 * while the caller's signal is not aborted is the tool's own (a sub-request it cancelled): a tool
 * error for the exception processor like any other.
 *
 * Signals: calls with a timeout get their own; the other calls of a multi-call batch share one
 * that the batch aborts; a lone call without a timeout gets the caller's signal as it is
 * (`undefined` when the caller gave none, since nothing could abort it).
 */
export function runToolCallBatch(
  plans: readonly PlannedToolCall[],
  settings: ToolCallBatchSettings,
): Promise<boolean> {
  return new ToolCallBatch(plans, settings).run();
}

export type CallOutcome =
  | { kind: 'value'; value: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

const ABORTED: CallOutcome = { kind: 'aborted' };
const TIMED_OUT: CallOutcome = { kind: 'timeout' };

// Creating an AbortSignal costs Node 20 several µs and slows every later garbage collection, more
// than everything else a tool call does, so a batch creates at most one, and none when a single
// call runs without a timeout: nothing but the caller can abort such a call, so it gets the
// caller's signal (or none). The signal the other calls share is created when a tool first reads
// it, or when the batch fails (see DeferredSignalToolContext).
class ToolCallBatch implements DeferredSignalOwner {
  readonly #plans: readonly PlannedToolCall[];
  readonly #settings: ToolCallBatchSettings;
  /** Whether the calls without a timeout share a signal of the batch. */
  readonly #shared: boolean;
  #controller: AbortController | undefined;
  /** Why the batch failed, once it has: the shared signal's abort reason. */
  #failure: { reason: unknown } | undefined;
  /** Calls with a timeout that are running; created by the first one (most batches have none). */
  #timedCalls: Set<TimedCall> | undefined;
  #next = 0;
  #running = 0;
  #sequentialRunning = false;
  #settled = false;
  /** Calls that succeeded with a `returnDirect` tool. */
  #directSuccesses = 0;
  #resolve: (returnDirect: boolean) => void = noop;
  #reject: (error: unknown) => void = noop;

  constructor(plans: readonly PlannedToolCall[], settings: ToolCallBatchSettings) {
    this.#plans = plans;
    this.#settings = settings;
    this.#shared = plans.length > 1;
  }

  /** The batch's shared signal, created now if need be; aborted already when the batch failed. */
  signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#failure !== undefined) this.#controller.abort(this.#failure.reason);
    }
    return this.#controller.signal;
  }

  /** The shared signal if it exists or the batch has failed; else `undefined` (not aborted). */
  peekSignal(): AbortSignal | undefined {
    return this.#controller !== undefined || this.#failure !== undefined
      ? this.signal()
      : undefined;
  }

  /** The context of a call without a timeout. */
  #toolContext(call: ToolCall): ToolContext {
    const settings = this.#settings;
    if (!this.#shared) {
      return {
        context: settings.context,
        toolCallId: call.id,
        rawArguments: call.arguments,
        messages: settings.messages,
        signal: settings.signal,
      };
    }
    return sharedSignalContext(settings.context, call, settings.messages, this);
  }

  run(): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
      const signal = this.#settings.signal;
      if (signal !== undefined) {
        if (signal.aborted) {
          this.#fail(new AbortError(undefined, { cause: signal.reason }));
          return;
        }
        this.#onCallerAbort = () => {
          this.#fail(new AbortError(undefined, { cause: signal.reason }));
        };
        signal.addEventListener('abort', this.#onCallerAbort, { once: true });
      }
      this.#pump();
    });
  }

  /** Fails the batch when the caller aborts; made only when the caller gave a signal. */
  #onCallerAbort: (() => void) | undefined;

  #removeAbortListener(): void {
    if (this.#onCallerAbort !== undefined) {
      this.#settings.signal?.removeEventListener('abort', this.#onCallerAbort);
    }
  }

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#removeAbortListener();
    this.#failure = { reason: error };
    this.#controller?.abort(error);
    if (this.#timedCalls !== undefined) {
      for (const timed of this.#timedCalls) timed.cancel(error);
      this.#timedCalls.clear();
    }
    this.#reject(error);
  }

  #pump(): void {
    const plans = this.#plans;
    const max = this.#settings.maxConcurrency;
    while (!this.#settled && this.#next < plans.length && !this.#sequentialRunning) {
      const plan = plans[this.#next] as PlannedToolCall;
      if (plan.sequential ? this.#running > 0 : this.#running >= max) break;
      this.#next++;
      this.#running++;
      if (plan.sequential) this.#sequentialRunning = true;
      this.#execute(plan);
    }
    if (!this.#settled && this.#running === 0 && this.#next >= plans.length) {
      this.#settled = true;
      this.#removeAbortListener();
      this.#resolve(this.#directSuccesses === plans.length);
    }
  }

  /**
   * Starts one planned call; when it settles, {@link ToolCallBatch.#complete} writes its response
   * and starts the next queued calls. A call without a timeout or an observer (the common case)
   * is a `then` on the tool's promise rather than an async function: an async function holding
   * this method's locals allocates a large frame per call; with the two `then` callbacks instead,
   * a loop-overhead conversation (3 calls) allocates 1.2 KB less (measured with
   * bench/allocation-profile.ts).
   */
  #execute(plan: PlannedToolCall): void {
    const settings = this.#settings;
    if (
      plan.timeoutMs !== undefined ||
      settings.observer !== undefined ||
      settings.events !== undefined
    ) {
      void this.#executeWatched(plan);
      return;
    }
    let promise: Promise<unknown>;
    try {
      promise = Promise.resolve(callTool(plan, this.#toolContext(plan.call), plan.callOptions));
    } catch (error) {
      promise = Promise.reject(error);
    }
    // A bound method rather than an arrow made per call: V8 keeps the optimized code of such an
    // arrow only while one lives, so every full GC between batches threw it away (recompiled on
    // the next batches, measured with `node --trace-opt`); the method lives as long as the class.
    promise.then(this.#completeWithValue.bind(this, plan), (error: unknown) =>
      this.#complete(plan, 'error', undefined, error, 0),
    );
  }

  #completeWithValue(plan: PlannedToolCall, value: unknown): void {
    this.#complete(plan, 'value', value, undefined, 0);
  }

  /** {@link ToolCallBatch.#execute} for a call with a timeout, an observer or event listeners. */
  async #executeWatched(plan: PlannedToolCall): Promise<void> {
    const { call, callback } = plan;
    const settings = this.#settings;
    const observer = settings.observer;
    const events = settings.events;
    const started = observer === undefined && events === undefined ? 0 : performance.now();
    let callOptions = plan.callOptions;
    try {
      if (events !== undefined) {
        const iteration = settings.iteration ?? 1;
        emitToolExecutionStart(events, iteration, call);
        callOptions = {
          ...callOptions,
          onProgress: (value) => {
            if (!this.#settled) emitToolProgress(events, iteration, call, value);
          },
        };
      }
      observer?.onToolCallStart?.({
        toolName: call.name,
        toolCallId: call.id,
        definition: callback.definition,
        ...(observer.includeContent === true ? { arguments: plan.input } : {}),
      });
    } catch (error) {
      this.#fail(error);
      return;
    }
    if (plan.timeoutMs === undefined) {
      let value: unknown;
      try {
        value = await callTool(plan, this.#toolContext(call), callOptions);
      } catch (error) {
        this.#complete(plan, 'error', undefined, error, started);
        return;
      }
      this.#complete(plan, 'value', value, undefined, started);
      return;
    }
    const timed = new TimedCall(plan.timeoutMs);
    const toolContext: ToolContext = {
      context: settings.context,
      toolCallId: call.id,
      rawArguments: call.arguments,
      messages: settings.messages,
      signal: timed.controller.signal,
    };
    this.#timedCalls ??= new Set();
    this.#timedCalls.add(timed);
    let promise: Promise<string | ToolResult>;
    try {
      promise = Promise.resolve(callTool(plan, toolContext, callOptions));
    } catch (error) {
      promise = Promise.reject(error);
    }
    const outcome = await timed.settle(promise);
    this.#timedCalls.delete(timed);
    this.#complete(
      plan,
      outcome.kind,
      outcome.kind === 'value' ? outcome.value : undefined,
      outcome.kind === 'error' ? outcome.error : undefined,
      started,
    );
  }

  /**
   * A call has settled: turns its outcome into its response (or ends the batch when the exception
   * processor or the observer throws), then starts the next queued calls. `error` is what the
   * tool threw for `'error'`.
   */
  #complete(
    plan: PlannedToolCall,
    outcome: CallOutcome['kind'],
    value: unknown,
    error: unknown,
    started: number,
  ): void {
    const { call, callback } = plan;
    const settings = this.#settings;
    if (this.#settled || outcome === 'aborted') {
      SETTLEMENT.kind = 'aborted';
      SETTLEMENT.result = undefined;
      SETTLEMENT.error = error;
      SETTLEMENT.failure = undefined;
      SETTLEMENT.response = undefined;
    } else {
      settleToolCall(SETTLEMENT, plan, outcome, value, error, settings);
    }
    // Read at once: the shared settlement is written again by the next call that settles.
    const kind = SETTLEMENT.kind;
    const result = SETTLEMENT.result;
    const response = SETTLEMENT.response;
    const errorType = SETTLEMENT.error === undefined ? undefined : errorTypeName(SETTLEMENT.error);
    let failure = SETTLEMENT.failure;
    let failed = kind === 'failed';
    const thrown = reportToolCallEnd(
      settings,
      plan,
      kind,
      result,
      errorType,
      failure,
      started,
      response,
    );
    if (thrown !== NOTHING_THROWN) {
      failed = true;
      failure = thrown.error;
    }
    if (failed) {
      this.#fail(failure);
      return;
    }
    if (!this.#settled && result !== undefined) {
      const isError = kind !== 'success';
      settings.responses[plan.index] = isError
        ? { id: call.id, name: call.name, responseData: result, isError: true }
        : (response ?? { id: call.id, name: call.name, responseData: result });
      if (!isError && callback.metadata.returnDirect === true) this.#directSuccesses++;
    }
    this.#running--;
    if (plan.sequential) this.#sequentialRunning = false;
    this.#pump();
  }
}

/** How an executed call settled (see {@link settleToolCall}). */
export interface ToolCallSettlement {
  kind: ToolCallOutcome;
  /** The text the model receives; `undefined` when the call ends the request (`'failed'`). */
  result: string | undefined;
  /** What the tool threw (or the error of a broken contract), for the error type. */
  error: unknown;
  /** For `'failed'`: what ends the request (what the exception processor threw). */
  failure: unknown;
  /** For a success with content parts or structured content: the whole response. */
  response: ToolResponse | undefined;
}

/** Written by every settling call of every batch, and read right after: nothing is allocated. */
const SETTLEMENT: ToolCallSettlement = {
  kind: 'success',
  result: undefined,
  error: undefined,
  failure: undefined,
  response: undefined,
};

/**
 * Turns what an executed call settled with (a value, a thrown error, a timeout) into what the
 * model receives, written into `into`: the result text, or the error text made by the exception
 * processor (its rethrow makes the outcome `'failed'`), capped to `maxResultBytes`.
 */
export function settleToolCall(
  into: ToolCallSettlement,
  plan: PlannedToolCall,
  outcome: 'value' | 'error' | 'timeout',
  value: unknown,
  error: unknown,
  settings: Pick<ToolCallBatchSettings, 'processor' | 'maxResultBytes' | 'maxResultMediaBytes'>,
): void {
  const call = plan.call;
  into.failure = undefined;
  into.response = undefined;
  if (outcome === 'timeout') {
    into.kind = 'timeout';
    into.result = `Tool '${call.name}' timed out after ${plan.timeoutMs} ms`;
    into.error = undefined;
    return;
  }
  let result: string | undefined;
  if (outcome === 'value') {
    if (typeof value === 'string') result = value;
    else if (value === undefined) result = VOID_RESULT_TEXT;
    else if (isResultShaped(value)) {
      const checked = richToolResponse(call, value, settings);
      if ('response' in checked) {
        into.response = checked.response;
        result = checked.response.responseData;
      } else {
        error = new ToolExecutionError({
          toolName: call.name,
          toolCallId: call.id,
          message: checked.problem,
        });
      }
    } else {
      // A callback written in plain JavaScript broke its contract: a failure of the tool.
      error = new ToolExecutionError({
        toolName: call.name,
        toolCallId: call.id,
        message: `Tool '${call.name}' returned ${describeValueType(value)} instead of text: a ToolCallback resolves to a string or a ToolResult.`,
      });
    }
  }
  into.error = error;
  // Otherwise `error` holds what the tool threw. The caller's abort has settled the batch already
  // (its listener runs as the signal fires), and a timeout settles its call first: an abort error
  // seen here is the tool's own.
  if (result !== undefined) {
    into.kind = 'success';
  } else if (isToolloopErrorWithCode(error, 'TOOL_INPUT_INVALID')) {
    into.kind = 'invalid-input';
    result = (error as Error).message;
  } else {
    const toolError = isToolloopErrorWithCode(error, 'TOOL_EXECUTION_FAILED')
      ? (error as ToolExecutionError)
      : new ToolExecutionError({ toolName: call.name, toolCallId: call.id, cause: error });
    try {
      const processed: unknown = settings.processor(toolError);
      // A custom processor written in plain JavaScript may return no text.
      result = typeof processed === 'string' ? processed : DEFAULT_ERROR_TEXT(toolError);
      into.kind = 'tool-error';
    } catch (thrown) {
      into.kind = 'failed';
      into.failure = thrown;
    }
  }
  // A rich response's text was capped part by part already.
  into.result =
    result === undefined || into.response !== undefined
      ? result
      : capToolResultText(result, settings.maxResultBytes);
}

/** What {@link reportToolCallEnd} returns when the observer did not throw. */
export const NOTHING_THROWN: unique symbol = Symbol('toolloop.nothingThrown');

/**
 * Tells the observer and the turn's listeners how an executed call ended. Returns what the
 * observer threw (it fails the batch), or {@link NOTHING_THROWN}.
 */
export function reportToolCallEnd(
  settings: ToolCallBatchSettings,
  plan: PlannedToolCall,
  kind: ToolCallOutcome,
  result: string | undefined,
  errorType: string | undefined,
  failure: unknown,
  started: number,
  response?: ToolResponse,
  replayed = false,
): { error: unknown } | typeof NOTHING_THROWN {
  const { call, callback } = plan;
  let thrown: { error: unknown } | typeof NOTHING_THROWN = NOTHING_THROWN;
  const observer = settings.observer;
  if (observer?.onToolCallEnd !== undefined) {
    const content = observer.includeContent === true;
    try {
      observer.onToolCallEnd({
        toolName: call.name,
        toolCallId: call.id,
        definition: callback.definition,
        durationMs: performance.now() - started,
        outcome: kind,
        isError: kind !== 'success',
        ...(errorType !== undefined ? { errorType } : {}),
        ...(content ? { arguments: plan.input } : {}),
        ...(content && result !== undefined ? { result } : {}),
        ...(response?.content === undefined
          ? {}
          : { parts: summarizeToolResultParts(response.content) }),
      });
    } catch (error) {
      thrown = { error };
    }
  }
  const events = settings.events;
  if (events !== undefined) {
    const failed = kind === 'failed' || thrown !== NOTHING_THROWN;
    const failedWith = thrown === NOTHING_THROWN ? failure : thrown.error;
    emitToolResult(
      events,
      settings.iteration ?? 1,
      call,
      RESULT_OUTCOMES[kind],
      result === undefined
        ? { responseData: failureText(kind, failedWith), isError: true }
        : (response ?? { responseData: result, isError: kind !== 'success' }),
      performance.now() - started,
      errorType ?? (failed ? errorTypeName(failedWith) : undefined),
      replayed,
    );
  }
  return thrown;
}

function noop(): void {}

/** The context of a call that shares the batch's signal, made only when a tool reads it. */
function sharedSignalContext(
  context: ToolContext['context'],
  call: ToolCall,
  messages: ToolContext['messages'],
  batch: ToolCallBatch,
): ToolContext {
  return new DeferredSignalToolContext(context, call.id, call.arguments, messages, batch);
}

const batchSample = keepInstanceShape(new ToolCallBatch([], {} as ToolCallBatchSettings));
// The context's accessor is added with `defineProperty`: only a live context keeps the hidden
// classes that makes, so without this one every full GC deoptimized the tool callbacks.
keepInstanceShape(sharedSignalContext({}, { id: '', name: '', arguments: '' }, [], batchSample));

/** How each way an executed call ends is reported in a `tool-result` event. */
const RESULT_OUTCOMES: Readonly<Record<ToolCallOutcome, ToolResultOutcome>> = {
  success: 'ok',
  'tool-error': 'error',
  'invalid-input': 'not-executed',
  timeout: 'timeout',
  aborted: 'not-executed',
  failed: 'error',
};

/** The result text of an event for a call whose batch ended without an answer for it. */
function failureText(kind: ToolCallOutcome, failure: unknown): string {
  if (kind === 'aborted') return 'Tool call not executed: the batch was aborted.';
  return failure instanceof Error ? failure.message : String(failure);
}

/**
 * Runs the planned call: `execute` with the parsed arguments when the callback has one that
 * belongs with its `call` (see `executeOf`), else `call` with the text.
 */
export function callTool(
  plan: PlannedToolCall,
  context: ToolContext,
  options: ToolCallOptions,
): Promise<string | ToolResult> {
  const callback = plan.callback;
  const execute = executeOf(callback);
  if (execute !== undefined) return execute.call(callback, plan.arguments, context, options);
  return callback.call(plan.input, context, options);
}

/** An object with a text: a `ToolResult`, to be checked part by part. */
function isResultShaped(value: unknown): value is { text: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { text?: unknown }).text === 'string'
  );
}

function isToolloopErrorWithCode(error: unknown, code: string): boolean {
  return ToolloopError.isInstance(error) && error.code === code;
}

/**
 * A call with a timeout: waits for the tool, its timeout or the batch's failure, whichever comes
 * first; the timeout aborts the call's signal. A tool that ignores its signal is left behind and
 * its late result discarded.
 */
export class TimedCall {
  readonly controller = new AbortController();
  readonly #timeoutMs: number;
  #timer: LongTimeout | undefined;
  #resolve: (outcome: CallOutcome) => void = noop;
  #done = false;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  settle(promise: Promise<unknown>): Promise<CallOutcome> {
    return new Promise<CallOutcome>((resolve) => {
      this.#resolve = resolve;
      this.#timer = new LongTimeout(this.#onTimeout, this.#timeoutMs);
      promise.then(this.#onValue, this.#onError);
    });
  }

  /** Ends the wait because the batch failed, and aborts the call's signal with the same reason. */
  cancel(reason: unknown): void {
    this.#finish(ABORTED);
    this.controller.abort(reason);
  }

  readonly #onTimeout = (): void => {
    this.#finish(TIMED_OUT);
    this.controller.abort(new AbortError(`The tool call timed out after ${this.#timeoutMs} ms`));
  };

  readonly #onValue = (value: unknown): void => {
    this.#finish({ kind: 'value', value });
  };

  readonly #onError = (error: unknown): void => {
    this.#finish({ kind: 'error', error });
  };

  #finish(outcome: CallOutcome): void {
    if (this.#done) return;
    this.#done = true;
    this.#timer?.clear();
    this.#resolve(outcome);
  }
}
