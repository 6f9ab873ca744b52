import type { ToolExecutionError } from '../errors/index.js';

/**
 * Turns a failed tool call into the text the model receives, or throws to end the whole request.
 *
 * JavaScript has no checked exceptions: every error a tool throws is treated as Spring AI's
 * "runtime" kind, so Spring AI's rule "a checked cause is always rethrown" has no counterpart.
 */
export type ToolExecutionExceptionProcessor = (error: ToolExecutionError) => string;

/** Options of {@link createDefaultToolExecutionExceptionProcessor}. */
export interface DefaultToolExecutionExceptionProcessorOptions {
  /** Throw every {@link ToolExecutionError} instead of telling the model. Default `false`. */
  alwaysThrow?: boolean;
  /**
   * Error classes whose instances (subclasses included) are thrown as they are, unwrapped from the
   * {@link ToolExecutionError}, instead of being told to the model. Default none.
   */
  rethrow?: ReadonlyArray<new (...args: never[]) => Error>;
}

/**
 * The default processor (Spring AI's `DefaultToolExecutionExceptionProcessor`):
 * 1. a cause that is an instance of one of `rethrow` is thrown itself;
 * 2. with `alwaysThrow` the {@link ToolExecutionError} is thrown;
 * 3. otherwise the error's message goes to the model, or
 *    `"Exception occurred in tool: <name> (<CauseName>)"` when the message is blank.
 */
export function createDefaultToolExecutionExceptionProcessor(
  options: DefaultToolExecutionExceptionProcessorOptions = {},
): ToolExecutionExceptionProcessor {
  const alwaysThrow = options.alwaysThrow ?? false;
  const rethrow = options.rethrow ?? [];
  return (error) => {
    const cause: unknown = error.cause;
    for (const errorClass of rethrow) {
      if (cause instanceof errorClass) throw cause;
    }
    if (alwaysThrow) throw error;
    const message = error.message;
    if (message.trim() !== '') return message;
    return `Exception occurred in tool: ${error.toolName} (${errorTypeName(cause ?? error)})`;
  };
}

/** The class name of a thrown value (`TypeError`, a custom class name), or its `typeof`. */
export function errorTypeName(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    const constructorName = (value as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof constructorName === 'string' && constructorName !== '') return constructorName;
    const name = (value as { name?: unknown }).name;
    if (typeof name === 'string' && name !== '') return name;
    return 'Object';
  }
  if (typeof value === 'string') return 'String';
  return typeof value;
}
