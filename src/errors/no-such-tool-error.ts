import { ToolloopError } from './toolloop-error.js';

/** The model asked for a tool that is not attached to the request. */
export class NoSuchToolError extends ToolloopError {
  readonly toolName: string;
  readonly availableToolNames: readonly string[];

  constructor(options: { toolName: string; availableToolNames: readonly string[] }) {
    super({
      code: 'NO_SUCH_TOOL',
      message: `No ToolCallback found for tool name: ${options.toolName}`,
    });
    this.toolName = options.toolName;
    this.availableToolNames = options.availableToolNames;
  }
}
