// What `import 'toolloop/mcp/server'` loads: index.js behind a dynamic import, so that a missing
// @modelcontextprotocol/sdk is reported with its install command (see ../entry.ts).
import { importNeedingPeer } from '../../internal/import-needing-peer.js';
import type * as server from './index.js';

const entry: typeof server = await importNeedingPeer(
  () => import('./index.js'),
  '@modelcontextprotocol/sdk',
  'toolloop/mcp/server',
);

export const { McpToolServer, mcpExchange, mcpTool, mcpToolResult } = entry;
