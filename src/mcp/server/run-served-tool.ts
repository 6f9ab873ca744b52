import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  AbortError,
  InvalidToolInputError,
  isAbortError,
  type ToolCallback,
  type ToolContext,
} from '../../index.js';
import { LongTimeout } from '../../internal/long-timeout.js';
import { executeOf, type ToolResult, validateJsonSchema } from '../../tools/index.js';
import { mcpResultSink } from './mcp-tool-result.js';
import { toCallToolResult } from './to-call-tool-result.js';

/** How {@link runServedTool} runs one call. */
export interface ServedToolRun {
  /** The call's context without its signal (the run makes the signal). */
  readonly context: Omit<ToolContext, 'signal'>;
  /** The client's signals: a cancellation (`notifications/cancelled`), a disconnect. */
  readonly signals: readonly AbortSignal[];
  readonly timeoutMs: number;
  /** Applied to every error text before it leaves the server. */
  readonly redact: (text: string) => string;
  /** Binds the final context (with its signal) before the tool runs (the MCP exchange). */
  readonly bind?: (context: ToolContext) => void;
  /**
   * Called once the tool has really finished: after its answer, or later for a tool that ignores
   * its signal past a timeout or a cancellation (it holds its resources until then).
   */
  readonly onSettled: () => void;
}

/**
 * Runs one served tool call: the tool's signal aborts when the client cancels or disconnects, or
 * when the timeout passes (the client then gets an `isError` result saying so, even from a tool
 * that ignores its signal, which is left behind). A tool's error and invalid arguments come back as an `isError`
 * result whose text went through `redact`. A call the client abandoned rethrows its abort error
 * (the SDK sends nothing for a cancelled request).
 */
export async function runServedTool(
  callback: ToolCallback,
  args: Record<string, unknown>,
  run: ServedToolRun,
): Promise<CallToolResult> {
  const controller = new AbortController();
  const abandoned = run.signals.find((signal) => signal.aborted);
  if (abandoned !== undefined) {
    run.onSettled();
    throw new AbortError(undefined, { cause: abandoned.reason });
  }
  const onAbort = (event: Event) =>
    controller.abort(
      new AbortError('The MCP client cancelled the call or went away', {
        cause: (event.target as AbortSignal).reason,
      }),
    );
  for (const signal of run.signals) signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = new LongTimeout(() => {
    timedOut = true;
    controller.abort(new AbortError(`The tool call timed out after ${run.timeoutMs} ms`));
  }, run.timeoutMs);
  const context: ToolContext = {
    ...run.context,
    rawArguments: JSON.stringify(args),
    signal: controller.signal,
  };
  run.bind?.(context);
  const sink: { result: CallToolResult | undefined } = { result: undefined };
  const stopped = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {
      once: true,
    });
  });
  stopped.catch(() => {});
  let call: Promise<string | ToolResult>;
  try {
    call = mcpResultSink.run(sink, () => invoke(callback, args, context));
  } catch (error) {
    call = Promise.reject(error);
  }
  call.then(run.onSettled, run.onSettled);
  try {
    const value = await Promise.race([call, stopped]);
    return sink.result ?? toCallToolResult(value);
  } catch (error) {
    if (timedOut) {
      return errorResult(`Tool '${callback.definition.name}' timed out after ${run.timeoutMs} ms`);
    }
    if (controller.signal.aborted && isAbortError(error)) throw error;
    const message =
      error instanceof Error && error.message.trim() !== ''
        ? error.message
        : `Tool '${callback.definition.name}' failed`;
    return errorResult(run.redact(message));
  } finally {
    timer.clear();
    for (const signal of run.signals) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Runs the tool: its `execute` with the arguments checked against its input schema first (so
 * parts and structured content reach the client), else its `call` with their JSON text.
 */
function invoke(
  callback: ToolCallback,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<string | ToolResult> {
  const execute = executeOf(callback);
  if (execute === undefined) return callback.call(JSON.stringify(args), context);
  const issues = validateJsonSchema(callback.definition.inputSchema, args);
  if (issues.length > 0) {
    return Promise.reject(
      new InvalidToolInputError({ toolName: callback.definition.name, issues }),
    );
  }
  return execute.call(callback, args, context);
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
