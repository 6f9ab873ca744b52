// toolloop/mcp: tools of MCP servers as ToolCallbacks (needs the optional peer @modelcontextprotocol/sdk).
export {
  type McpCallToolOptions,
  McpClient,
  type McpClientOptions,
  type McpConnectionInfo,
} from './mcp-client.js';
export type {
  McpConnectionConfig,
  McpServerTrust,
  McpSseConnectionConfig,
  McpStdioConnectionConfig,
  McpStreamableHttpConnectionConfig,
} from './mcp-connection-config.js';
export { McpConnectionError, type McpConnectionFailure } from './mcp-connection-error.js';
export { type McpLimit, McpLimitError } from './mcp-limit-error.js';
export { McpProtocolError } from './mcp-protocol-error.js';
export {
  type McpNameCollisionPolicy,
  McpToolCallbackProvider,
  type McpToolCallbackProviderOptions,
  type McpToolFilter,
  type McpToolNameGenerator,
  type McpToolNaming,
} from './mcp-tool-callback-provider.js';
export type { ToolContextToMcpMeta } from './tool-context-to-mcp-meta.js';
