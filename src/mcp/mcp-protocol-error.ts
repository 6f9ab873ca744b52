import { ToolloopError } from '../index.js';

/**
 * An MCP server answered a request with a JSON-RPC error (unknown tool, invalid params, an
 * internal error), its answer broke the protocol, or the request timed out (`timedOut`, JSON-RPC
 * code -32001; the server was sent `notifications/cancelled`). A tool result with
 * `isError: true` is not a protocol error: it reaches the model as an error result.
 */
export class McpProtocolError extends ToolloopError {
  readonly serverName: string;
  /** The JSON-RPC error code (for example -32602 invalid params, -32001 timeout). */
  readonly rpcCode: number;
  /** True when the request was given up after its timeout. */
  readonly timedOut: boolean;

  constructor(options: { serverName: string; rpcCode: number; message: string; cause?: unknown }) {
    super({ code: 'MCP_PROTOCOL_ERROR', message: options.message, cause: options.cause });
    this.serverName = options.serverName;
    this.rpcCode = options.rpcCode;
    this.timedOut = options.rpcCode === -32001;
  }
}
