// toolloop/mcp/server: serve toolloop tools to MCP clients (needs the optional peer @modelcontextprotocol/sdk).
export { type McpExchange, mcpExchange } from './mcp-exchange.js';
export type { McpPrincipal } from './mcp-principal.js';
export { mcpTool } from './mcp-tool.js';
export { type McpToolResult, mcpToolResult } from './mcp-tool-result.js';
export {
  type McpServerAuthOptions,
  McpToolServer,
  type McpToolServerOptions,
} from './mcp-tool-server.js';
