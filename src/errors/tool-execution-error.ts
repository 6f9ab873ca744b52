import { ToolloopError } from './toolloop-error.js';

/**
 * A tool failed while running. The manager wraps whatever a tool throws in this error and hands
 * it to the exception processor, which turns it into text for the model or rethrows it. Only the
 * caller's abort ends the request (and a tool's timeout answers the call); an abort error a tool
 * throws for its own reasons, such as a sub-request it cancelled, is a failure like any other.
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
