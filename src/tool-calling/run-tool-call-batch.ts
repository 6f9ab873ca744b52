import { AbortError, isAbortError, ToolExecutionError, ToolloopError } from '../errors/index.js';
import type { Message, ToolCall, ToolResponse } from '../messages/index.js';
import type { ToolCallback, ToolContext } from '../tools/tool-callback.js';
import type { ToolCallObserver, ToolCallOutcome } from './tool-call-observer.js';
import {
  errorTypeName,
  type ToolExecutionExceptionProcessor,
} from './tool-execution-exception-processor.js';

/** One call that passed every check and may run. */
export interface PlannedToolCall {
  /** Position of the call in its batch; its response goes to the same position. */
  readonly index: number;
  readonly call: ToolCall;
  readonly callback: ToolCallback;
  /** The argument text handed to the tool (`'{}'` for empty arguments). */
  readonly input: string;
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
}

/**
 * Runs the planned calls of one batch: concurrently up to `maxConcurrency`, started in call order,
 * a `sequential` call alone; each call's timeout aborts its signal and answers with a timeout
 * error. Resolves to the batch's `returnDirect` flag (true only when every executed call is
 * `returnDirect`). Rejects with an `AbortError` as soon as the caller aborts (queued calls never
 * start, running calls see their signal aborted), or with the first error that must end the
 * request (a processor rethrow, an abort error thrown by a tool); the other calls are aborted then.
 */
export function runToolCallBatch(
  plans: readonly PlannedToolCall[],
  settings: ToolCallBatchSettings,
): Promise<boolean> {
  return new ToolCallBatch(plans, settings).run();
}

type CallOutcome =
  | { kind: 'value'; value: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

const ABORTED: CallOutcome = { kind: 'aborted' };
const TIMED_OUT: CallOutcome = { kind: 'timeout' };

class ToolCallBatch {
  readonly #plans: readonly PlannedToolCall[];
  readonly #settings: ToolCallBatchSettings;
  readonly #controller = new AbortController();
  #next = 0;
  #running = 0;
  #sequentialRunning = false;
  #settled = false;
  #executed = 0;
  #allReturnDirect = true;
  #resolve: (returnDirect: boolean) => void = noop;
  #reject: (error: unknown) => void = noop;

  constructor(plans: readonly PlannedToolCall[], settings: ToolCallBatchSettings) {
    this.#plans = plans;
    this.#settings = settings;
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
        signal.addEventListener('abort', this.#onCallerAbort, { once: true });
      }
      this.#pump();
    });
  }

  readonly #onCallerAbort = (): void => {
    this.#fail(new AbortError(undefined, { cause: this.#settings.signal?.reason }));
  };

  #fail(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#settings.signal?.removeEventListener('abort', this.#onCallerAbort);
    this.#controller.abort(error);
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
      void this.#execute(plan);
    }
    if (!this.#settled && this.#running === 0 && this.#next >= plans.length) {
      this.#settled = true;
      this.#settings.signal?.removeEventListener('abort', this.#onCallerAbort);
      this.#resolve(this.#executed > 0 && this.#allReturnDirect);
    }
  }

  async #execute(plan: PlannedToolCall): Promise<void> {
    try {
      await this.#invoke(plan);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#running--;
    if (plan.sequential) this.#sequentialRunning = false;
    this.#pump();
  }

  async #invoke(plan: PlannedToolCall): Promise<void> {
    const { call, callback } = plan;
    const observer = this.#settings.observer;
    const content = observer?.includeContent === true;
    const started = observer === undefined ? 0 : performance.now();
    observer?.onToolCallStart?.({
      toolName: call.name,
      toolCallId: call.id,
      definition: callback.definition,
      ...(content ? { arguments: plan.input } : {}),
    });

    const callController = plan.timeoutMs === undefined ? undefined : new AbortController();
    const toolContext: ToolContext = {
      context: this.#settings.context,
      toolCallId: call.id,
      messages: this.#settings.messages,
      signal: callController?.signal ?? this.#controller.signal,
    };
    let outcome: CallOutcome;
    if (callController === undefined) {
      try {
        outcome = { kind: 'value', value: await callback.call(plan.input, toolContext) };
      } catch (error) {
        outcome = { kind: 'error', error };
      }
    } else {
      let promise: Promise<string>;
      try {
        promise = Promise.resolve(callback.call(plan.input, toolContext));
      } catch (error) {
        promise = Promise.reject(error);
      }
      outcome = await settleWithin(
        promise,
        plan.timeoutMs as number,
        callController,
        this.#controller,
      );
    }

    let result: string | undefined;
    let kind: ToolCallOutcome;
    let error: unknown;
    let failure: unknown;
    let failed = false;
    let executed = true;
    if (this.#settled || outcome.kind === 'aborted') {
      kind = 'aborted';
    } else if (outcome.kind === 'value') {
      kind = 'success';
      result = toResponseText(outcome.value);
    } else if (outcome.kind === 'timeout') {
      kind = 'timeout';
      result = `Tool '${call.name}' timed out after ${plan.timeoutMs} ms`;
    } else {
      error = outcome.error;
      if (isAbortError(error)) {
        kind = 'failed';
        failed = true;
        failure = error;
      } else if (isToolloopErrorWithCode(error, 'TOOL_INPUT_INVALID')) {
        kind = 'invalid-input';
        executed = false;
        result = (error as Error).message;
      } else {
        const toolError = isToolloopErrorWithCode(error, 'TOOL_EXECUTION_FAILED')
          ? (error as ToolExecutionError)
          : new ToolExecutionError({ toolName: call.name, toolCallId: call.id, cause: error });
        try {
          // A custom processor written in plain JS may return a non-string.
          result = toResponseText(this.#settings.processor(toolError));
          kind = 'tool-error';
        } catch (thrown) {
          kind = 'failed';
          failed = true;
          failure = thrown;
        }
      }
    }

    if (observer?.onToolCallEnd !== undefined) {
      observer.onToolCallEnd({
        toolName: call.name,
        toolCallId: call.id,
        definition: callback.definition,
        durationMs: performance.now() - started,
        outcome: kind,
        isError: kind !== 'success',
        ...(error !== undefined ? { errorType: errorTypeName(error) } : {}),
        ...(content ? { arguments: plan.input } : {}),
        ...(content && result !== undefined ? { result } : {}),
      });
    }
    if (failed) throw failure;
    if (this.#settled || result === undefined) return;

    const isError = kind !== 'success';
    this.#settings.responses[plan.index] = isError
      ? { id: call.id, name: call.name, responseData: result, isError: true }
      : { id: call.id, name: call.name, responseData: result };
    if (executed) {
      this.#executed++;
      if (callback.metadata.returnDirect !== true) this.#allReturnDirect = false;
    }
  }
}

function noop(): void {}

function isToolloopErrorWithCode(error: unknown, code: string): boolean {
  return ToolloopError.isInstance(error) && error.code === code;
}

function toResponseText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

/**
 * Waits for the tool, its timeout or the batch's abort, whichever comes first; a timeout aborts
 * the call's signal. A tool that ignores its signal is left behind, its late result discarded.
 */
function settleWithin(
  promise: Promise<unknown>,
  timeoutMs: number,
  callController: AbortController,
  batchController: AbortController,
): Promise<CallOutcome> {
  return new Promise<CallOutcome>((resolve) => {
    const batchSignal = batchController.signal;
    const onBatchAbort = (): void => {
      clearTimeout(timer);
      callController.abort(batchSignal.reason);
      resolve(ABORTED);
    };
    const timer = setTimeout(() => {
      batchSignal.removeEventListener('abort', onBatchAbort);
      resolve(TIMED_OUT);
      callController.abort(new AbortError(`The tool call timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    batchSignal.addEventListener('abort', onBatchAbort, { once: true });
    promise.then(
      (value) => {
        clearTimeout(timer);
        batchSignal.removeEventListener('abort', onBatchAbort);
        resolve({ kind: 'value', value });
      },
      (error: unknown) => {
        clearTimeout(timer);
        batchSignal.removeEventListener('abort', onBatchAbort);
        resolve({ kind: 'error', error });
      },
    );
  });
}
