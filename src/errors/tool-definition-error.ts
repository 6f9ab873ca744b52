import { ToolloopError } from './toolloop-error.js';

/** A tool was declared in a way that cannot work (missing schema, bad name, duplicate names, …). */
export class ToolDefinitionError extends ToolloopError {
  /** The tool the problem belongs to, when one is known. */
  readonly toolName: string | undefined;

  constructor(message: string, options: { toolName?: string; cause?: unknown } = {}) {
    super({ code: 'TOOL_DEFINITION_INVALID', message, cause: options.cause });
    this.toolName = options.toolName;
  }
}
