import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError, type ToolCallback, type ToolSource } from '../../index.js';
import { environmentSecrets, redactCredentials } from '../../internal/redact-credentials.js';
import {
  assertUniqueToolNames,
  type CollectedToolSources,
  collectToolSources,
  resolveToolCallbacks,
} from '../../tools/index.js';
import {
  bearerToken,
  isLoopbackAddress,
  isLoopbackHost,
  LOOPBACK_HOSTS,
  LOOPBACK_ORIGINS,
  refusedHostOrOrigin,
} from './http-request-guard.js';
import { bindMcpExchange, type McpExchange } from './mcp-exchange.js';
import type { McpPrincipal } from './mcp-principal.js';
import { McpStdioTransport } from './mcp-stdio-transport.js';
import { runServedTool } from './run-served-tool.js';
import { redirectStdoutToStderr } from './stdout-to-stderr.js';

/** Bearer-token authentication of the HTTP transport. */
export interface McpServerAuthOptions {
  /**
   * Checks a bearer token (signature, expiry, audience: the server must accept only tokens issued
   * for it) and returns its principal, or `undefined` to refuse it (HTTP 401).
   */
  verifyToken: (token: string) => McpPrincipal | undefined | Promise<McpPrincipal | undefined>;
  /** Scopes a principal needs per tool (all listed); tools not listed need none. */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
}

/** Options of {@link McpToolServer}. */
export interface McpToolServerOptions {
  /**
   * The tools to serve: callbacks, `tool()`s, objects with `@tool`/`@mcpTool` methods, providers.
   * Names must be unique: the constructor throws for a clash among those given directly, and a
   * listing fails for one a provider brings.
   */
  tools: readonly ToolSource[];
  /** `serverInfo` of the handshake. Defaults `toolloop-mcp-server` and `0.1.0`. */
  name?: string;
  version?: string;
  /** `instructions` of the handshake. */
  instructions?: string;
  /**
   * The tool context of each call, from the authenticated principal (`undefined` without auth
   * and over stdio); never from anything the client sends. Default `{ principal }` (or `{}`).
   */
  toolContext?: (principal: McpPrincipal | undefined) => Record<string, unknown>;
  /** Bearer authentication for HTTP (off by default: bind to loopback then). */
  auth?: McpServerAuthOptions;
  /**
   * Serve clients on other machines without `auth`. Default `false`: without `auth`, `listen()`
   * refuses a host other than loopback, and `handleRequest` answers HTTP 403 to a request whose
   * connection comes from another address (the `Host` check alone does not stop a non-browser
   * client, which can send any `Host`). A request through a reverse proxy on this machine comes
   * from loopback: the proxy must authenticate.
   */
  allowUnauthenticated?: boolean;
  /**
   * `Host` names accepted over HTTP (an entry without a port matches any port). Default the
   * loopback names `127.0.0.1`, `localhost`, `[::1]`; an empty list refuses every request.
   */
  allowedHosts?: readonly string[];
  /**
   * `Origin`s accepted over HTTP; requests without an `Origin` (non-browser clients) pass.
   * Default the loopback origins; an empty list refuses every request that has an `Origin`.
   */
  allowedOrigins?: readonly string[];
  /** Largest request body accepted (HTTP 413 above). Default 1 MiB. */
  maxBodyBytes?: number;
  /** Most HTTP sessions open at once (HTTP 503 and a JSON-RPC error for more). Default 100. */
  maxSessions?: number;
  /** Close an HTTP session unused for this long. Default 10 minutes. */
  sessionIdleMs?: number;
  /**
   * Most tool calls running at once, over every session and connection; a call over the cap is
   * refused at once with a JSON-RPC error (code -32010, "Server busy"). A call counts until its
   * tool really finishes (a tool that ignores its abort signal holds its place). Default 32.
   */
  maxConcurrentTools?: number;
  /**
   * Timeout of a tool without its own `metadata.timeoutMs`: its signal is aborted and the client
   * gets an `isError` result saying it timed out. Default 300,000 ms (5 minutes).
   */
  toolTimeoutMs?: number;
  /**
   * Applied to every error text a client receives (a tool's exception message, a failure to list
   * the tools), for example to strip what your tools' errors may carry. Default: credentials in
   * URLs (`postgres://app:***@db`), `Bearer` / `Basic` credentials, `key=value` pairs named like
   * a credential, tokens of well-known forms (API keys of common services, JWTs), and the values
   * of this process's environment variables named like a credential (`*_KEY`, `*_TOKEN`,
   * `*_SECRET`, `*_PASSWORD`, …) are replaced by `***`.
   */
  redactErrorText?: (text: string, toolName: string | undefined) => string;
}

/** JSON-RPC error code of a call refused because `maxConcurrentTools` calls are running. */
export const SERVER_BUSY_ERROR_CODE = -32010;

/** The HTTP request a JSON-RPC message arrived with: aborted when its client goes away. */
const httpRequestScope = new AsyncLocalStorage<AbortSignal>();

interface HttpSession {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  readonly principalId: string | undefined;
  lastSeen: number;
}

const MCP_PATH = '/mcp';

/**
 * Serves toolloop tools to MCP clients, over stdio and Streamable HTTP, on the official SDK's
 * `Server` and transports: the tools' names, descriptions and JSON Schemas as the model path
 * uses them, their behaviour metadata as annotations (`readOnly` → `readOnlyHint`,
 * `destructive` → `destructiveHint`, `idempotent` → `idempotentHint`, `openWorld` →
 * `openWorldHint`), a tool's output schema as `outputSchema`, and their results as MCP content:
 * text, a `toolResult()`'s parts as image, audio, resource and resource-link blocks, structured
 * content (checked against the output schema) as `structuredContent` (`mcpToolResult` gives raw
 * blocks).
 * `returnDirect` means nothing to an MCP client and is ignored. A tool's error or invalid
 * arguments come back as an `isError` result; an unknown tool as a JSON-RPC error.
 *
 * Over HTTP every session gets its own SDK server and transport (sharing one across clients
 * misroutes responses), with these defaults: `listen()` binds 127.0.0.1 (another host needs
 * `auth` or `allowUnauthenticated`); without `auth`, a request whose connection comes from
 * another machine is refused (403); `Host` and `Origin` must be loopback names (HTTP 403
 * otherwise: DNS rebinding); bodies over 1 MiB are refused (413); at most 100 sessions (503),
 * closed after 10 idle minutes; with `auth`, every request needs a valid bearer token (401), a
 * session belongs to the principal that opened it (another principal gets 404), and a tool with
 * `toolScopes` is listed and callable only with those scopes. Session ids are 128-bit random.
 *
 * On every transport: at most 32 tool calls run at once (more are refused with a JSON-RPC
 * error), each has a timeout (its own `timeoutMs`, else 5 minutes), its signal aborts when the
 * client cancels (`notifications/cancelled`) or disconnects, and error texts pass through
 * `redactErrorText` (credentials stripped by default).
 */
export class McpToolServer {
  readonly #sources: CollectedToolSources;
  readonly #name: string;
  readonly #version: string;
  readonly #instructions: string | undefined;
  readonly #toolContext: (principal: McpPrincipal | undefined) => Record<string, unknown>;
  readonly #auth: McpServerAuthOptions | undefined;
  readonly #allowedHosts: readonly string[];
  readonly #allowedOrigins: readonly string[];
  readonly #maxBodyBytes: number;
  readonly #maxSessions: number;
  readonly #sessionIdleMs: number;
  readonly #allowUnauthenticated: boolean;
  readonly #toolScopes: ReadonlyMap<string, readonly string[]>;
  readonly #maxConcurrentTools: number;
  readonly #toolTimeoutMs: number;
  readonly #redact: (text: string, toolName: string | undefined) => string;
  #runningTools = 0;
  readonly #sessions = new Map<string, HttpSession>();
  readonly #servers = new Set<Server>();
  readonly #httpServers = new Set<HttpServer>();
  #sweeper: NodeJS.Timeout | undefined;

  constructor(options: McpToolServerOptions) {
    if (typeof options !== 'object' || options === null || !Array.isArray(options.tools)) {
      throw new InvalidArgumentError('McpToolServer needs options with a tools array');
    }
    this.#sources = collectToolSources(options.tools);
    // Known now: a clash among them would fail every tools/list, so the server must not start.
    assertUniqueToolNames(this.#sources.callbacks, 'the MCP server');
    this.#name = options.name ?? 'toolloop-mcp-server';
    this.#version = options.version ?? '0.1.0';
    this.#instructions = options.instructions;
    this.#toolContext =
      options.toolContext ?? ((principal) => (principal === undefined ? {} : { principal }));
    this.#auth = options.auth;
    if (this.#auth !== undefined && typeof this.#auth.verifyToken !== 'function') {
      throw new InvalidArgumentError('auth.verifyToken must be a function');
    }
    this.#allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
    this.#allowedOrigins = options.allowedOrigins ?? LOOPBACK_ORIGINS;
    this.#maxBodyBytes = positiveInteger(options.maxBodyBytes, 1024 * 1024, 'maxBodyBytes');
    this.#maxSessions = positiveInteger(options.maxSessions, 100, 'maxSessions');
    this.#sessionIdleMs = positiveInteger(options.sessionIdleMs, 10 * 60_000, 'sessionIdleMs');
    this.#allowUnauthenticated = options.allowUnauthenticated === true;
    this.#toolScopes = scopesByTool(this.#auth?.toolScopes);
    this.#maxConcurrentTools = positiveInteger(
      options.maxConcurrentTools,
      32,
      'maxConcurrentTools',
    );
    this.#toolTimeoutMs = positiveInteger(options.toolTimeoutMs, 300_000, 'toolTimeoutMs');
    if (options.redactErrorText !== undefined && typeof options.redactErrorText !== 'function') {
      throw new InvalidArgumentError('redactErrorText must be a function');
    }
    const secrets = environmentSecrets();
    this.#redact = options.redactErrorText ?? ((text) => redactCredentials(text, secrets));
  }

  /** Number of tool calls running now (see `maxConcurrentTools`). */
  get runningToolCount(): number {
    return this.#runningTools;
  }

  /** Number of open HTTP sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * Serves one client over this process's stdin and stdout (or the given streams); resolves once
   * connected. While it serves on this process's stdout, everything else written to stdout
   * (`console.log`, `console.info`, `console.debug`, `process.stdout.write` in a tool) goes to
   * stderr, so that nothing but protocol messages reaches the client; stdout is restored when
   * the connection closes (stdin ends, or `close()`). A line over `maxMessageBytes` (default
   * 10 MiB) is dropped with a message on stderr and a JSON-RPC error to the client, and the
   * server goes on serving.
   */
  async connectStdio(
    streams: {
      stdin?: NodeJS.ReadableStream;
      stdout?: NodeJS.WritableStream;
      maxMessageBytes?: number;
    } = {},
  ): Promise<void> {
    const stdin = streams.stdin ?? process.stdin;
    const stdout = streams.stdout ?? process.stdout;
    const channel =
      stdout === process.stdout
        ? redirectStdoutToStderr()
        : {
            write: (text: string) =>
              new Promise<void>((resolve) => {
                if (stdout.write(text)) resolve();
                else stdout.once('drain', () => resolve());
              }),
            restore: () => {},
          };
    const transport = new McpStdioTransport(stdin, {
      write: channel.write,
      ...(streams.maxMessageBytes === undefined
        ? {}
        : { maxMessageBytes: streams.maxMessageBytes }),
      onDropped: (reason) => process.stderr.write(`toolloop MCP server: ${reason}\n`),
    });
    const server = this.#createSdkServer();
    const closed = server.onclose;
    server.onclose = () => {
      channel.restore();
      closed?.();
    };
    try {
      await server.connect(transport);
    } catch (error) {
      channel.restore();
      throw error;
    }
  }

  /** Serves one client over any SDK server transport. */
  async connect(transport: Transport): Promise<void> {
    await this.#createSdkServer().connect(transport);
  }

  /**
   * The Streamable HTTP endpoint as a Node request handler, for `node:http`, Express
   * (`app.all('/mcp', server.handleRequest)`), Fastify (`reply.raw`) or Koa (`ctx.req`, `ctx.res`).
   * Applies every HTTP default listed on the class.
   */
  readonly handleRequest = async (
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<void> => {
    try {
      await this.#handle(request, response);
    } catch (error) {
      if (!response.headersSent) sendError(response, 500, 'Internal server error');
      else response.end();
      void error;
    }
  };

  /**
   * Starts an HTTP server with the endpoint at `/mcp`, on 127.0.0.1 and a free port unless told
   * otherwise. Another interface needs `auth` (or `allowUnauthenticated: true`), emits a
   * `McpServerWarning`, and needs the host names clients use in `allowedHosts`.
   */
  async listen(
    options: { port?: number; host?: string } = {},
  ): Promise<{ url: URL; close: () => Promise<void> }> {
    const host = options.host ?? '127.0.0.1';
    if (!isLoopbackHost(host)) {
      if (this.#auth === undefined && !this.#allowUnauthenticated) {
        throw new InvalidArgumentError(
          `McpToolServer will not listen on ${host} (reachable from other machines) without auth; give auth (a bearer token check) or allowUnauthenticated: true`,
        );
      }
      process.emitWarning(
        `McpToolServer listens on ${host}, reachable from other machines${this.#auth === undefined ? ', WITHOUT authentication' : ''}`,
        'McpServerWarning',
      );
    }
    const httpServer = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      if (path !== MCP_PATH) {
        sendError(response, 404, 'Not found');
        return;
      }
      void this.handleRequest(request, response);
    });
    this.#httpServers.add(httpServer);
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(options.port ?? 0, host, () => resolve());
    });
    const { port } = httpServer.address() as AddressInfo;
    const urlHost = host.includes(':') ? `[${host}]` : host;
    return {
      url: new URL(`http://${urlHost}:${port}${MCP_PATH}`),
      close: () => this.#closeHttpServer(httpServer),
    };
  }

  /** Closes every session, stdio connection and server started by `listen()`. */
  /**
   * Tells every connected client that the tool list changed (`notifications/tools/list_changed`),
   * so a client that caches the list (toolloop's does) lists the tools again. Call it after the
   * tools a provider brings have changed: the server lists its tools anew on every `tools/list`,
   * but clients only ask when told. Over HTTP the notice reaches a session through its
   * server-to-client stream (the `GET` the client opens); a client without one learns of the
   * change on its next listing. Never throws: a client gone since is skipped.
   */
  async notifyToolsListChanged(): Promise<void> {
    await Promise.all(
      [...this.#servers].map((server) => server.sendToolListChanged().catch(() => undefined)),
    );
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    await Promise.all([...this.#httpServers].map((server) => this.#closeHttpServer(server)));
    await Promise.all([...this.#servers].map((server) => server.close().catch(() => {})));
    this.#sessions.clear();
  }

  async #closeHttpServer(httpServer: HttpServer): Promise<void> {
    this.#httpServers.delete(httpServer);
    for (const [id, session] of this.#sessions) {
      this.#sessions.delete(id);
      await session.server.close().catch(() => {});
    }
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const refused = refusedHostOrOrigin(request, this.#allowedHosts, this.#allowedOrigins);
    if (refused !== undefined) {
      sendError(response, 403, `Forbidden: ${refused}`);
      return;
    }
    const remote = request.socket?.remoteAddress;
    if (
      this.#auth === undefined &&
      !this.#allowUnauthenticated &&
      remote !== undefined &&
      !isLoopbackAddress(remote)
    ) {
      sendError(
        response,
        403,
        'Forbidden: this server accepts requests from other machines only with authentication',
      );
      request.resume();
      return;
    }
    let principal: McpPrincipal | undefined;
    if (this.#auth !== undefined) {
      const token = bearerToken(request);
      principal = token === undefined ? undefined : await this.#auth.verifyToken(token);
      if (principal === undefined || typeof principal.id !== 'string') {
        response.setHeader('www-authenticate', 'Bearer');
        // Worded so that credential redaction (which masks the word after "Bearer" or "token",
        // toolloop's client included) leaves the reason readable.
        sendError(
          response,
          401,
          'Unauthorized: send a valid access credential in the Authorization header (scheme: Bearer)',
        );
        return;
      }
      (request as IncomingMessage & { auth?: AuthInfo }).auth = {
        token: token as string,
        clientId: principal.id,
        scopes: [...(principal.scopes ?? [])],
        extra: { principal },
      };
    }
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > this.#maxBodyBytes) {
      sendError(response, 413, `Payload too large: the limit is ${this.#maxBodyBytes} bytes`);
      request.resume();
      return;
    }
    const sessionId = headerValue(request.headers['mcp-session-id']);
    if (sessionId !== undefined) {
      const session = this.#sessions.get(sessionId);
      if (session === undefined || session.principalId !== principal?.id) {
        sendError(response, 404, 'Session not found');
        request.resume();
        return;
      }
      session.lastSeen = Date.now();
      await this.#inRequestScope(response, () =>
        session.transport.handleRequest(request, response),
      );
      return;
    }
    if (request.method !== 'POST') {
      sendError(response, 400, 'Bad request: no Mcp-Session-Id; start a session with initialize');
      request.resume();
      return;
    }
    if (this.#sessions.size >= this.#maxSessions) {
      sendError(
        response,
        503,
        `Too many sessions: ${this.#maxSessions} are open (maxSessions); close one or try again later`,
      );
      request.resume();
      return;
    }
    await this.#startSession(request, response, principal);
  }

  async #startSession(
    request: IncomingMessage,
    response: ServerResponse,
    principal: McpPrincipal | undefined,
  ): Promise<void> {
    const server = this.#createSdkServer();
    let session: HttpSession | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomBytes(16).toString('hex'),
      maxRequestBodySize: this.#maxBodyBytes,
      onsessioninitialized: (id) => {
        session = { server, transport, principalId: principal?.id, lastSeen: Date.now() };
        this.#sessions.set(id, session);
        this.#startSweeper();
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && this.#sessions.get(id) === session) this.#sessions.delete(id);
    };
    await server.connect(transport);
    await this.#inRequestScope(response, () => transport.handleRequest(request, response));
    if (session === undefined) await server.close().catch(() => {});
  }

  /**
   * Runs the transport's handling of one HTTP request in a scope whose signal aborts when the
   * client goes away before its answer was sent: the tool calls it carried are aborted.
   */
  #inRequestScope(response: ServerResponse, handle: () => Promise<void>): Promise<void> {
    const controller = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) {
        controller.abort(new Error('The MCP client closed the HTTP connection'));
      }
    });
    return httpRequestScope.run(controller.signal, handle);
  }

  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    this.#sweeper = setInterval(
      () => {
        const now = Date.now();
        for (const [id, session] of this.#sessions) {
          if (now - session.lastSeen < this.#sessionIdleMs) continue;
          this.#sessions.delete(id);
          void session.server.close().catch(() => {});
        }
        if (this.#sessions.size === 0) {
          clearInterval(this.#sweeper);
          this.#sweeper = undefined;
        }
      },
      Math.min(this.#sessionIdleMs, 60_000),
    );
    this.#sweeper.unref();
  }

  #createSdkServer(): Server {
    const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
    const server = new Server(
      { name: this.#name, version: this.#version },
      {
        capabilities,
        ...(this.#instructions === undefined ? {} : { instructions: this.#instructions }),
      },
    );
    this.#servers.add(server);
    server.onclose = () => this.#servers.delete(server);
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      const principal = principalOf(extra.authInfo);
      const tools = await this.#redacted(undefined, () => this.#tools());
      return { tools: tools.filter((tool) => this.#permitted(tool, principal)).map(toMcpTool) };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const principal = principalOf(extra.authInfo);
      const name = request.params.name;
      const callback = (await this.#redacted(name, () => this.#tools())).find(
        (tool) => tool.definition.name === name,
      );
      if (callback === undefined) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      }
      if (!this.#permitted(callback, principal)) {
        const needed = this.#toolScopes.get(name) ?? [];
        throw new McpError(
          ErrorCode.InvalidRequest,
          `Tool '${name}' needs the scope(s): ${needed.join(', ')}`,
        );
      }
      if (this.#runningTools >= this.#maxConcurrentTools) {
        throw new McpError(
          SERVER_BUSY_ERROR_CODE,
          `Server busy: ${this.#maxConcurrentTools} tool calls are running (maxConcurrentTools); try again later`,
        );
      }
      this.#runningTools++;
      let settled = false;
      const exchange: McpExchange = {
        sessionId: extra.sessionId,
        principal,
        log: (level, data, logger) =>
          extra.sendNotification({
            method: 'notifications/message',
            params: { level, data, ...(logger === undefined ? {} : { logger }) },
          }),
        progress: async (progress, total, message) => {
          const progressToken = extra._meta?.progressToken;
          if (progressToken === undefined) return;
          await extra.sendNotification({
            method: 'notifications/progress',
            params: {
              progressToken,
              progress,
              ...(total === undefined ? {} : { total }),
              ...(message === undefined ? {} : { message }),
            },
          });
        },
        createMessage: (params) =>
          extra.sendRequest(
            { method: 'sampling/createMessage', params },
            CreateMessageResultSchema,
          ),
        elicitInput: (params) =>
          extra.sendRequest({ method: 'elicitation/create', params }, ElicitResultSchema),
      };
      const disconnect = httpRequestScope.getStore();
      return await runServedTool(callback, request.params.arguments ?? {}, {
        context: {
          context: Object.freeze({ ...this.#toolContext(principal) }),
          toolCallId: String(extra.requestId),
        },
        signals: disconnect === undefined ? [extra.signal] : [extra.signal, disconnect],
        timeoutMs: callback.metadata.timeoutMs ?? this.#toolTimeoutMs,
        redact: (text) => this.#redact(text, name),
        bind: (context) => bindMcpExchange(context, exchange),
        onSettled: () => {
          if (settled) return;
          settled = true;
          this.#runningTools--;
        },
      });
    });
    return server;
  }

  async #tools(): Promise<ToolCallback[]> {
    const tools = await resolveToolCallbacks(this.#sources);
    assertUniqueToolNames(tools, 'the MCP server');
    return tools;
  }

  /** Runs `list`, answering a failure with a JSON-RPC error whose text went through the hook. */
  async #redacted<T>(toolName: string | undefined, list: () => Promise<T>): Promise<T> {
    try {
      return await list();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new McpError(ErrorCode.InternalError, this.#redact(message, toolName));
    }
  }

  #permitted(tool: ToolCallback, principal: McpPrincipal | undefined): boolean {
    const needed = this.#toolScopes.get(tool.definition.name);
    if (needed === undefined || needed.length === 0) return true;
    const granted = new Set(principal?.scopes ?? []);
    return needed.every((scope) => granted.has(scope));
  }
}

function toMcpTool(callback: ToolCallback): Tool {
  const { name, description, inputSchema, outputSchema } = callback.definition;
  const metadata = callback.metadata;
  const annotations: NonNullable<Tool['annotations']> = {};
  if (typeof metadata.readOnly === 'boolean') annotations.readOnlyHint = metadata.readOnly;
  if (typeof metadata.destructive === 'boolean') annotations.destructiveHint = metadata.destructive;
  if (typeof metadata.idempotent === 'boolean') annotations.idempotentHint = metadata.idempotent;
  if (typeof metadata.openWorld === 'boolean') annotations.openWorldHint = metadata.openWorld;
  return {
    name,
    description,
    inputSchema: inputSchema as Tool['inputSchema'],
    ...(outputSchema === undefined ? {} : { outputSchema: outputSchema as Tool['outputSchema'] }),
    ...(Object.keys(annotations).length === 0 ? {} : { annotations }),
  };
}

/** `toolScopes` as a map, so a tool named `constructor` or `__proto__` finds its own entry. */
function scopesByTool(
  toolScopes: Readonly<Record<string, readonly string[]>> | undefined,
): ReadonlyMap<string, readonly string[]> {
  const scopes = new Map<string, readonly string[]>();
  if (toolScopes === undefined) return scopes;
  if (typeof toolScopes !== 'object' || toolScopes === null) {
    throw new InvalidArgumentError('auth.toolScopes must map tool names to arrays of scopes');
  }
  for (const [name, needed] of Object.entries(toolScopes)) {
    if (!Array.isArray(needed) || !needed.every((scope) => typeof scope === 'string')) {
      throw new InvalidArgumentError(`auth.toolScopes['${name}'] must be an array of scopes`);
    }
    scopes.set(name, Object.freeze([...needed]));
  }
  return scopes;
}

function positiveInteger(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError(`${what} must be a positive integer`);
  }
  return value;
}

function principalOf(authInfo: AuthInfo | undefined): McpPrincipal | undefined {
  return authInfo?.extra?.principal as McpPrincipal | undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function sendError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
