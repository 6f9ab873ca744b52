import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type AdvisorEntry, AdvisorParams, ChatClient } from '../client/index.js';
import type { EmbeddingModel } from '../embeddings/embedding-model.js';
import type { ToolEmbeddingCache } from '../embeddings/tool-embedding-cache.js';
import { InvalidArgumentError } from '../errors/index.js';
import { isMissingPackage } from '../internal/import-needing-peer.js';
import type { McpConnectionConfig, McpToolCallbackProvider, McpToolFilter } from '../mcp/index.js';
import {
  type ChatMemoryRepository,
  InMemoryChatMemoryRepository,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
} from '../memory/index.js';
import type { ChatModel } from '../model/index.js';
import {
  type DebugLogger,
  debugLogListener,
  type TurnEventListener,
} from '../observability/index.js';
import {
  createToolCallingManager,
  ToolCallingAdvisor,
  type ToolCallingManager,
} from '../tool-calling/index.js';
import {
  Bm25ToolIndex,
  HybridToolIndex,
  LexicalToolIndex,
  RegexToolIndex,
  type ToolIndex,
  ToolSearchToolCallingAdvisor,
  VectorToolIndex,
} from '../tool-search/index.js';
import type { ToolCallbackResolver, ToolSource } from '../tools/index.js';
import { ChatModelRegistry } from './chat-model-registry.js';
import type { ToolloopConfig } from './toolloop-config.js';
import { turnEventFileAppender } from './turn-event-file-appender.js';

/** What only code can give: objects and functions a config file cannot hold. */
export interface ChatClientFromConfigOptions {
  /** Use this model instead of the one the config names. */
  chatModel?: ChatModel;
  /**
   * Resolves `toolloop.model`; default a new {@link ChatModelRegistry} (openai, openai-responses,
   * anthropic, google).
   */
  registry?: ChatModelRegistry;
  /** The environment the provider reads `OPENAI_*` / `ANTHROPIC_*` from; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Local tools, offered with the MCP servers' tools on every request. */
  tools?: readonly ToolSource[];
  /** Looks up unattached tools when `spring.ai.tools.resolution.fallback.enabled` is true. */
  toolCallbackResolver?: ToolCallbackResolver;
  /** Needed by `tool-index-type=vector` and `tool-index-type=hybrid`. */
  embeddingModel?: EmbeddingModel;
  /**
   * With `tool-index-type=vector` or `hybrid`: the shared store of tool embeddings (say a
   * `SqliteToolEmbeddingCache`), so processes embed a library once.
   */
  embeddingCache?: ToolEmbeddingCache;
  /** Applied after `toolloop.mcp.include-tools` / `exclude-tools`. */
  mcpToolFilter?: McpToolFilter;
  /** Use this repository instead of the store the config names. */
  memoryRepository?: ChatMemoryRepository;
  /** Turn event listeners of the client, besides the ones the config switches on. */
  listeners?: readonly TurnEventListener[];
  /**
   * Where `toolloop.observability.debug-log=true` writes; default standard error. A pino or
   * bunyan logger can be passed as it is.
   */
  debugLogger?: DebugLogger;
  /**
   * Makes the tool loop advisor instead of the configured `ToolCallingAdvisor` /
   * `ToolSearchToolCallingAdvisor`, from the configured manager: the place for a custom
   * `ToolCallingAdvisor` subclass (Spring AI's `ToolCallingAdvisor.Builder<?>` bean).
   */
  toolCallingAdvisorFactory?: (
    toolCallingManager: ToolCallingManager,
    config: ToolloopConfig,
  ) => ToolCallingAdvisor;
  /** Directory relative file paths (SQLite file, MCP servers file) are resolved against. */
  cwd?: string;
}

/** A chat client built from a config, with the parts it was built from. */
export interface ConfiguredChatClient {
  readonly client: ChatClient;
  readonly chatModel: ChatModel;
  readonly toolCallingManager: ToolCallingManager;
  /** The tool loop advisor: a `ToolSearchToolCallingAdvisor` when tool search is enabled. */
  readonly toolCallingAdvisor: ToolCallingAdvisor;
  /** Set when a memory store is configured; the client then has its `MessageChatMemoryAdvisor`. */
  readonly chatMemory: MessageWindowChatMemory | undefined;
  /** Set when MCP servers are configured; already among the client's default tools. */
  readonly mcpTools: McpToolCallbackProvider | undefined;
  /** Stops the MCP servers and closes the database connections this call opened. */
  close(): Promise<void>;
}

/**
 * Builds a ready {@link ChatClient} from a {@link ToolloopConfig}: the chat model (from
 * `toolloop.model` or `spring.ai.model.chat`, through the registry), the tool calling manager
 * (limits, exception handling, resolution fallback, concurrency, timeouts), the tool loop
 * advisor or the tool search advisor, chat memory on the configured store (in memory, SQLite,
 * Redis or PostgreSQL; the client then expects a conversation id per request:
 * `.advisors((a) => a.param(CONVERSATION_ID, id))`), and the MCP servers' tools as default
 * tools, and the turn event listeners `toolloop.observability.*` switches on (debug log,
 * OpenTelemetry, a recording file), which include tool arguments and results only when
 * `spring.ai.tools.observations.include-content` is true. Optional packages (`better-sqlite3`,
 * `ioredis`, `pg`, the MCP SDK, `@opentelemetry/api`) are imported only when the config uses
 * them. Nothing is shared between calls: call `close()` when done (it also waits for the
 * recording's writes).
 */
export async function chatClientFromConfig(
  config: ToolloopConfig,
  options: ChatClientFromConfigOptions = {},
): Promise<ConfiguredChatClient> {
  const closers: (() => Promise<void> | void)[] = [];
  const close = async (): Promise<void> => {
    const results = await Promise.allSettled(
      closers
        .splice(0)
        .reverse()
        .map((fn) => fn()),
    );
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  };
  try {
    const chatModel = options.chatModel ?? (await modelFromConfig(config, options));
    const toolCallingManager = managerFromConfig(config, options);
    const toolCallingAdvisor = options.toolCallingAdvisorFactory
      ? options.toolCallingAdvisorFactory(toolCallingManager, config)
      : toolAdvisorFromConfig(config, toolCallingManager, options);
    if (!(toolCallingAdvisor instanceof ToolCallingAdvisor)) {
      throw new InvalidArgumentError('toolCallingAdvisorFactory must return a ToolCallingAdvisor');
    }
    const repository =
      options.memoryRepository ?? (await repositoryFromConfig(config, options, closers));
    const chatMemory =
      repository === undefined
        ? undefined
        : new MessageWindowChatMemory({ repository, maxMessages: config.memory.maxMessages });
    const mcpTools = await mcpToolsFromConfig(config, {
      ...(options.mcpToolFilter ? { toolFilter: options.mcpToolFilter } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    if (mcpTools !== undefined) closers.push(() => mcpTools.close());
    const advisors: AdvisorEntry[] = [];
    if (chatMemory !== undefined) {
      advisors.push(
        new MessageChatMemoryAdvisor({ chatMemory, order: config.memory.advisorOrder }),
      );
    }
    if (!config.chatClient.toolCalling.enabled) {
      advisors.push(AdvisorParams.toolCallingAdvisorAutoRegister(false));
    }
    const listeners = await listenersFromConfig(config, options, closers);
    const client = ChatClient.create(chatModel, {
      ...(config.chatClient.system === undefined ? {} : { system: config.chatClient.system }),
      tools: [...(options.tools ?? []), ...(mcpTools === undefined ? [] : [mcpTools])],
      advisors,
      toolCallingAdvisor,
      ...(listeners.length === 0 ? {} : { listeners }),
    });
    return {
      client,
      chatModel,
      toolCallingManager,
      toolCallingAdvisor,
      chatMemory,
      mcpTools,
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** Providers Spring AI's `spring.ai.model.chat` names otherwise than toolloop's registry. */
const SPRING_PROVIDER_NAMES: Readonly<Record<string, string>> = { 'google-genai': 'google' };
/**
 * Providers that take another provider's settings under their own: the Responses API model
 * connects with `spring.ai.openai.*` unless `toolloop.providers.openai-responses.*` says otherwise.
 */
const SETTINGS_FROM: Readonly<Record<string, string>> = { 'openai-responses': 'openai' };

async function modelFromConfig(
  config: ToolloopConfig,
  options: ChatClientFromConfigOptions,
): Promise<ChatModel> {
  const id = config.model ?? config.chatProvider;
  if (id === undefined) {
    throw new InvalidArgumentError(
      "no model configured: set toolloop.model (e.g. 'openai:gpt-4.1-mini') or spring.ai.model.chat, or pass the chatModel option",
    );
  }
  const registry = options.registry ?? new ChatModelRegistry();
  const named = config.model === undefined ? (SPRING_PROVIDER_NAMES[id] ?? id) : id;
  const provider = named.split(':')[0]!.trim().toLowerCase();
  const inherited = SETTINGS_FROM[provider];
  const settings = {
    ...(inherited === undefined ? {} : config.providers[inherited]),
    ...config.providers[provider],
  };
  return registry.create(named, { ...settings, ...(options.env ? { env: options.env } : {}) });
}

function managerFromConfig(
  config: ToolloopConfig,
  options: ChatClientFromConfigOptions,
): ToolCallingManager {
  const { tools } = config;
  return createToolCallingManager({
    throwExceptionOnError: tools.throwExceptionOnError,
    resolutionFallbackEnabled: tools.resolutionFallbackEnabled,
    ...(options.toolCallbackResolver ? { toolCallbackResolver: options.toolCallbackResolver } : {}),
    limits: {
      maxCallsPerTool: tools.limits.maxCallsPerToolDefault,
      perTool: tools.limits.maxCallsPerTool,
      excludedTools: tools.limits.excludedTools,
      maxTotalToolCalls: tools.limits.maxTotalToolCalls,
      onLimitExceeded: tools.limits.onLimitExceeded,
    },
    onUnknownTool: tools.onUnknownTool,
    maxConcurrency: tools.maxConcurrency,
    ...(tools.defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs: tools.defaultTimeoutMs }),
    maxArgumentBytes: tools.maxArgumentBytes,
    maxResultBytes: tools.maxResultBytes,
  });
}

function toolAdvisorFromConfig(
  config: ToolloopConfig,
  toolCallingManager: ToolCallingManager,
  options: ChatClientFromConfigOptions,
): ToolCallingAdvisor {
  const { toolCalling, toolSearchAdvisor: search } = config.chatClient;
  if (!search.enabled) {
    return new ToolCallingAdvisor({
      toolCallingManager,
      order: toolCalling.advisorOrder,
      maxIterations: toolCalling.maxIterations,
    });
  }
  return new ToolSearchToolCallingAdvisor({
    toolCallingManager,
    order: search.advisorOrder,
    maxIterations: toolCalling.maxIterations,
    toolIndex: toolIndexFromConfig(config, options),
    ...(search.maxResults === undefined ? {} : { maxResults: search.maxResults }),
    sessionIdKeyName: search.sessionIdKeyName,
    referenceToolNameAccumulation: search.referenceToolNameAccumulation,
    ...(search.systemMessageSuffix === undefined
      ? {}
      : { systemMessageSuffix: search.systemMessageSuffix }),
    eviction: {
      maxSessions: search.eviction.lruMaxSessions,
      ...(search.eviction.ttlMs === undefined ? {} : { ttlMs: search.eviction.ttlMs }),
    },
  });
}

function toolIndexFromConfig(
  config: ToolloopConfig,
  options: ChatClientFromConfigOptions,
): ToolIndex {
  const search = config.chatClient.toolSearchAdvisor;
  switch (search.toolIndexType) {
    case 'regex':
      return new RegexToolIndex();
    case 'lucene':
      return new Bm25ToolIndex({ minScore: search.lucene.minScoreThreshold });
    case 'bm25':
      return new Bm25ToolIndex();
    case 'lexical':
      return new LexicalToolIndex();
    case 'vector':
    case 'hybrid': {
      const { embeddingModel, embeddingCache } = options;
      if (embeddingModel === undefined) {
        throw new InvalidArgumentError(
          `spring.ai.chat.client.tool-search-advisor.tool-index-type=${search.toolIndexType} needs the embeddingModel option`,
        );
      }
      const semantic = {
        embeddingModel,
        ...(embeddingCache === undefined ? {} : { embeddingCache }),
      };
      return search.toolIndexType === 'vector'
        ? new VectorToolIndex(semantic)
        : new HybridToolIndex(semantic);
    }
  }
}

/**
 * The turn event listeners the config switches on (`toolloop.observability.*`), each told by
 * `spring.ai.tools.observations.include-content` whether tool arguments and results go in,
 * after the ones passed in code. The OpenTelemetry listener is imported only when asked for, so
 * `toolloop/config` loads without `@opentelemetry/api`.
 */
async function listenersFromConfig(
  config: ToolloopConfig,
  options: ChatClientFromConfigOptions,
  closers: (() => Promise<void> | void)[],
): Promise<TurnEventListener[]> {
  const { observability } = config;
  const includeContent = config.tools.observations.includeContent;
  const listeners = [...(options.listeners ?? [])];
  if (observability.debugLog) {
    listeners.push(
      debugLogListener({
        ...(options.debugLogger ? { logger: options.debugLogger } : {}),
        logContent: includeContent,
      }),
    );
  }
  if (observability.openTelemetry) {
    await importPeer('@opentelemetry/api', 'toolloop.observability.open-telemetry=true');
    const { openTelemetryListener } = await import('../otel/entry.js');
    const id = config.model ?? config.chatProvider;
    listeners.push(
      openTelemetryListener({
        recordContent: includeContent,
        ...(id === undefined || options.chatModel !== undefined
          ? {}
          : { providerName: id.split(':')[0]!.trim().toLowerCase() }),
      }),
    );
  }
  if (observability.recordingFile !== undefined) {
    const appender = turnEventFileAppender(
      resolve(options.cwd ?? process.cwd(), observability.recordingFile),
      { recordContent: includeContent },
    );
    closers.push(() => appender.close());
    listeners.push(appender.listener);
  }
  return listeners;
}

/** Imports an optional driver, or says which package the config needs. */
async function importPeer<T>(specifier: string, why: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    if (isMissingPackage(error, specifier)) {
      throw new InvalidArgumentError(
        `${why} needs the package ${specifier}: npm install ${specifier}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

async function repositoryFromConfig(
  config: ToolloopConfig,
  options: ChatClientFromConfigOptions,
  closers: (() => Promise<void> | void)[],
): Promise<ChatMemoryRepository | undefined> {
  const { memory } = config;
  const why = `toolloop.memory.store=${memory.store}`;
  switch (memory.store) {
    case 'none':
      return undefined;
    case 'in-memory':
      return new InMemoryChatMemoryRepository();
    case 'sqlite': {
      const path = resolve(options.cwd ?? process.cwd(), memory.sqlite.path ?? '');
      const { default: Database } = await importPeer<{
        default: new (
          file: string,
        ) => import('../memory/sqlite/index.js').SqliteDatabase & { close(): void };
      }>('better-sqlite3', why);
      mkdirSync(dirname(path), { recursive: true });
      const database = new Database(path);
      closers.push(() => database.close());
      const { SqliteChatMemoryRepository } = await import('../memory/sqlite/index.js');
      return new SqliteChatMemoryRepository({ database });
    }
    case 'redis': {
      const { Redis } = await importPeer<{
        Redis: new (
          url: string,
        ) => import('../memory/redis/index.js').RedisClient & {
          quit(): Promise<unknown>;
          on(event: 'error', listener: (error: Error) => void): unknown;
        };
      }>('ioredis', why);
      const url = memory.redis.url ?? `redis://${memory.redis.host}:${memory.redis.port ?? 6379}`;
      const client = new Redis(url);
      // ioredis prints every failed (re)connection without a listener; the operations it fails
      // report themselves as MemoryErrors.
      client.on('error', ignoreConnectionError);
      closers.push(async () => {
        await client.quit();
      });
      const { RedisChatMemoryRepository } = await import('../memory/redis/index.js');
      return new RedisChatMemoryRepository({
        client,
        ...(memory.redis.keyPrefix === undefined ? {} : { keyPrefix: memory.redis.keyPrefix }),
      });
    }
    case 'postgres': {
      const pg = await importPeer<{
        default: {
          Pool: new (
            options: Record<string, unknown>,
          ) => import('../memory/postgres/index.js').PostgresPool & {
            end(): Promise<void>;
            on(event: 'error', listener: (error: Error) => void): unknown;
          };
        };
      }>('pg', why);
      const pool = new pg.default.Pool({
        connectionString: memory.postgres.url,
        ...(memory.postgres.username === undefined ? {} : { user: memory.postgres.username }),
        ...(memory.postgres.password === undefined ? {} : { password: memory.postgres.password }),
      });
      // pg emits 'error' on the pool when an idle connection dies (a server restart, an idle
      // timeout), and an unheard 'error' ends the process; the pool drops the connection itself.
      pool.on('error', ignoreConnectionError);
      closers.push(() => pool.end());
      const { PostgresChatMemoryRepository } = await import('../memory/postgres/index.js');
      return new PostgresChatMemoryRepository({
        pool,
        autoMigrate: memory.postgres.autoMigrate,
        ...(memory.postgres.schema === undefined ? {} : { schema: memory.postgres.schema }),
      });
    }
  }
}

/** What the clients made here do with a connection error nobody waits for: nothing. */
function ignoreConnectionError(): void {}

/** The configured MCP connections by name (stdio, the servers file, Streamable HTTP, SSE). */
export function mcpConnectionsFromConfig(
  config: ToolloopConfig,
  cwd: string = process.cwd(),
): Record<string, McpConnectionConfig> {
  const connections: Record<string, McpConnectionConfig> = {};
  const add = (name: string, connection: McpConnectionConfig): void => {
    if (Object.hasOwn(connections, name)) {
      throw new InvalidArgumentError(`two MCP connections are named '${name}'`);
    }
    connections[name] = connection;
  };
  const { mcp } = config;
  for (const [name, server] of Object.entries(mcp.stdio)) {
    add(name, { command: server.command, args: server.args ?? [], env: server.env ?? {} });
  }
  if (mcp.serversConfiguration !== undefined) {
    for (const [name, server] of Object.entries(
      readServersFile(resolve(cwd, mcp.serversConfiguration)),
    )) {
      add(name, server);
    }
  }
  for (const [name, server] of Object.entries(mcp.streamableHttp)) {
    add(name, { url: server.url, ...(server.endpoint ? { endpoint: server.endpoint } : {}) });
  }
  for (const [name, server] of Object.entries(mcp.sse)) {
    add(name, {
      transport: 'sse',
      url: server.url,
      ...(server.endpoint ? { sseEndpoint: server.endpoint } : {}),
    });
  }
  for (const name of mcp.trustedServers) {
    const connection = connections[name];
    if (connection === undefined || !Object.hasOwn(connections, name)) {
      throw new InvalidArgumentError(
        `toolloop.mcp.trusted-servers names '${name}', which is not a configured MCP connection`,
      );
    }
    connections[name] = { ...connection, trusted: true };
  }
  return connections;
}

/** Reads a Claude Desktop style servers file: `{ "mcpServers": { name: { command, args, env } } }`. */
function readServersFile(path: string): Record<string, McpConnectionConfig> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new InvalidArgumentError(
      `spring.ai.mcp.client.stdio.servers-configuration: ${path} is not a readable JSON file`,
      { cause: error },
    );
  }
  const servers = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new InvalidArgumentError(
      `spring.ai.mcp.client.stdio.servers-configuration: ${path} has no "mcpServers" object`,
    );
  }
  return servers as Record<string, McpConnectionConfig>;
}

/** Options of {@link mcpToolsFromConfig}. */
export interface McpToolsFromConfigOptions {
  /** Applied after `toolloop.mcp.include-tools` / `exclude-tools`. */
  toolFilter?: McpToolFilter;
  /** Directory a relative servers-configuration path is resolved against. */
  cwd?: string;
}

/**
 * The configured MCP servers' tools as one `McpToolCallbackProvider` (named, filtered and
 * collision-checked as the config says), or `undefined` when `spring.ai.mcp.client.enabled` is
 * false or no server is configured. Nothing connects until tools are first listed; `close()` it
 * when done. Needs the optional peer `@modelcontextprotocol/sdk`.
 */
export async function mcpToolsFromConfig(
  config: ToolloopConfig,
  options: McpToolsFromConfigOptions = {},
): Promise<McpToolCallbackProvider | undefined> {
  if (!config.mcp.enabled) return undefined;
  const connections = mcpConnectionsFromConfig(config, options.cwd);
  if (Object.keys(connections).length === 0) return undefined;
  await importPeer('@modelcontextprotocol/sdk/client/index.js', 'an MCP connection');
  const { McpToolCallbackProvider } = await import('../mcp/entry.js');
  const { includeTools, excludeTools } = config.mcp;
  const listed = (rules: readonly string[], server: string, tool: string) =>
    rules.includes(tool) || rules.includes(`${server}/${tool}`);
  return new McpToolCallbackProvider({
    connections,
    clientOptions: {
      clientInfo: { name: config.mcp.name, version: config.mcp.version },
      requestTimeoutMs: config.mcp.requestTimeoutMs,
    },
    toolNaming: config.mcp.toolNaming,
    onNameCollision: config.mcp.onNameCollision,
    enabled: config.mcp.toolCallbackEnabled,
    toolFilter: (connection, tool) =>
      (includeTools.length === 0 || listed(includeTools, connection.serverName, tool.name)) &&
      !listed(excludeTools, connection.serverName, tool.name) &&
      (options.toolFilter?.(connection, tool) ?? true),
  });
}
