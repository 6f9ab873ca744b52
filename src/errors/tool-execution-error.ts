import { ToolloopError } from './toolloop-error.js';

/**
 * A tool failed while running. This is the error the exception processor turns into text for the
 * model; every other error ends the whole request (the reference's ToolExecutionException split).
 */
export class ToolExecutionError extends ToolloopError {
  /** Name of the tool that failed. */
  readonly toolName: string;
  /** Id of the tool call, when the failure happened inside the loop. */
  readonly toolCallId: string | undefined;

  constructor(options: {
    toolName: string;
    toolCallId?: string;
    message?: string;
    cause?: unknown;
  }) {
    const causeMessage = options.cause instanceof Error ? options.cause.message : undefined;
    super({
      code: 'TOOL_EXECUTION_FAILED',
      message: options.message ?? causeMessage ?? '',
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.toolCallId = options.toolCallId;
  }
}
