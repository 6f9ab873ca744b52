// What `import 'toolloop/otel'` loads: index.js behind a dynamic import, so that a missing
// @opentelemetry/api is reported with its install command (see ../mcp/entry.ts).
import { importNeedingPeer } from '../internal/import-needing-peer.js';
import type * as otel from './index.js';

const entry: typeof otel = await importNeedingPeer(
  () => import('./index.js'),
  '@opentelemetry/api',
  'toolloop/otel',
);

export const { openTelemetryListener } = entry;
