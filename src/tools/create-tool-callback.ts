import {
  AbortError,
  InvalidToolInputError,
  isAbortError,
  ToolExecutionError,
  ToolloopError,
} from '../errors/index.js';
import { peekToolSignal } from './deferred-tool-signal.js';
import { describeValueType } from './describe-value-type.js';
import { parseToolArguments } from './input/parse-tool-arguments.js';
import type { ToolInputValidation } from './schema/tool-input-schema.js';
import type { ToolCallback, ToolContext } from './tool-callback.js';
import type { PreparedTool } from './tool-options.js';

const EMPTY_TOOL_CONTEXT: ToolContext = Object.freeze({ context: Object.freeze({}) });

/**
 * Builds the {@link ToolCallback} of a prepared tool around the function that does the work.
 * `call` parses and validates the raw arguments first and never runs the tool on bad input
 * (`InvalidToolInputError` with JSON-pointer issues); what the tool throws comes back as a
 * `ToolExecutionError`, except an abort error while `context.signal` is aborted, which passes
 * through untouched. A tool whose `context.signal` is already aborted is not started (an
 * `AbortError` is thrown).
 */
export function createToolCallback(
  tool: PreparedTool,
  invoke: (input: unknown, context: ToolContext) => unknown,
): ToolCallback {
  const { definition, metadata, inputSchema, resultConverter } = tool;
  const toolName = definition.name;
  // Validation is synchronous for the common schemas, so `callParsed` waits only for a promise and
  // `run` is the one async function per call: 2.1 KB less allocated per loop-overhead
  // conversation (3 calls) than awaiting a ready value in nested async functions, measured with
  // bench/allocation-profile.ts. (Converting the result in a `then` instead of in `run` saved
  // another 0.5–0.7 KB, under 4%: not done.)
  function callParsed(
    value: Record<string, unknown>,
    context: ToolContext | undefined,
  ): Promise<string> {
    let checked: ToolInputValidation | PromiseLike<ToolInputValidation>;
    try {
      checked = inputSchema.validate(value);
    } catch (error) {
      return Promise.reject(asToolExecutionError(toolName, error, peekToolSignal(context)));
    }
    if (!isPromiseLike(checked)) return run(checked, context);
    return Promise.resolve(checked).then(
      (ready) => run(ready, context),
      (error: unknown) => {
        throw asToolExecutionError(toolName, error, peekToolSignal(context));
      },
    );
  }
  async function run(
    checked: ToolInputValidation,
    context: ToolContext | undefined,
  ): Promise<string> {
    if (!checked.ok) throw new InvalidToolInputError({ toolName, issues: checked.issues });
    const signal = peekToolSignal(context);
    if (signal?.aborted) {
      throw isAbortError(signal.reason)
        ? signal.reason
        : new AbortError(`Tool '${toolName}' was not started: its signal is aborted`, {
            cause: signal.reason,
          });
    }
    let text: unknown;
    try {
      const result = await invoke(checked.value, withContextMap(context));
      text = resultConverter(result);
    } catch (error) {
      throw asToolExecutionError(toolName, error, peekToolSignal(context));
    }
    // A converter written in plain JavaScript may return anything.
    if (typeof text !== 'string') {
      throw new ToolExecutionError({
        toolName,
        message: `The resultConverter of tool '${toolName}' returned ${describeValueType(text)} instead of a string`,
      });
    }
    return text;
  }
  const callback: ToolCallback = Object.freeze({
    definition,
    metadata,
    call(input: string, context?: ToolContext): Promise<string> {
      // Not async itself: returning callParsed's promise from an async function would cost
      // extra microtask hops on every call.
      try {
        const parsed = parseToolArguments(input);
        if (!parsed.ok) throw new InvalidToolInputError({ toolName, issues: parsed.issues });
        return callParsed(parsed.value, context);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  });
  parsedArgumentCallers.set(callback, callParsed);
  return callback;
}

/**
 * The callbacks made by {@link createToolCallback}, with the part of their `call` that follows
 * the parse: the tool-calling manager, which has already parsed the arguments with the same
 * checks, hands the parsed object over instead of having the text parsed a second time.
 */
const parsedArgumentCallers = new WeakMap<
  ToolCallback,
  (value: Record<string, unknown>, context: ToolContext | undefined) => Promise<string>
>();

/**
 * Calls `callback` with arguments already parsed by `parseToolArguments` (default limits or
 * tighter ones, so `call` would have parsed the same text to an equal object), when it is a
 * callback made by {@link createToolCallback}; `undefined` for any other callback, which must be
 * called with the text. The object must not be used by anyone else afterwards.
 */
export function callWithParsedArguments(
  callback: ToolCallback,
  value: Record<string, unknown>,
  context: ToolContext | undefined,
): Promise<string> | undefined {
  const callParsed = parsedArgumentCallers.get(callback);
  return callParsed === undefined ? undefined : callParsed(value, context);
}

function withContextMap(context: ToolContext | undefined): ToolContext {
  if (context === undefined) return EMPTY_TOOL_CONTEXT;
  // A hand-built context may lack the map; tools may always read `context.context`.
  if (typeof context.context !== 'object' || context.context === null) {
    return { ...context, context: Object.freeze({}) };
  }
  return context;
}

/**
 * What a tool's failure becomes: a `ToolExecutionError` unchanged; an abort error unchanged when
 * the tool's `signal` is aborted (the caller or the timeout stopped it); anything else, an abort
 * of the tool's own (a sub-request it cancelled) included, wrapped in a `ToolExecutionError`
 * naming the tool, with the original as `cause`.
 */
export function asToolExecutionError(
  toolName: string,
  error: unknown,
  signal: AbortSignal | undefined,
): unknown {
  if (signal?.aborted === true && isAbortError(error)) return error;
  if (ToolloopError.isInstance(error) && error.code === 'TOOL_EXECUTION_FAILED') return error;
  return new ToolExecutionError({
    toolName,
    cause: error,
    ...(typeof error === 'string' ? { message: error } : {}),
  });
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
