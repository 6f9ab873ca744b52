const TOOLLOOP_ERROR_MARKER = Symbol.for('toolloop.error');

/** Machine-readable codes carried by every {@link ToolloopError}. */
export type ToolloopErrorCode =
  | 'TOOL_DEFINITION_INVALID'
  | 'TOOL_EXECUTION_FAILED'
  | 'TOOL_INPUT_INVALID'
  | 'NO_SUCH_TOOL'
  | 'TOOL_CALL_LIMIT_EXCEEDED'
  | 'INVALID_ARGUMENT'
  | 'ILLEGAL_STATE'
  | 'CHAT_MODEL_FAILED'
  | 'MEMORY_FAILED'
  | 'ABORTED'
  | 'STRUCTURED_OUTPUT_INVALID'
  | 'MCP_CONNECTION_FAILED'
  | 'MCP_PROTOCOL_ERROR'
  | 'MCP_LIMIT_EXCEEDED'
  | 'TOOL_APPROVAL_REFUSED'
  | 'CONFIG_INVALID'
  | 'DURABLE_TURN_FAILED';

/** Options shared by every toolloop error constructor. */
export interface ToolloopErrorOptions {
  code: ToolloopErrorCode;
  message: string;
  cause?: unknown;
}

/**
 * Base class of every error toolloop throws. Messages never carry tool arguments, API keys or
 * tool-context values; structured fields on the subclasses say what went wrong.
 */
export class ToolloopError extends Error {
  /** A stable code to branch on instead of parsing the message. */
  readonly code: ToolloopErrorCode;
  readonly [TOOLLOOP_ERROR_MARKER] = true;

  constructor(options: ToolloopErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
  }

  /** True for any toolloop error, also across duplicate installs of the package. */
  static isInstance(value: unknown): value is ToolloopError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[TOOLLOOP_ERROR_MARKER] === true
    );
  }
}

/** A caller passed a value the API does not accept (Spring AI's IllegalArgumentException). */
export class InvalidArgumentError extends ToolloopError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ code: 'INVALID_ARGUMENT', message, cause: options.cause });
  }
}

/** An operation was attempted in a state that does not allow it (Spring AI's IllegalStateException). */
export class IllegalStateError extends ToolloopError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ code: 'ILLEGAL_STATE', message, cause: options.cause });
  }
}
