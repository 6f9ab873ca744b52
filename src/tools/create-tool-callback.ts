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
import type { ResolvedToolOutputSchema } from './schema/tool-output-schema.js';
import type { ToolCallback, ToolCallOptions, ToolContext } from './tool-callback.js';
import { pairExecute } from './tool-execute.js';
import type { PreparedTool } from './tool-options.js';
import { isToolResult, type ToolResult, toolResultProblem } from './tool-result.js';
import { toolResultText } from './tool-result-converter.js';

const EMPTY_TOOL_CONTEXT: ToolContext = Object.freeze({ context: Object.freeze({}) });

/**
 * Builds the {@link ToolCallback} of a prepared tool around the function that does the work.
 * `execute` takes the manager's parsed input, already checked against the definition's JSON
 * Schema (a raw JSON Schema is not checked again; a Standard Schema runs once, for its
 * conversion) and resolves to text or a `ToolResult`; `call` parses and validates the raw
 * arguments first (or takes the deprecated `validatedInput`), resolves to the text form, and
 * never runs the tool on bad input
 * (`InvalidToolInputError` with JSON-pointer issues); what the tool throws comes back as a
 * `ToolExecutionError`, except an abort error while `context.signal` is aborted, which passes
 * through untouched. A tool whose `context.signal` is already aborted is not started (an
 * `AbortError` is thrown). With an output schema, a result that breaks it is a
 * `ToolExecutionError` listing the issues; one that passes is kept as `structuredContent`.
 */
export function createToolCallback(
  tool: PreparedTool,
  invoke: (input: unknown, context: ToolContext) => unknown,
): ToolCallback {
  const { definition, metadata, inputSchema, outputSchema, resultConverter } = tool;
  const toolName = definition.name;
  // Validation is synchronous for the common schemas, so `callValidated` waits only for a promise
  // and a call is one `then` on the tool's promise: 2.1 KB less allocated per loop-overhead
  // conversation (3 calls) than awaiting a ready value in nested async functions, and another
  // 0.65 KB (4.5%) less than one async `run`, measured with the exact allocation counter.
  function callValidated(
    value: Record<string, unknown>,
    context: ToolContext | undefined,
    schemaChecked: boolean,
    onProgress: ((value: unknown) => void) | undefined,
  ): Promise<string | ToolResult> {
    // Input checked against the JSON Schema needs nothing more when that schema is all the tool
    // has; a Standard Schema still runs once here, for its conversion (transforms, defaults).
    if (schemaChecked && inputSchema.checksJsonSchemaOnly) return run(value, context, onProgress);
    let checked: ToolInputValidation | PromiseLike<ToolInputValidation>;
    try {
      checked = inputSchema.validate(value);
    } catch (error) {
      return Promise.reject(asToolExecutionError(toolName, error, peekToolSignal(context)));
    }
    if (!isPromiseLike(checked)) return runChecked(checked, context, onProgress);
    return Promise.resolve(checked).then(
      (ready) => runChecked(ready, context, onProgress),
      (error: unknown) => {
        throw asToolExecutionError(toolName, error, peekToolSignal(context));
      },
    );
  }
  function runChecked(
    checked: ToolInputValidation,
    context: ToolContext | undefined,
    onProgress: ((value: unknown) => void) | undefined,
  ): Promise<string | ToolResult> {
    if (!checked.ok) {
      return Promise.reject(new InvalidToolInputError({ toolName, issues: checked.issues }));
    }
    return run(checked.value, context, onProgress);
  }
  // Not async (see above): the frame of an async function per call costs more than two callbacks.
  function run(
    input: unknown,
    context: ToolContext | undefined,
    onProgress: ((value: unknown) => void) | undefined,
  ): Promise<string | ToolResult> {
    const signal = peekToolSignal(context);
    if (signal?.aborted) {
      return Promise.reject(
        isAbortError(signal.reason)
          ? signal.reason
          : new AbortError(`Tool '${toolName}' was not started: its signal is aborted`, {
              cause: signal.reason,
            }),
      );
    }
    let result: unknown;
    try {
      result = invoke(input, withContextMap(context));
      if (isAsyncGenerator(result)) result = drainProgress(result, onProgress, context);
    } catch (error) {
      return Promise.reject(asToolExecutionError(toolName, error, peekToolSignal(context)));
    }
    // A bound function rather than an arrow made per call: V8 keeps the optimized code of such an
    // arrow only while one lives, so every full GC between calls threw it away (recompiled on the
    // next calls, measured with `node --trace-opt`); `resultIn` lives as long as the tool.
    return Promise.resolve(result).then(resultIn.bind(undefined, context), (error: unknown) => {
      throw asToolExecutionError(toolName, error, peekToolSignal(context));
    });
  }
  function resultIn(
    context: ToolContext | undefined,
    result: unknown,
  ): string | ToolResult | Promise<string | ToolResult> {
    if (outputSchema === undefined) return converted(result, context);
    return checkOutput(result, context);
  }
  /** Checks the result against the output schema; what passes is kept as structured content. */
  function checkOutput(
    result: unknown,
    context: ToolContext | undefined,
  ): ToolResult | Promise<ToolResult> {
    const given = isToolResult(result) ? result : undefined;
    const value = given === undefined ? result : given.structuredContent;
    let checked: ToolInputValidation | PromiseLike<ToolInputValidation>;
    try {
      checked = (outputSchema as ResolvedToolOutputSchema).validate(value);
    } catch (error) {
      throw asToolExecutionError(toolName, error, peekToolSignal(context));
    }
    const finish = (validation: ToolInputValidation): ToolResult => {
      if (!validation.ok) throw outputSchemaError(toolName, validation.issues);
      const structured = plainJson(validation.value, context);
      if (given !== undefined) return { ...given, structuredContent: structured };
      const text = converted(validation.value, context);
      return typeof text === 'string'
        ? { text, structuredContent: structured }
        : { ...text, structuredContent: structured };
    };
    return isPromiseLike(checked) ? Promise.resolve(checked).then(finish) : finish(checked);
  }
  /** The structured value as plain JSON data (dates as ISO strings, bytes as base64, …). */
  function plainJson(value: unknown, context: ToolContext | undefined): unknown {
    try {
      return JSON.parse(toolResultText(value));
    } catch (error) {
      throw asToolExecutionError(toolName, error, peekToolSignal(context));
    }
  }
  function converted(result: unknown, context: ToolContext | undefined): string | ToolResult {
    let output: unknown;
    try {
      output = resultConverter(result);
    } catch (error) {
      throw asToolExecutionError(toolName, error, peekToolSignal(context));
    }
    // A converter written in plain JavaScript may return anything.
    if (typeof output === 'string' || isToolResult(output)) return output;
    const problem = typeof output === 'object' ? toolResultProblem(output) : undefined;
    if (typeof output === 'object' && output !== null && problem === undefined) {
      return output as ToolResult;
    }
    throw new ToolExecutionError({
      toolName,
      message: `The resultConverter of tool '${toolName}' returned ${problem === undefined ? describeValueType(output) : `a result whose ${problem}`} instead of a string or a ToolResult`,
    });
  }
  const callback: ToolCallback = {
    definition,
    metadata,
    call(input: string, context?: ToolContext, options?: ToolCallOptions): Promise<string> {
      // Not async itself: returning callValidated's promise from an async function would cost
      // extra microtask hops on every call.
      try {
        const validated = options?.validatedInput;
        if (validated !== undefined) {
          return callValidated(validated, context, true, options?.onProgress).then(textOf);
        }
        const parsed = parseToolArguments(input);
        if (!parsed.ok) throw new InvalidToolInputError({ toolName, issues: parsed.issues });
        return callValidated(parsed.value, context, false, options?.onProgress).then(textOf);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    execute(
      input: Record<string, unknown>,
      context: ToolContext,
      options?: ToolCallOptions,
    ): Promise<string | ToolResult> {
      try {
        return callValidated(input, context, true, options?.onProgress);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
  pairExecute(callback.execute as NonNullable<ToolCallback['execute']>, callback.call);
  return Object.freeze(callback);
}

/** The text form of what a tool resolved to. */
function textOf(result: string | ToolResult): string {
  return typeof result === 'string' ? result : result.text;
}

function outputSchemaError(
  toolName: string,
  issues: readonly { path: string; message: string }[],
): ToolExecutionError {
  const listed = issues
    .slice(0, 20)
    .map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
    .join('; ');
  return new ToolExecutionError({
    toolName,
    message: `Tool '${toolName}' returned a result that does not match its output schema: ${listed}${issues.length > 20 ? `; and ${issues.length - 20} more` : ''}`,
  });
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, unknown, undefined> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { next?: unknown }).next === 'function' &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/**
 * Runs an async-generator tool to its end: each yielded value is progress for `onProgress` (never
 * for the model), the return value is the result. Once the tool's signal aborts, the generator is
 * closed (its `finally` blocks run) and the signal's reason thrown.
 */
async function drainProgress(
  generator: AsyncGenerator<unknown, unknown, undefined>,
  onProgress: ((value: unknown) => void) | undefined,
  context: ToolContext | undefined,
): Promise<unknown> {
  for (;;) {
    const step = await generator.next();
    if (step.done === true) return step.value;
    const signal = peekToolSignal(context);
    if (signal?.aborted) {
      await generator.return(undefined);
      throw signal.reason;
    }
    onProgress?.(step.value);
  }
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
