import { ToolloopError } from '../index.js';

/** Which of an MCP client's size caps was exceeded. */
export type McpLimit = 'tool-count' | 'tool-list-size' | 'result-size';

/**
 * An MCP server sent more than the client accepts: too many tools, a tool list too large, or a
 * tool result too large for the model. Nothing of the oversized answer is used.
 */
export class McpLimitError extends ToolloopError {
  readonly serverName: string;
  readonly limit: McpLimit;
  /** The cap (tools, or characters of JSON / model text). */
  readonly max: number;
  /** What the server sent, in the same unit. */
  readonly actual: number;

  constructor(options: {
    serverName: string;
    limit: McpLimit;
    max: number;
    actual: number;
    message: string;
  }) {
    super({ code: 'MCP_LIMIT_EXCEEDED', message: options.message });
    this.serverName = options.serverName;
    this.limit = options.limit;
    this.max = options.max;
    this.actual = options.actual;
  }
}
