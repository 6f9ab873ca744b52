// What `import 'toolloop/durable'` loads (the "import" condition of package.json; `require` and
// the types go to index.js): index.js through a dynamic import behind a top-level await, so that
// a missing @dbos-inc/dbos-sdk is reported with the command that installs it (see mcp/entry.ts).
import { importNeedingPeer } from '../internal/import-needing-peer.js';
import type * as durable from './index.js';

const entry: typeof durable = await importNeedingPeer(
  () => import('./index.js'),
  '@dbos-inc/dbos-sdk',
  'toolloop/durable',
);

export const { DbosTurnClient, DbosTurnWorker, DurableTurnError } = entry;
