// What `import 'toolloop/mcp'` loads (the "import" condition of package.json; `require` and the
// types go to index.js). It loads index.js with a dynamic import behind a top-level await, so
// that a missing @modelcontextprotocol/sdk is reported with the command that installs it instead
// of a bare ERR_MODULE_NOT_FOUND (a static import fails before any code of the entry runs).
// require() cannot load a module with a top-level await, hence the plain entry for it.
import { importNeedingPeer } from '../internal/import-needing-peer.js';
import type * as mcp from './index.js';

const entry: typeof mcp = await importNeedingPeer(
  () => import('./index.js'),
  '@modelcontextprotocol/sdk',
  'toolloop/mcp',
);

export const {
  McpClient,
  McpConnectionError,
  McpLimitError,
  McpProtocolError,
  McpToolCallbackProvider,
} = entry;
