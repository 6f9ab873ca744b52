import { ToolloopError } from '../index.js';

/** Why an MCP server could not serve a request. */
export type McpConnectionFailure =
  /** The server could not be started or did not complete the MCP handshake. */
  | 'connect-failed'
  /**
   * The server's process ended, or its HTTP connection dropped, while requests were pending:
   * a call among them may have run (its outcome is unknown).
   */
  | 'exited'
  /**
   * An HTTP request could not be delivered (connection refused, host not found): the server
   * never saw it, so a call failing this way did not run.
   */
  | 'unreachable'
  /** The client was closed with `close()`. */
  | 'closed';

/**
 * An MCP server could not be reached, or went away while a request was pending. A call whose
 * outcome is unknown (`'exited'`: it may have run) was not replayed unless its tool is read-only
 * or idempotent (on a trusted server); one that never reached the server (`'unreachable'`) was
 * sent again once on a new connection. The tail
 * of a stdio server's stderr is in {@link McpConnectionError.stderrTail} (not in the message,
 * which the model may read).
 */
export class McpConnectionError extends ToolloopError {
  /** The connection's name. */
  readonly serverName: string;
  readonly failure: McpConnectionFailure;
  /** The last lines a stdio server wrote to stderr before it failed, when there were any. */
  readonly stderrTail: string | undefined;

  constructor(options: {
    serverName: string;
    failure: McpConnectionFailure;
    message: string;
    stderrTail?: string;
    cause?: unknown;
  }) {
    super({ code: 'MCP_CONNECTION_FAILED', message: options.message, cause: options.cause });
    this.serverName = options.serverName;
    this.failure = options.failure;
    this.stderrTail = options.stderrTail === '' ? undefined : options.stderrTail;
  }
}
