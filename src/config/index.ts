// toolloop/config: configuration from .properties / YAML / JSON files (Spring AI's keys), the
// environment and code, a chat client built from it, and model ids resolved to providers.
export {
  type ChatClientFromConfigOptions,
  type ConfiguredChatClient,
  chatClientFromConfig,
  type McpToolsFromConfigOptions,
  mcpToolsFromConfig,
} from './chat-client-from-config.js';
export {
  type ChatModelFactory,
  ChatModelRegistry,
  type ChatModelSettings,
} from './chat-model-registry.js';
export { ConfigError, type ConfigOrigin, type ConfigProblem } from './config-error.js';
export type { ConfigFileFormat } from './config-file-entries.js';
export type { ConfigEnvironment } from './environment-config-entries.js';
export { type ConfigText, type LoadConfigOptions, loadConfig } from './load-config.js';
export type {
  ChatClientConfig,
  ConfigCallLimit,
  ConfigInput,
  HttpConnectionSettings,
  McpConfig,
  MemoryConfig,
  MemoryStoreKind,
  ObservabilityConfig,
  ProviderSettings,
  StdioConnectionSettings,
  ToolCallingConfig,
  ToolIndexType,
  ToolLimitsConfig,
  ToolloopConfig,
  ToolloopConfigInput,
  ToolSearchAdvisorConfig,
  ToolsConfig,
} from './toolloop-config.js';
