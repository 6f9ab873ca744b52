import { createHash } from 'node:crypto';
import type { ToolReference } from './tool-reference.js';

/**
 * SHA-256 (hex) over a tool set, independent of its order: the references sorted by name, each as
 * name, description, input schema and category. Equal fingerprints mean the index already holds
 * exactly this set.
 */
export function toolSetFingerprint(references: readonly ToolReference[]): string {
  const hash = createHash('sha256');
  const sorted = [...references].sort((a, b) =>
    a.toolName < b.toolName ? -1 : a.toolName > b.toolName ? 1 : 0,
  );
  for (const reference of sorted) {
    hash.update(reference.toolName);
    hash.update('\0');
    hash.update(reference.summary);
    hash.update('\0');
    hash.update(JSON.stringify(reference.inputSchema ?? null));
    hash.update('\0');
    hash.update(reference.category ?? '');
    hash.update('\u0001');
  }
  return hash.digest('hex');
}
