import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  ErrorCode,
  type Implementation,
  McpError,
  PaginatedResultSchema,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { throwIfAborted, untilAborted } from '../errors/index.js';
import { AbortError, InvalidArgumentError, isAbortError } from '../index.js';
import { delay, MAX_TIMER_DELAY_MS } from '../internal/long-timeout.js';
import { redactCredentials } from '../internal/redact-credentials.js';
import { createMcpTransport } from './create-mcp-transport.js';
import {
  type McpConnectionConfig,
  type ResolvedMcpConnectionConfig,
  resolveMcpConnectionConfig,
} from './mcp-connection-config.js';
import { McpConnectionError } from './mcp-connection-error.js';
import { McpLimitError } from './mcp-limit-error.js';
import { McpProtocolError } from './mcp-protocol-error.js';
import { StderrTail } from './stderr-tail.js';

/** What a tool filter and a name generator know about the server a tool comes from. */
export interface McpConnectionInfo {
  /** The connection's name (the key in the config). */
  readonly serverName: string;
  readonly transport: 'stdio' | 'streamable-http' | 'sse';
  /** The server's `serverInfo` from the handshake. */
  readonly serverInfo: Implementation | undefined;
  readonly capabilities: ServerCapabilities | undefined;
  /** The server's `instructions` from the handshake. */
  readonly instructions: string | undefined;
}

/** Limits and timing of an {@link McpClient}; every field has a default. */
export interface McpClientOptions {
  /** How this client introduces itself. Default `{ name: 'toolloop', version: '0.1.0' }`. */
  clientInfo?: Implementation;
  /**
   * Give up a request after this long and send `notifications/cancelled`. Default 60,000 ms. The
   * SDK times a request with one `setTimeout`: a longer limit than about 24.8 days, `Infinity`
   * included, is that maximum.
   */
  requestTimeoutMs?: number;
  /** Give up starting a server and the handshake after this long. Default 30,000 ms. */
  connectTimeoutMs?: number;
  /**
   * Waits before reconnecting after a failure: `initialDelayMs`, doubled per further failure up
   * to `maxDelayMs`; reset by the first request that succeeds. Defaults 100 ms and 5,000 ms.
   */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number };
  /** Refuse a tool list with more tools than this. Default 1,000. */
  maxTools?: number;
  /** Refuse a tool list whose JSON is longer than this many characters. Default 2,000,000. */
  maxToolListChars?: number;
  /**
   * Refuse a tool result whose JSON is longer than this many characters. Default 1,000,000. A
   * stdio server's line may be 3 bytes per character of this cap or of `maxToolListChars`, and
   * at least 10 MiB: a longer one ends the connection with an {@link McpConnectionError} saying so.
   */
  maxResultChars?: number;
  /** Keep this many characters of a stdio server's stderr for errors. Default 4,000. */
  stderrTailChars?: number;
  /** Receives everything a stdio server writes to stderr (default: kept only for errors). */
  onStderr?: (text: string) => void;
}

/** Options of one {@link McpClient.callTool} call. */
export interface McpCallToolOptions {
  /** Aborting it cancels the request (`notifications/cancelled` is sent). */
  signal?: AbortSignal;
  /** This call's timeout; default the client's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** Sent as the request's `_meta`. */
  meta?: Record<string, unknown>;
  /**
   * The call may be sent again when its server died before answering (the tool is read-only or
   * idempotent). Default `false`: such a call fails with {@link McpConnectionError}.
   */
  replayable?: boolean;
}

interface Session {
  readonly client: Client;
  readonly transport: Transport;
  readonly stderr: StderrTail;
  readonly info: McpConnectionInfo;
  /** Set once the connection is gone, with the error its pending requests get. */
  failure: Promise<McpConnectionError> | undefined;
  /** True when this client ended the session itself (close, re-initialisation). */
  retired: boolean;
  lastTransportError: Error | undefined;
  /** Rejects when the HTTP connection drops with requests pending (they fail at once). */
  readonly dropped: Promise<never>;
  drop(error: McpConnectionError): void;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'toolloop', version: '0.1.0' };
const STDERR_DRAIN_MS = 100;
/**
 * How long requests pending on an HTTP session whose event stream broke may take to end on their
 * own before they fail as calls that may have run: long enough for a request that never reached
 * the server to be refused, short next to any request timeout.
 */
const DROP_GRACE_MS = 500;
/** The SDK's default limit of one stdio line: the least this client allows. */
const SDK_STDIO_LINE_BYTES = 10 * 1024 * 1024;
/** How long `close()` waits for the server to end an HTTP session before it just leaves. */
const SESSION_END_GRACE_MS = 1_000;

/**
 * One MCP server, connected on first use and kept connected: the client side of `toolloop/mcp`
 * on the official SDK's `Client` and transports.
 *
 * - Lazy: nothing starts until the first `listTools`, `callTool` or `connect`.
 * - The tool list is cached until the server sends `notifications/tools/list_changed` or the
 *   connection is replaced; listeners registered with `onToolsChanged` hear about both.
 * - A stdio server that dies fails its pending requests at once (well within a second) with an
 *   {@link McpConnectionError} carrying the tail of its stderr; it never takes this process down.
 *   The next request starts it again, after a backoff that grows with consecutive failures
 *   (capped) and resets on success. A call pending when the server died is sent again only
 *   when `replayable` (the tool is read-only or idempotent): a blind replay could repeat its
 *   side effect.
 * - A Streamable HTTP session the server no longer knows (HTTP 404, or HTTP 400 naming the
 *   session as `server-everything` answers) is re-initialised once and the request sent again:
 *   that answer comes before anything runs. A request that could not be delivered at all
 *   (connection refused) is sent again once on a new connection too. A request whose
 *   connection dropped after it was sent fails at once with an {@link McpConnectionError}
 *   (`'exited'`) saying the call may have run, and is sent again only when `replayable`.
 * - Timeouts and aborts cancel the request with `notifications/cancelled`.
 * - `close()` ends the connection: a child process (stdin closed, then SIGTERM, then SIGKILL),
 *   or an HTTP session (a DELETE, so the server frees its place at once); no request restarts it.
 */
export class McpClient {
  /** The connection's name: used in tool filters, name prefixes and errors. */
  readonly name: string;
  readonly config: ResolvedMcpConnectionConfig;
  readonly #clientInfo: Implementation;
  readonly #requestTimeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxTools: number;
  readonly #maxToolListChars: number;
  readonly #maxResultChars: number;
  readonly #stderrTailChars: number;
  readonly #maxStdioLineBytes: number;
  readonly #onStderr: ((text: string) => void) | undefined;
  readonly #closing = new AbortController();
  readonly #toolsChangedListeners = new Set<() => void>();
  #session: Session | undefined;
  #connecting: Promise<Session> | undefined;
  #tools: Promise<Tool[]> | undefined;
  #failures = 0;
  #closed = false;

  constructor(name: string, config: McpConnectionConfig, options: McpClientOptions = {}) {
    if (typeof name !== 'string' || name.trim() === '') {
      throw new InvalidArgumentError('An MCP connection needs a non-empty name');
    }
    this.name = name;
    this.config = resolveMcpConnectionConfig(name, config);
    this.#clientInfo = options.clientInfo ?? DEFAULT_CLIENT_INFO;
    this.#requestTimeoutMs = positive(options.requestTimeoutMs, 60_000, 'requestTimeoutMs');
    this.#connectTimeoutMs = positive(options.connectTimeoutMs, 30_000, 'connectTimeoutMs');
    this.#initialDelayMs = positive(
      options.reconnect?.initialDelayMs,
      100,
      'reconnect.initialDelayMs',
    );
    this.#maxDelayMs = positive(options.reconnect?.maxDelayMs, 5_000, 'reconnect.maxDelayMs');
    this.#maxTools = positive(options.maxTools, 1_000, 'maxTools');
    this.#maxToolListChars = positive(options.maxToolListChars, 2_000_000, 'maxToolListChars');
    this.#maxResultChars = positive(options.maxResultChars, 1_000_000, 'maxResultChars');
    this.#stderrTailChars = positive(options.stderrTailChars, 4_000, 'stderrTailChars');
    // Room for any message the caps let through (3 UTF-8 bytes per JSON character at worst), so
    // that an oversized result meets McpLimitError, not the transport's own limit.
    this.#maxStdioLineBytes = Math.max(
      SDK_STDIO_LINE_BYTES,
      3 * Math.max(this.#maxResultChars, this.#maxToolListChars) + 1024 * 1024,
    );
    this.#onStderr = options.onStderr;
  }

  /** What the server said about itself; `undefined` until connected. */
  get connectionInfo(): McpConnectionInfo | undefined {
    return this.#session?.info;
  }

  /** The process id of a running stdio server; `undefined` for HTTP or when none runs. */
  get pid(): number | undefined {
    const transport = this.#session?.failure === undefined ? this.#session?.transport : undefined;
    return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
  }

  /** True after `close()`. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Connects now (normally the first request does), and returns what the server said. */
  async connect(options: { signal?: AbortSignal } = {}): Promise<McpConnectionInfo> {
    return (await this.#currentSession(options.signal)).info;
  }

  /**
   * The server's tools, every page, listed once and cached until `tools/list_changed` or a new
   * connection. Throws {@link McpLimitError} for a list over the caps. The entries are as the
   * server listed them (each has a string `name`; an entry without one is left out with a
   * warning): one malformed tool does not fail the list, and `McpToolCallbackProvider` checks
   * each tool before offering it.
   */
  async listTools(options: { signal?: AbortSignal } = {}): Promise<Tool[]> {
    if (this.#tools === undefined) {
      const listing = this.#request((session) => this.#listAll(session), {
        replayable: true,
      });
      this.#tools = listing;
      listing.catch(() => {
        if (this.#tools === listing) this.#tools = undefined;
      });
    }
    return untilAborted(this.#tools, options.signal);
  }

  /** Drops the cached tool list; the next `listTools` asks the server again. */
  invalidateTools(): void {
    this.#dropTools();
  }

  /** Calls `listener` whenever the cached tool list is dropped; returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void {
    this.#toolsChangedListeners.add(listener);
    return () => this.#toolsChangedListeners.delete(listener);
  }

  /**
   * Calls a tool by its name on the server. The result is the server's, unchanged, after the
   * size check; `isError: true` results are returned, not thrown. Throws
   * {@link McpProtocolError}, {@link McpConnectionError}, {@link McpLimitError}, or an
   * `AbortError` when `signal` aborts.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: McpCallToolOptions = {},
  ): Promise<CallToolResult> {
    const timeout = sdkTimeout(options.timeoutMs ?? this.#requestTimeoutMs);
    const result = await this.#request(
      async (session) =>
        (await session.client.callTool(
          { name, arguments: args, ...(options.meta === undefined ? {} : { _meta: options.meta }) },
          undefined,
          { timeout, ...(options.signal === undefined ? {} : { signal: options.signal }) },
        )) as CallToolResult,
      { signal: options.signal, replayable: options.replayable === true },
    );
    const size = JSON.stringify(result).length;
    if (size > this.#maxResultChars) {
      throw new McpLimitError({
        serverName: this.name,
        limit: 'result-size',
        max: this.#maxResultChars,
        actual: size,
        message: `MCP tool '${name}' of server '${this.name}' returned ${size} characters of JSON, over the limit of ${this.#maxResultChars}; the result was dropped`,
      });
    }
    return result;
  }

  /** Ends the connection and any child process; later requests fail with {@link McpConnectionError}. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closing.abort();
    const session = this.#session ?? (await this.#connecting?.catch(() => undefined));
    this.#session = undefined;
    if (session !== undefined) await retire(session, { endHttpSession: true });
  }

  async #request<T>(
    operation: (session: Session) => Promise<T>,
    options: { signal?: AbortSignal | undefined; replayable: boolean },
  ): Promise<T> {
    let resent = false;
    let replayed = false;
    for (;;) {
      const session = await this.#currentSession(options.signal);
      try {
        const value = await Promise.race([operation(session), session.dropped]);
        this.#failures = 0;
        return value;
      } catch (error) {
        if (isAbortError(error) || options.signal?.aborted) {
          throw isAbortError(error)
            ? error
            : new AbortError(undefined, { cause: options.signal?.reason });
        }
        if (!resent && isSessionGone(error, session)) {
          // The server refused the request at the door (HTTP 404, or 400 from servers that say
          // "no valid session"): it lost the session (restarted, or expired it) and ran nothing.
          // Start a new session and send the request again, once.
          resent = true;
          this.#replace(session);
          continue;
        }
        const failure = await this.#connectionFailure(session, error);
        if (failure !== undefined) {
          if (failure.failure === 'unreachable' && !resent && !this.#closed) {
            // Never delivered: safe to send again on a new connection, whatever the request.
            resent = true;
            continue;
          }
          if (failure.failure === 'exited' && options.replayable && !replayed && !this.#closed) {
            replayed = true;
            continue;
          }
          throw failure;
        }
        throw this.#translate(error);
      }
    }
  }

  async #currentSession(signal: AbortSignal | undefined): Promise<Session> {
    throwIfAborted(signal);
    if (this.#closed) throw this.#closedError();
    const session = this.#session;
    if (session !== undefined && session.failure === undefined) return session;
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return untilAborted(this.#connecting, signal);
  }

  async #open(): Promise<Session> {
    if (this.#failures > 0) {
      const wait = Math.min(this.#initialDelayMs * 2 ** (this.#failures - 1), this.#maxDelayMs);
      await delay(wait, this.#closing.signal);
    }
    if (this.#closed) throw this.#closedError();
    const stderr = new StderrTail(this.#stderrTailChars, this.#onStderr);
    const transport = createMcpTransport(this.config, stderr, this.#maxStdioLineBytes);
    const client = new Client(this.#clientInfo, {
      capabilities: {},
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 0, onChanged: () => this.#toolsChanged(session) },
      },
    });
    let drop: (error: McpConnectionError) => void = () => {};
    const dropped = new Promise<never>((_resolve, reject) => {
      drop = reject;
    });
    dropped.catch(() => {});
    const session: Session = {
      client,
      transport,
      stderr,
      info: {
        serverName: this.name,
        transport: this.config.transport,
        serverInfo: undefined,
        capabilities: undefined,
        instructions: undefined,
      },
      failure: undefined,
      retired: false,
      lastTransportError: undefined,
      dropped,
      drop,
    };
    client.onerror = (error) => {
      // After an oversized line the transport closes, and the rest of that line arrives as
      // garbage: keep the error that says what happened.
      if (isOversizedLine(session.lastTransportError)) return;
      session.lastTransportError = error;
      if (isStreamDrop(error)) this.#streamDropped(session, error);
    };
    client.onclose = () => this.#lost(session);
    try {
      await client.connect(transport, {
        timeout: sdkTimeout(this.#connectTimeoutMs),
        signal: this.#closing.signal,
      });
    } catch (error) {
      this.#failures++;
      session.retired = true;
      await client.close().catch(() => {});
      if (this.#closed) throw this.#closedError();
      const tail = await stderr.drained(STDERR_DRAIN_MS);
      // The handshake's own error ("Connection closed", "Request timed out") rarely says why:
      // point at what does, without quoting the server's output (the model may read messages).
      const garbled = session.lastTransportError;
      const hints = [
        ...(garbled instanceof SyntaxError || garbled?.name === 'ZodError'
          ? ['it wrote text on stdout that is not MCP JSON-RPC']
          : []),
        ...(tail !== undefined && tail !== '' ? ['its stderr is in stderrTail'] : []),
      ];
      throw new McpConnectionError({
        serverName: this.name,
        failure: 'connect-failed',
        message: `Could not connect to MCP server '${this.name}': ${describe(error)}${hints.length === 0 ? '' : ` (${hints.join('; ')})`}`,
        stderrTail: tail,
        cause: error,
      });
    }
    (session as { info: McpConnectionInfo }).info = Object.freeze({
      serverName: this.name,
      transport: this.config.transport,
      serverInfo: client.getServerVersion(),
      capabilities: client.getServerCapabilities(),
      instructions: client.getInstructions(),
    });
    if (this.#closed) {
      // Closed during the handshake: the server already opened a session for it.
      await retire(session, { endHttpSession: true });
      throw this.#closedError();
    }
    this.#session = session;
    return session;
  }

  /** The connection ended: remember why, so that requests failing with it can say so. */
  #lost(session: Session): void {
    if (session.failure !== undefined) return;
    const retired = session.retired || this.#closed;
    session.failure = (async () => {
      if (retired) return this.#closedError();
      const tail = await session.stderr.drained(STDERR_DRAIN_MS);
      const detail =
        session.lastTransportError === undefined ? '' : ` (${session.lastTransportError.message})`;
      const what = this.config.transport === 'stdio' ? 'exited' : 'closed the connection';
      const message = isOversizedLine(session.lastTransportError)
        ? `MCP server '${this.name}' sent a message over the stdio limit of ${this.#maxStdioLineBytes} bytes (raise maxResultChars for larger results); the connection was closed while requests were pending`
        : `MCP server '${this.name}' ${what} while requests were pending${detail}`;
      return new McpConnectionError({
        serverName: this.name,
        failure: 'exited',
        message,
        stderrTail: tail,
        cause: session.lastTransportError,
      });
    })();
    if (!retired) {
      this.#failures++;
      this.#dropTools();
    }
  }

  /** Retires a session this client gave up on, so that the next request opens a new one. */
  #replace(session: Session): void {
    if (this.#session === session) this.#session = undefined;
    this.#dropTools();
    void retire(session);
  }

  async #connectionFailure(
    session: Session,
    error: unknown,
  ): Promise<McpConnectionError | undefined> {
    if (error instanceof McpConnectionError) return error;
    const closedByPeer =
      session.failure !== undefined ||
      (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) ||
      isNetworkFailure(error);
    if (!closedByPeer) return undefined;
    if (session.failure === undefined) {
      // An HTTP request that failed on the network: the session may be gone with the server.
      this.#failures++;
      this.#replace(session);
      if (isUndelivered(error)) {
        return new McpConnectionError({
          serverName: this.name,
          failure: 'unreachable',
          message: `MCP server '${this.name}' could not be reached: ${describe(error)}`,
          cause: error,
        });
      }
      return new McpConnectionError({
        serverName: this.name,
        failure: 'exited',
        message: `MCP server '${this.name}' closed the connection before answering (${describe(error)}); the call may have run`,
        cause: error,
      });
    }
    return session.failure;
  }

  /**
   * An HTTP session's event stream broke (the server died or restarted, or the network failed):
   * the answers of its pending requests may never come. The next request opens a new session at
   * once; the pending ones get `DROP_GRACE_MS` to end on their own first (a request sent after
   * the server died fails as never delivered, and is sent again), then fail as calls that may
   * have run, instead of at their timeout.
   */
  #streamDropped(session: Session, error: Error): void {
    if (session.retired || this.#closed || this.#session !== session) return;
    this.#failures++;
    this.#session = undefined;
    this.#dropTools();
    const failure = new McpConnectionError({
      serverName: this.name,
      failure: 'exited',
      message: `MCP server '${this.name}' closed the connection while requests were pending (${describe(error)}); a call among them may have run`,
      cause: error,
    });
    setTimeout(() => {
      session.drop(failure);
      void retire(session);
    }, DROP_GRACE_MS).unref();
  }

  #translate(error: unknown): unknown {
    if (isMcpFailure(error)) return error;
    if (error instanceof McpError) {
      const message =
        error.code === ErrorCode.RequestTimeout
          ? `MCP server '${this.name}' did not answer in time (${error.message}); the request was cancelled`
          : `MCP server '${this.name}' answered with an error: ${error.message}`;
      return new McpProtocolError({
        serverName: this.name,
        rpcCode: error.code,
        message,
        cause: error,
      });
    }
    if (error instanceof StreamableHTTPError) {
      return new McpProtocolError({
        serverName: this.name,
        rpcCode: ErrorCode.InternalError,
        message: `MCP server '${this.name}' answered HTTP ${error.code ?? 'error'}: ${error.message}`,
        cause: error,
      });
    }
    return new McpProtocolError({
      serverName: this.name,
      rpcCode: ErrorCode.InternalError,
      message: `MCP server '${this.name}' sent an answer that breaks the protocol: ${describe(error)}`,
      cause: error,
    });
  }

  async #listAll(session: Session): Promise<Tool[]> {
    const tools: Tool[] = [];
    let size = 0;
    let cursor: string | undefined;
    do {
      // Listed leniently: one malformed tool must not cost the server its other tools. The
      // entries are checked one by one by McpToolCallbackProvider (and left out with a warning).
      const page = await session.client.request(
        { method: 'tools/list', ...(cursor === undefined ? {} : { params: { cursor } }) },
        PaginatedResultSchema,
        { timeout: sdkTimeout(this.#requestTimeoutMs) },
      );
      const listed = (page as { tools?: unknown }).tools;
      if (!Array.isArray(listed)) {
        throw new Error('tools/list answered without a tools array');
      }
      for (const entry of listed) {
        const chars = jsonLength(entry);
        if (!isNamed(entry) || chars === undefined) {
          process.emitWarning(
            `MCP server '${this.name}' listed ${isNamed(entry) ? `a tool '${entry.name}' that cannot be serialised` : 'a tool without a name'}; it was left out`,
            'McpToolWarning',
          );
          continue;
        }
        tools.push(entry as Tool);
        size += chars;
      }
      if (tools.length > this.#maxTools) {
        throw this.#listLimit('tool-count', this.#maxTools, tools.length, 'tools');
      }
      if (size > this.#maxToolListChars) {
        throw this.#listLimit('tool-list-size', this.#maxToolListChars, size, 'characters of JSON');
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  #listLimit(limit: 'tool-count' | 'tool-list-size', max: number, actual: number, unit: string) {
    return new McpLimitError({
      serverName: this.name,
      limit,
      max,
      actual,
      message: `MCP server '${this.name}' listed more than ${max} ${unit} (${actual} so far); its tool list was refused`,
    });
  }

  #toolsChanged(session: Session): void {
    if (this.#session === session) this.#dropTools();
  }

  #dropTools(): void {
    this.#tools = undefined;
    for (const listener of this.#toolsChangedListeners) listener();
  }

  #closedError(): McpConnectionError {
    return new McpConnectionError({
      serverName: this.name,
      failure: 'closed',
      message: `MCP client '${this.name}' is closed`,
    });
  }
}

/**
 * Ends a session this client is done with. With `endHttpSession`, a Streamable HTTP session the
 * server still holds is ended with a DELETE first, as the specification asks of a client that
 * leaves: a server caps its open sessions, and one left to its idle timeout holds a place that
 * clients coming and going would exhaust. That DELETE gets `SESSION_END_GRACE_MS`; closing the
 * client then aborts it.
 */
async function retire(session: Session, options: { endHttpSession?: boolean } = {}): Promise<void> {
  session.retired = true;
  const transport = session.transport;
  if (
    options.endHttpSession === true &&
    session.failure === undefined &&
    transport instanceof StreamableHTTPClientTransport &&
    transport.sessionId !== undefined
  ) {
    const grace = new AbortController();
    await Promise.race([
      transport.terminateSession().catch(() => {}),
      delay(SESSION_END_GRACE_MS, grace.signal),
    ]);
    grace.abort();
  }
  await session.client.close().catch(() => {});
}

function isNamed(entry: unknown): entry is { name: string } {
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof (entry as { name?: unknown }).name === 'string'
  );
}

/** The length of an entry's JSON, or `undefined` when it has none (nested past the stack). */
function jsonLength(entry: unknown): number | undefined {
  try {
    return JSON.stringify(entry)?.length ?? 0;
  } catch {
    return undefined;
  }
}

function isMcpFailure(error: unknown): boolean {
  return (
    error instanceof McpConnectionError ||
    error instanceof McpLimitError ||
    error instanceof McpProtocolError
  );
}

/**
 * The server answered the request itself with "no such session": HTTP 404 (what the
 * specification asks for), or HTTP 400 naming the session (what servers built like
 * `server-everything` answer). Either comes before the server runs anything.
 */
function isSessionGone(error: unknown, session: Session): boolean {
  if (!(error instanceof StreamableHTTPError)) return false;
  if (!(session.transport instanceof StreamableHTTPClientTransport)) return false;
  if (session.transport.sessionId === undefined) return false;
  return error.code === 404 || (error.code === 400 && /session/i.test(error.message));
}

function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && /fetch failed|terminated|network/i.test(error.message);
}

// Failures that happen before a request is delivered: nothing reached the server.
const UNDELIVERED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** A network failure that happened before the request reached the server (it did not run). */
function isUndelivered(error: unknown): boolean {
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && typeof cause === 'object' && cause !== null; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && UNDELIVERED.has(code)) return true;
    const errors = (cause as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isUndelivered(inner))) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** The SDK's stdio report of a line longer than its buffer (it then closes the connection). */
function isOversizedLine(error: Error | undefined): boolean {
  return error !== undefined && /^ReadBuffer exceeded maximum size/.test(error.message);
}

/** The SDK's report that an HTTP event stream broke (a request's answers, or notifications). */
function isStreamDrop(error: Error): boolean {
  return /^SSE stream disconnected/.test(error.message);
}

/**
 * An error's message for ours; a URL's credentials in it (fetch errors quote URLs) are redacted.
 * An HTTP error names its status, which the SDK's message leaves out (a 401 would read like any
 * other refusal).
 */
function describe(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  // fetch says only "fetch failed"; the reason (ECONNREFUSED, a TLS failure, …) is its cause.
  const reason = (error as { cause?: unknown } | undefined)?.cause;
  if (isNetworkFailure(error) && reason instanceof Error && reason.message !== '') {
    message += ` (${reason.message})`;
  }
  const status =
    error instanceof StreamableHTTPError && typeof error.code === 'number' && error.code > 0
      ? `HTTP ${error.code}: `
      : '';
  return redactCredentials(`${status}${message}`);
}

function positive(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) {
    throw new InvalidArgumentError(`${what} must be a positive number`);
  }
  return value;
}

/**
 * A timeout as the SDK takes it: it arms one `setTimeout` per request, which fires after 1 ms for a
 * delay past about 24.8 days (or `Infinity`), so a longer limit becomes that maximum.
 */
function sdkTimeout(ms: number): number {
  return Math.min(ms, MAX_TIMER_DELAY_MS);
}
