import type {
  DurableSteps,
  DurableToolCallOutcome,
  DurableToolCallStep,
} from '../advisors/index.js';
import type { ToolResponse } from '../messages/index.js';
import type { ToolCallOptions, ToolContext } from '../tools/tool-callback.js';
import type { ToolResult } from '../tools/tool-result.js';
import {
  type CallOutcome,
  callTool,
  NOTHING_THROWN,
  type PlannedToolCall,
  reportToolCallEnd,
  settleToolCall,
  TimedCall,
  type ToolCallBatchSettings,
  type ToolCallSettlement,
} from './run-tool-call-batch.js';
import { emitToolExecutionStart, emitToolProgress } from './tool-batch-events.js';
import { errorTypeName } from './tool-execution-exception-processor.js';

/**
 * {@link runToolCallBatch} for a durable turn: every planned call runs as a step of `durable`.
 *
 * The steps of all calls are started at once, in call order, so their order in the turn is the
 * same on every run of it; the calls themselves still run at most `maxConcurrency` at a time (a
 * `sequential` call alone), as a step waits for its turn before it calls the tool. A step records
 * what the model receives (the result, or the error text made by the exception processor, or the
 * timeout text), so a replay answers exactly as the first run did. A call whose earlier run never
 * recorded its outcome (only a call of a tool that is neither `idempotent` nor `readOnly` is
 * reported so) is resolved once every call of the batch has settled, one after another in call
 * order: by the engine's policy, with an answer or by running it again. Resolves to whether every
 * call succeeded with a `returnDirect` tool; rejects with the first error that ends the request.
 */
export async function runDurableToolCallBatch(
  plans: readonly PlannedToolCall[],
  settings: ToolCallBatchSettings,
  durable: DurableSteps,
): Promise<boolean> {
  const round = settings.iteration ?? 1;
  const permits = new CallPermits(settings.maxConcurrency);
  const started = performance.now();
  const events = settings.events;
  // The calls answered in this run of the turn (their tool ran, or their unknown outcome was
  // resolved); the others answer from their checkpoints.
  const answeredNow = new Set<PlannedToolCall>();
  const run = (plan: PlannedToolCall, step: DurableToolCallStep) =>
    durable.runToolCall(step, (idempotencyKey) => {
      answeredNow.add(plan);
      return permits.run(plan.sequential, () => executeForStep(plan, idempotencyKey, settings));
    });

  const first: Promise<DurableToolCallOutcome | undefined>[] = new Array(plans.length);
  for (let index = 0; index < plans.length; index++) {
    const plan = plans[index] as PlannedToolCall;
    if (events !== undefined) emitToolExecutionStart(events, round, plan.call);
    first[index] = run(plan, stepOf(plan, round, 1));
  }
  const settled = await Promise.allSettled(first);

  const outcomes: DurableToolCallOutcome[] = new Array(plans.length);
  for (let index = 0; index < plans.length; index++) {
    const result = settled[index] as PromiseSettledResult<DurableToolCallOutcome | undefined>;
    if (result.status === 'rejected') throw result.reason;
    const plan = plans[index] as PlannedToolCall;
    let outcome = result.value;
    let step = stepOf(plan, round, 1);
    while (outcome === undefined) {
      answeredNow.add(plan);
      const resolution = await durable.resolveUnknownOutcome(step);
      if (resolution !== 'retry') {
        outcome = resolution;
        break;
      }
      step = stepOf(plan, round, step.attempt + 1);
      outcome = await run(plan, step);
    }
    outcomes[index] = outcome;
  }

  let directSuccesses = 0;
  for (let index = 0; index < plans.length; index++) {
    const plan = plans[index] as PlannedToolCall;
    const { kind, text, errorType, content, structuredContent } = outcomes[
      index
    ] as DurableToolCallOutcome;
    const { call, callback } = plan;
    const isError = kind !== 'success';
    const response: ToolResponse = isError
      ? { id: call.id, name: call.name, responseData: text, isError: true }
      : { id: call.id, name: call.name, responseData: text };
    if (!isError && content !== undefined) response.content = content;
    if (!isError && structuredContent !== undefined) response.structuredContent = structuredContent;
    const thrown = reportToolCallEnd(
      settings,
      plan,
      kind,
      text,
      errorType,
      undefined,
      started,
      response,
      !answeredNow.has(plan),
    );
    if (thrown !== NOTHING_THROWN) throw thrown.error;
    settings.responses[plan.index] = response;
    if (!isError && callback.metadata.returnDirect === true) directSuccesses++;
  }
  return directSuccesses === plans.length;
}

function stepOf(plan: PlannedToolCall, round: number, attempt: number): DurableToolCallStep {
  const metadata = plan.callback.metadata;
  return {
    round,
    toolCallId: plan.call.id,
    toolName: plan.call.name,
    arguments: plan.input,
    idempotent: metadata?.idempotent === true || metadata?.readOnly === true,
    attempt,
  };
}

/**
 * Calls the tool (with its timeout) and settles what it did into the outcome the step records.
 * What the exception processor throws is thrown: it ends the request.
 */
async function executeForStep(
  plan: PlannedToolCall,
  idempotencyKey: string,
  settings: ToolCallBatchSettings,
): Promise<DurableToolCallOutcome> {
  const call = plan.call;
  const timed = plan.timeoutMs === undefined ? undefined : new TimedCall(plan.timeoutMs);
  const signal = timed === undefined ? settings.signal : timed.controller.signal;
  const context: ToolContext = {
    context: settings.context,
    toolCallId: call.id,
    rawArguments: call.arguments,
    messages: settings.messages,
    ...(signal === undefined ? {} : { signal }),
    idempotencyKey,
  };
  const events = settings.events;
  let options: ToolCallOptions = plan.callOptions;
  if (events !== undefined) {
    const iteration = settings.iteration ?? 1;
    options = {
      ...options,
      onProgress: (value) => emitToolProgress(events, iteration, call, value),
    };
  }
  let promise: Promise<string | ToolResult>;
  try {
    promise = Promise.resolve(callTool(plan, context, options));
  } catch (error) {
    promise = Promise.reject(error);
  }
  let outcome: CallOutcome;
  if (timed === undefined) {
    outcome = await promise.then(
      (value): CallOutcome => ({ kind: 'value', value }),
      (error: unknown): CallOutcome => ({ kind: 'error', error }),
    );
  } else {
    outcome = await timed.settle(promise);
  }
  const settlement: ToolCallSettlement = {
    kind: 'success',
    result: undefined,
    error: undefined,
    failure: undefined,
    response: undefined,
  };
  settleToolCall(
    settlement,
    plan,
    outcome.kind === 'aborted' ? 'timeout' : outcome.kind,
    outcome.kind === 'value' ? outcome.value : undefined,
    outcome.kind === 'error' ? outcome.error : undefined,
    settings,
  );
  if (settlement.kind === 'failed') throw settlement.failure;
  const error = settlement.error;
  const response = settlement.response;
  // A result's parts and structured content are recorded with its text: a replay answers with
  // the same image.
  return {
    kind: settlement.kind as DurableToolCallOutcome['kind'],
    text: settlement.result as string,
    ...(error === undefined ? {} : { errorType: errorTypeName(error) }),
    ...(response?.content === undefined ? {} : { content: response.content }),
    ...(response?.structuredContent === undefined
      ? {}
      : { structuredContent: response.structuredContent }),
  };
}

/**
 * Lets at most `max` calls run at once, and a `sequential` call only alone, in the order the
 * calls asked for their turn.
 */
class CallPermits {
  readonly #max: number;
  #running = 0;
  #exclusive = false;
  readonly #waiting: { sequential: boolean; start: () => void }[] = [];

  constructor(max: number) {
    this.#max = max;
  }

  async run<T>(sequential: boolean, task: () => Promise<T>): Promise<T> {
    if (!this.#mayStart(sequential) || this.#waiting.length > 0) {
      await new Promise<void>((start) => this.#waiting.push({ sequential, start }));
    } else {
      this.#take(sequential);
    }
    try {
      return await task();
    } finally {
      this.#running--;
      if (sequential) this.#exclusive = false;
      this.#startWaiting();
    }
  }

  #mayStart(sequential: boolean): boolean {
    return !this.#exclusive && (sequential ? this.#running === 0 : this.#running < this.#max);
  }

  #take(sequential: boolean): void {
    this.#running++;
    if (sequential) this.#exclusive = true;
  }

  #startWaiting(): void {
    for (;;) {
      const next = this.#waiting[0];
      if (next === undefined || !this.#mayStart(next.sequential)) return;
      this.#waiting.shift();
      this.#take(next.sequential);
      next.start();
    }
  }
}
