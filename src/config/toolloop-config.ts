/** A cap on tool calls: a positive integer, or `'unlimited'` (the property value `-1`). */
export type ConfigCallLimit = number | 'unlimited';

/**
 * The connection settings of one model provider (`spring.ai.openai.*`, `spring.ai.anthropic.*`,
 * `spring.ai.google.genai.*`, `toolloop.providers.<name>.*`).
 */
export interface ProviderSettings {
  /** A secret: never printed, never part of an error message. */
  readonly apiKey?: string | undefined;
  readonly baseUrl?: string | undefined;
  /** The model name used when the model id names only the provider (`'openai'`). */
  readonly model?: string | undefined;
  readonly temperature?: number | undefined;
  readonly maxTokens?: number | undefined;
}

/** Per-turn tool call limits (`spring.ai.tools.limits.*`). */
export interface ToolLimitsConfig {
  /** `max-calls-per-tool-default`; default 40. */
  readonly maxCallsPerToolDefault: ConfigCallLimit;
  /** `max-calls-per-tool.<name>`; `'unlimited'` (`-1`) exempts the tool. Default none. */
  readonly maxCallsPerTool: Readonly<Record<string, ConfigCallLimit>>;
  /** `excluded-tools`; default none. */
  readonly excludedTools: readonly string[];
  /** `max-total-tool-calls`; default 150. */
  readonly maxTotalToolCalls: ConfigCallLimit;
  /** `on-limit-exceeded`; default `'THROW'`. */
  readonly onLimitExceeded: 'THROW' | 'RETURN_ERROR_RESPONSE';
}

/** How tools run (`spring.ai.tools.*` and `toolloop.tools.*`). */
export interface ToolsConfig {
  /** `spring.ai.tools.throw-exception-on-error`; default false. */
  readonly throwExceptionOnError: boolean;
  /** `spring.ai.tools.resolution.fallback.enabled`; default false. */
  readonly resolutionFallbackEnabled: boolean;
  readonly limits: ToolLimitsConfig;
  /** `toolloop.tools.max-concurrency`: calls of one batch run at once; default 8. */
  readonly maxConcurrency: number;
  /** `toolloop.tools.default-timeout` (a duration), in ms; default none. */
  readonly defaultTimeoutMs: number | undefined;
  /** `toolloop.tools.max-argument-bytes`; default 1 MiB. */
  readonly maxArgumentBytes: number;
  /** `toolloop.tools.max-result-bytes`; default 1 MiB. */
  readonly maxResultBytes: number;
  /** `toolloop.tools.on-unknown-tool`; default `'error-response'`. */
  readonly onUnknownTool: 'error-response' | 'throw';
  /**
   * `spring.ai.tools.observations.include-content`: tool arguments and results (and the answer
   * text) go into the debug log, the OpenTelemetry spans and the turn recording; default false,
   * as they may hold personal or secret data. The tool context never does.
   */
  readonly observations: { readonly includeContent: boolean };
}

/** The tool loop advisor (`spring.ai.chat.client.tool-calling.*`). */
export interface ToolCallingConfig {
  /** `enabled`: register the tool loop advisor automatically; default true. */
  readonly enabled: boolean;
  /** `advisor-order`; default `HIGHEST_PRECEDENCE + 300`. */
  readonly advisorOrder: number;
  /** `toolloop.chat-client.tool-calling.max-iterations`: the loop-iteration cap; default 50. */
  readonly maxIterations: number;
}

/** Which index the tool search advisor uses. */
export type ToolIndexType = 'regex' | 'lucene' | 'bm25' | 'lexical' | 'vector';

/** The tool search advisor (`spring.ai.chat.client.tool-search-advisor.*`). */
export interface ToolSearchAdvisorConfig {
  /** `enabled`; default false. */
  readonly enabled: boolean;
  /**
   * `tool-index-type`; default `'regex'`. `'lucene'` and `'bm25'` are served by toolloop's plain
   * field-weighted BM25 index, `Bm25ToolIndex` (BM25 is what Lucene scores with; `'lucene'` also
   * applies `lucene.min-score-threshold`), `'lexical'` by `LexicalToolIndex` (today the same
   * ranking); `'vector'` needs an embedding model passed in code.
   */
  readonly toolIndexType: ToolIndexType;
  /** `max-results`; default the index's (10). */
  readonly maxResults: number | undefined;
  /** `session-id-key-name`; default `chat_memory_conversation_id`. */
  readonly sessionIdKeyName: string;
  /** `reference-tool-name-accumulation`; default true. */
  readonly referenceToolNameAccumulation: boolean;
  /** `system-message-suffix`; default the built-in text. */
  readonly systemMessageSuffix: string | undefined;
  /** `advisor-order`; default `HIGHEST_PRECEDENCE + 300`. */
  readonly advisorOrder: number;
  /** `eviction.lru-max-sessions` (default 1000) and `eviction.ttl` (a duration, in ms; default none). */
  readonly eviction: { readonly lruMaxSessions: number; readonly ttlMs: number | undefined };
  /** `lucene.min-score-threshold`; default 0.25. */
  readonly lucene: { readonly minScoreThreshold: number };
}

/** The chat client (`spring.ai.chat.client.*`). */
export interface ChatClientConfig {
  /** `toolloop.chat-client.system`: the default system text; default none. */
  readonly system: string | undefined;
  readonly toolCalling: ToolCallingConfig;
  readonly toolSearchAdvisor: ToolSearchAdvisorConfig;
}

/** Where conversations are kept. */
export type MemoryStoreKind = 'none' | 'in-memory' | 'sqlite' | 'redis' | 'postgres';

/** Chat memory (`toolloop.memory.*`, and Spring AI's `spring.ai.chat.memory.*` / `spring.datasource.*`). */
export interface MemoryConfig {
  /** `toolloop.memory.store`; default `'none'` (no memory advisor). */
  readonly store: MemoryStoreKind;
  /** `toolloop.memory.max-messages`: the message window; default 20. */
  readonly maxMessages: number;
  /**
   * `toolloop.memory.advisor-order`; default `HIGHEST_PRECEDENCE + 200` (outside the tool loop);
   * an order above the tool loop advisor's puts memory inside the loop.
   */
  readonly advisorOrder: number;
  /** `toolloop.memory.sqlite.path`: the database file. */
  readonly sqlite: { readonly path: string | undefined };
  /**
   * `toolloop.memory.redis.url`, or `spring.ai.chat.memory.redis.host` / `.port`;
   * `.key-prefix` (default the store's).
   */
  readonly redis: {
    readonly url: string | undefined;
    readonly host: string | undefined;
    readonly port: number | undefined;
    readonly keyPrefix: string | undefined;
  };
  /**
   * `toolloop.memory.postgres.url` or `spring.datasource.url` (a `jdbc:postgresql:` URL is
   * accepted), `spring.datasource.username` / `.password`, `toolloop.memory.postgres.schema`,
   * and `spring.ai.chat.memory.repository.jdbc.initialize-schema` (`always` / `embedded` create
   * the tables, `never` expects them).
   */
  readonly postgres: {
    readonly url: string | undefined;
    readonly username: string | undefined;
    readonly password: string | undefined;
    readonly schema: string | undefined;
    readonly autoMigrate: boolean;
  };
}

/**
 * What the client built from the config reports (`toolloop.observability.*`); whether tool
 * content is included is `spring.ai.tools.observations.include-content`.
 */
export interface ObservabilityConfig {
  /** `toolloop.observability.debug-log`: log what the loop does at debug level; default false. */
  readonly debugLog: boolean;
  /**
   * `toolloop.observability.open-telemetry`: turn events become spans and metrics of the global
   * OpenTelemetry tracer and meter providers; needs the optional package `@opentelemetry/api`.
   * Default false.
   */
  readonly openTelemetry: boolean;
  /**
   * `toolloop.observability.recording-file`: append every turn's events to this file (JSON
   * Lines, one event a line) when the turn ends, for `toolloop trace <file>`. Default none.
   */
  readonly recordingFile: string | undefined;
}

/** One stdio MCP server (`spring.ai.mcp.client.stdio.connections.<name>.*`). */
export interface StdioConnectionSettings {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** One HTTP MCP server (`…streamable-http.connections.<name>.*` / `…sse.connections.<name>.*`). */
export interface HttpConnectionSettings {
  readonly url: string;
  /** `endpoint` (Streamable HTTP) or `sse-endpoint` (SSE). */
  readonly endpoint: string | undefined;
}

/** MCP servers whose tools the client offers (`spring.ai.mcp.client.*`, `toolloop.mcp.*`). */
export interface McpConfig {
  /** `spring.ai.mcp.client.enabled`; default true. */
  readonly enabled: boolean;
  /** `spring.ai.mcp.client.name` / `.version`: how the client introduces itself. */
  readonly name: string;
  readonly version: string;
  /** `spring.ai.mcp.client.request-timeout` (a duration), in ms; default 20 s. */
  readonly requestTimeoutMs: number;
  /** `spring.ai.mcp.client.type`: accepted for Spring AI files; toolloop's client is always asynchronous. */
  readonly type: 'SYNC' | 'ASYNC';
  /** `spring.ai.mcp.client.toolcallback.enabled`; default true. */
  readonly toolCallbackEnabled: boolean;
  /** `spring.ai.mcp.client.stdio.connections.<name>.*`. */
  readonly stdio: Readonly<Record<string, StdioConnectionSettings>>;
  /**
   * `spring.ai.mcp.client.stdio.servers-configuration`: a JSON file in the Claude Desktop format
   * (`{ "mcpServers": { name: { command, args, env } } }`), read when the client is built.
   */
  readonly serversConfiguration: string | undefined;
  /** `spring.ai.mcp.client.streamable-http.connections.<name>.*`. */
  readonly streamableHttp: Readonly<Record<string, HttpConnectionSettings>>;
  /** `spring.ai.mcp.client.sse.connections.<name>.*`. */
  readonly sse: Readonly<Record<string, HttpConnectionSettings>>;
  /** `toolloop.mcp.tool-naming`: `'default'` or `'server-prefix'`. */
  readonly toolNaming: 'default' | 'server-prefix';
  /** `toolloop.mcp.on-name-collision`; default `'error'`. */
  readonly onNameCollision: 'error' | 'prefix' | 'local-wins';
  /** `toolloop.mcp.include-tools`: only these tools (`name` or `connection/name`); default all. */
  readonly includeTools: readonly string[];
  /** `toolloop.mcp.exclude-tools`: never these tools (`name` or `connection/name`). */
  readonly excludeTools: readonly string[];
  /**
   * `toolloop.mcp.trusted-servers`: connections whose tool annotations count toward approval
   * policies and replays (`McpServerTrust.trusted`); default none.
   */
  readonly trustedServers: readonly string[];
}

/**
 * The whole configuration of a toolloop chat client, with every default filled in. Made by
 * `loadConfig()` from defaults, files, the environment and code; turned into a client by
 * `chatClientFromConfig()`.
 */
export interface ToolloopConfig {
  /**
   * `toolloop.model`: a model id, `'<provider>:<model>'` (`'openai:gpt-4.1-mini'`) or a provider
   * name alone. Unset, `spring.ai.model.chat` names the provider. Default none.
   */
  readonly model: string | undefined;
  /** `spring.ai.model.chat`: the provider chosen the Spring AI way (`openai`, `anthropic`, `google-genai`). */
  readonly chatProvider: string | undefined;
  /**
   * Settings per provider name: `spring.ai.openai.*`, `spring.ai.anthropic.*`,
   * `spring.ai.google.genai.*` (as `google`), `toolloop.providers.<name>.*`.
   */
  readonly providers: Readonly<Record<string, ProviderSettings>>;
  readonly tools: ToolsConfig;
  readonly chatClient: ChatClientConfig;
  readonly memory: MemoryConfig;
  readonly mcp: McpConfig;
  readonly observability: ObservabilityConfig;
}

/** Every field optional, at every depth: what a file, the environment or code may set. */
export type ConfigInput<T> = T extends readonly (infer E)[]
  ? readonly E[]
  : T extends object
    ? { readonly [K in keyof T]?: ConfigInput<T[K]> }
    : T;

/** A partial {@link ToolloopConfig}, as passed in code. */
export type ToolloopConfigInput = ConfigInput<ToolloopConfig>;
