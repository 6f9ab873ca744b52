import { DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER } from '../advisors/index.js';
import {
  DEFAULT_MAX_CALLS_PER_TOOL,
  DEFAULT_MAX_TOOL_RESULT_BYTES,
  DEFAULT_MAX_TOTAL_TOOL_CALLS,
  DEFAULT_TOOL_CALL_CONCURRENCY,
  ToolCallingAdvisor,
} from '../tool-calling/index.js';
import { DEFAULT_TOOL_SEARCH_SESSION_ID_KEY } from '../tool-search/index.js';
import type { ToolloopConfig } from './toolloop-config.js';

/** The configuration with nothing set: every value is the library's default. */
export function defaultConfig(): ToolloopConfig {
  return {
    model: undefined,
    chatProvider: undefined,
    providers: {},
    tools: {
      throwExceptionOnError: false,
      resolutionFallbackEnabled: false,
      limits: {
        maxCallsPerToolDefault: DEFAULT_MAX_CALLS_PER_TOOL,
        maxCallsPerTool: {},
        excludedTools: [],
        maxTotalToolCalls: DEFAULT_MAX_TOTAL_TOOL_CALLS,
        onLimitExceeded: 'THROW',
      },
      maxConcurrency: DEFAULT_TOOL_CALL_CONCURRENCY,
      defaultTimeoutMs: undefined,
      maxArgumentBytes: 1024 * 1024,
      maxResultBytes: DEFAULT_MAX_TOOL_RESULT_BYTES,
      onUnknownTool: 'error-response',
      observations: { includeContent: false },
    },
    chatClient: {
      system: undefined,
      toolCalling: {
        enabled: true,
        advisorOrder: ToolCallingAdvisor.DEFAULT_ORDER,
        maxIterations: ToolCallingAdvisor.DEFAULT_MAX_ITERATIONS,
      },
      toolSearchAdvisor: {
        enabled: false,
        toolIndexType: 'regex',
        maxResults: undefined,
        sessionIdKeyName: DEFAULT_TOOL_SEARCH_SESSION_ID_KEY,
        referenceToolNameAccumulation: true,
        systemMessageSuffix: undefined,
        advisorOrder: ToolCallingAdvisor.DEFAULT_ORDER,
        eviction: { lruMaxSessions: 1000, ttlMs: undefined },
        lucene: { minScoreThreshold: 0.25 },
      },
    },
    memory: {
      store: 'none',
      maxMessages: 20,
      advisorOrder: DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER,
      sqlite: { path: undefined },
      redis: { url: undefined, host: undefined, port: undefined, keyPrefix: undefined },
      postgres: {
        url: undefined,
        username: undefined,
        password: undefined,
        schema: undefined,
        autoMigrate: true,
      },
    },
    observability: { debugLog: false, openTelemetry: false, recordingFile: undefined },
    mcp: {
      enabled: true,
      name: 'toolloop',
      version: '1.0.0',
      requestTimeoutMs: 20_000,
      type: 'SYNC',
      toolCallbackEnabled: true,
      stdio: {},
      serversConfiguration: undefined,
      streamableHttp: {},
      sse: {},
      toolNaming: 'default',
      onNameCollision: 'error',
      includeTools: [],
      excludeTools: [],
      trustedServers: [],
    },
  };
}
