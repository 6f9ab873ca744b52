import type { ConfigValueType } from './config-value.js';

/**
 * One configuration property: its key (segments in kebab case; `<name>` stands for any one
 * segment, e.g. a tool or connection name), the field it sets in `ToolloopConfig` (the same
 * placeholders), and its type.
 */
export interface ConfigProperty {
  readonly key: string;
  readonly path: readonly string[];
  readonly type: ConfigValueType;
  /** Turns the converted file value into the field's value, when they differ. */
  readonly toField?: (value: unknown) => unknown;
  /** The field's type in code, when it differs from the file value's. */
  readonly fieldType?: ConfigValueType;
}

const bool: ConfigValueType = { kind: 'boolean' };
const text: ConfigValueType = { kind: 'string' };
const secret: ConfigValueType = { kind: 'string', secret: true };
const list: ConfigValueType = { kind: 'list' };
const duration: ConfigValueType = { kind: 'duration' };
const limit: ConfigValueType = { kind: 'limit' };
const order: ConfigValueType = { kind: 'integer', min: -2147483647, max: 2147483646 };
const positive = (max?: number): ConfigValueType =>
  max === undefined ? { kind: 'integer', min: 1 } : { kind: 'integer', min: 1, max };
const httpUrl: ConfigValueType = { kind: 'url', schemes: ['http', 'https'] };

const property = (key: string, path: string, type: ConfigValueType): ConfigProperty => ({
  key,
  path: path.split('.'),
  type,
});

function providerProperties(
  provider: string,
  prefix: string,
  maxTokensKey = 'max-tokens',
): ConfigProperty[] {
  const at = `providers.${provider}`;
  return [
    property(`${prefix}.api-key`, `${at}.apiKey`, secret),
    property(`${prefix}.base-url`, `${at}.baseUrl`, httpUrl),
    property(`${prefix}.chat.options.model`, `${at}.model`, text),
    property(`${prefix}.chat.options.temperature`, `${at}.temperature`, {
      kind: 'number',
      min: 0,
      max: 2,
    }),
    property(`${prefix}.chat.options.${maxTokensKey}`, `${at}.maxTokens`, positive()),
  ];
}

/**
 * Every property toolloop reads: Spring AI's keys (so a Spring AI application's properties or
 * YAML file configures an equivalent client) and toolloop's own under `toolloop.`.
 */
export const CONFIG_PROPERTIES: readonly ConfigProperty[] = [
  // The model.
  property('toolloop.model', 'model', text),
  property('spring.ai.model.chat', 'chatProvider', text),
  ...providerProperties('openai', 'spring.ai.openai'),
  ...providerProperties('anthropic', 'spring.ai.anthropic'),
  // Spring AI's Google GenAI module; its output limit is `max-output-tokens`.
  ...providerProperties('google', 'spring.ai.google.genai', 'max-output-tokens'),
  property('toolloop.providers.<provider>.api-key', 'providers.<provider>.apiKey', secret),
  property('toolloop.providers.<provider>.base-url', 'providers.<provider>.baseUrl', httpUrl),
  property('toolloop.providers.<provider>.model', 'providers.<provider>.model', text),
  property('toolloop.providers.<provider>.temperature', 'providers.<provider>.temperature', {
    kind: 'number',
    min: 0,
    max: 2,
  }),
  property(
    'toolloop.providers.<provider>.max-tokens',
    'providers.<provider>.maxTokens',
    positive(),
  ),

  // Tools.
  property('spring.ai.tools.throw-exception-on-error', 'tools.throwExceptionOnError', bool),
  property('spring.ai.tools.resolution.fallback.enabled', 'tools.resolutionFallbackEnabled', bool),
  property(
    'spring.ai.tools.limits.max-calls-per-tool-default',
    'tools.limits.maxCallsPerToolDefault',
    limit,
  ),
  property(
    'spring.ai.tools.limits.max-calls-per-tool.<tool>',
    'tools.limits.maxCallsPerTool.<tool>',
    limit,
  ),
  property('spring.ai.tools.limits.excluded-tools', 'tools.limits.excludedTools', list),
  property('spring.ai.tools.limits.max-total-tool-calls', 'tools.limits.maxTotalToolCalls', limit),
  property('spring.ai.tools.limits.on-limit-exceeded', 'tools.limits.onLimitExceeded', {
    kind: 'enum',
    values: ['THROW', 'RETURN_ERROR_RESPONSE'],
  }),
  property('toolloop.tools.max-concurrency', 'tools.maxConcurrency', positive(1024)),
  property('toolloop.tools.default-timeout', 'tools.defaultTimeoutMs', duration),
  property('toolloop.tools.max-argument-bytes', 'tools.maxArgumentBytes', positive()),
  property('toolloop.tools.max-result-bytes', 'tools.maxResultBytes', {
    kind: 'integer',
    min: 256,
  }),
  property('toolloop.tools.on-unknown-tool', 'tools.onUnknownTool', {
    kind: 'enum',
    values: ['error-response', 'throw'],
  }),

  // Observability.
  property(
    'spring.ai.tools.observations.include-content',
    'tools.observations.includeContent',
    bool,
  ),
  property('toolloop.observability.debug-log', 'observability.debugLog', bool),
  property('toolloop.observability.open-telemetry', 'observability.openTelemetry', bool),
  property('toolloop.observability.recording-file', 'observability.recordingFile', text),

  // The chat client and its tool loop.
  property('toolloop.chat-client.system', 'chatClient.system', text),
  property('spring.ai.chat.client.tool-calling.enabled', 'chatClient.toolCalling.enabled', bool),
  property(
    'spring.ai.chat.client.tool-calling.advisor-order',
    'chatClient.toolCalling.advisorOrder',
    order,
  ),
  property(
    'toolloop.chat-client.tool-calling.max-iterations',
    'chatClient.toolCalling.maxIterations',
    positive(10_000),
  ),
  ...(
    [
      ['enabled', 'enabled', bool],
      [
        'tool-index-type',
        'toolIndexType',
        { kind: 'enum', values: ['regex', 'lucene', 'bm25', 'lexical', 'vector'] },
      ],
      ['max-results', 'maxResults', positive(1000)],
      ['session-id-key-name', 'sessionIdKeyName', text],
      ['reference-tool-name-accumulation', 'referenceToolNameAccumulation', bool],
      ['system-message-suffix', 'systemMessageSuffix', text],
      ['advisor-order', 'advisorOrder', order],
      ['eviction.lru-max-sessions', 'eviction.lruMaxSessions', positive()],
      ['eviction.ttl', 'eviction.ttlMs', duration],
      ['lucene.min-score-threshold', 'lucene.minScoreThreshold', { kind: 'number', min: 0 }],
    ] as const
  ).map(([key, path, type]) =>
    property(
      `spring.ai.chat.client.tool-search-advisor.${key}`,
      `chatClient.toolSearchAdvisor.${path}`,
      type,
    ),
  ),

  // Chat memory.
  property('toolloop.memory.store', 'memory.store', {
    kind: 'enum',
    values: ['none', 'in-memory', 'sqlite', 'redis', 'postgres'],
  }),
  property('toolloop.memory.max-messages', 'memory.maxMessages', positive()),
  property('toolloop.memory.advisor-order', 'memory.advisorOrder', order),
  property('toolloop.memory.sqlite.path', 'memory.sqlite.path', text),
  property('toolloop.memory.redis.url', 'memory.redis.url', {
    kind: 'url',
    schemes: ['redis', 'rediss'],
    secret: true,
  }),
  property('spring.ai.chat.memory.redis.host', 'memory.redis.host', text),
  property('spring.ai.chat.memory.redis.port', 'memory.redis.port', positive(65535)),
  property('spring.ai.chat.memory.redis.key-prefix', 'memory.redis.keyPrefix', text),
  property('toolloop.memory.postgres.url', 'memory.postgres.url', {
    kind: 'url',
    schemes: ['postgres', 'postgresql'],
    secret: true,
  }),
  property('spring.datasource.url', 'memory.postgres.url', {
    kind: 'url',
    schemes: ['postgres', 'postgresql'],
    secret: true,
  }),
  property('spring.datasource.username', 'memory.postgres.username', text),
  property('spring.datasource.password', 'memory.postgres.password', secret),
  property('toolloop.memory.postgres.schema', 'memory.postgres.schema', text),
  {
    ...property(
      'spring.ai.chat.memory.repository.jdbc.initialize-schema',
      'memory.postgres.autoMigrate',
      { kind: 'enum', values: ['always', 'embedded', 'never'] },
    ),
    toField: (value) => value !== 'never',
    fieldType: bool,
  },

  // MCP servers.
  property('spring.ai.mcp.client.enabled', 'mcp.enabled', bool),
  property('spring.ai.mcp.client.name', 'mcp.name', text),
  property('spring.ai.mcp.client.version', 'mcp.version', text),
  property('spring.ai.mcp.client.request-timeout', 'mcp.requestTimeoutMs', duration),
  property('spring.ai.mcp.client.type', 'mcp.type', { kind: 'enum', values: ['SYNC', 'ASYNC'] }),
  property('spring.ai.mcp.client.toolcallback.enabled', 'mcp.toolCallbackEnabled', bool),
  property(
    'spring.ai.mcp.client.stdio.connections.<name>.command',
    'mcp.stdio.<name>.command',
    text,
  ),
  property('spring.ai.mcp.client.stdio.connections.<name>.args', 'mcp.stdio.<name>.args', list),
  property(
    'spring.ai.mcp.client.stdio.connections.<name>.env.<variable>',
    'mcp.stdio.<name>.env.<variable>',
    secret,
  ),
  property('spring.ai.mcp.client.stdio.servers-configuration', 'mcp.serversConfiguration', text),
  property(
    'spring.ai.mcp.client.streamable-http.connections.<name>.url',
    'mcp.streamableHttp.<name>.url',
    httpUrl,
  ),
  property(
    'spring.ai.mcp.client.streamable-http.connections.<name>.endpoint',
    'mcp.streamableHttp.<name>.endpoint',
    text,
  ),
  property('spring.ai.mcp.client.sse.connections.<name>.url', 'mcp.sse.<name>.url', httpUrl),
  property(
    'spring.ai.mcp.client.sse.connections.<name>.sse-endpoint',
    'mcp.sse.<name>.endpoint',
    text,
  ),
  property('toolloop.mcp.tool-naming', 'mcp.toolNaming', {
    kind: 'enum',
    values: ['default', 'server-prefix'],
  }),
  property('toolloop.mcp.on-name-collision', 'mcp.onNameCollision', {
    kind: 'enum',
    values: ['error', 'prefix', 'local-wins'],
  }),
  property('toolloop.mcp.include-tools', 'mcp.includeTools', list),
  property('toolloop.mcp.exclude-tools', 'mcp.excludeTools', list),
  property('toolloop.mcp.trusted-servers', 'mcp.trustedServers', list),
];

/**
 * Key prefixes toolloop owns: an unknown key under one of them is an error (a typo must not pass
 * unnoticed). Keys outside them (`server.port`, `logging.*`, other Spring AI modules) are ignored,
 * so a whole Spring application file can be used as it is.
 */
export const OWNED_KEY_PREFIXES: readonly string[] = [
  'toolloop.',
  'spring.ai.tools.',
  'spring.ai.chat.client.',
  'spring.ai.chat.memory.',
  'spring.ai.mcp.client.',
  'spring.ai.model.',
  'spring.ai.openai.chat.options.',
  'spring.ai.anthropic.chat.options.',
  'spring.ai.google.genai.chat.options.',
];
