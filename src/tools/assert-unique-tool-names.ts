import { ToolDefinitionError } from '../errors/index.js';
import type { ToolCallback } from './tool-callback.js';

/**
 * Throws a {@link ToolDefinitionError} when two tools share a name:
 * `Multiple tools with the same name (a, b) found in <where>`, each duplicated name listed once.
 */
export function assertUniqueToolNames(callbacks: readonly ToolCallback[], where: string): void {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const callback of callbacks) {
    const name = callback.definition.name;
    if (seen.has(name)) duplicates.add(name);
    seen.add(name);
  }
  if (duplicates.size > 0) {
    throw new ToolDefinitionError(
      `Multiple tools with the same name (${[...duplicates].join(', ')}) found in ${where}`,
    );
  }
}
