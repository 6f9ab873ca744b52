import { ToolDefinitionError } from '../errors/index.js';
import type { ToolCallback } from './tool-callback.js';

const FEW_TOOLS = 16;

/**
 * Throws a {@link ToolDefinitionError} when two tools share a name:
 * `Multiple tools with the same name (a, b) found in <where>`, each duplicated name listed once.
 */
export function assertUniqueToolNames(callbacks: readonly ToolCallback[], where: string): void {
  // Runs on every request: a few tools are compared pairwise instead of filling a set.
  let duplicates: Set<string> | undefined;
  if (callbacks.length <= FEW_TOOLS) {
    for (let index = 1; index < callbacks.length; index++) {
      const name = (callbacks[index] as ToolCallback).definition.name;
      for (let earlier = 0; earlier < index; earlier++) {
        if ((callbacks[earlier] as ToolCallback).definition.name === name) {
          duplicates ??= new Set();
          duplicates.add(name);
          break;
        }
      }
    }
  } else {
    const seen = new Set<string>();
    for (const callback of callbacks) {
      const name = callback.definition.name;
      if (seen.has(name)) {
        duplicates ??= new Set();
        duplicates.add(name);
      }
      seen.add(name);
    }
  }
  if (duplicates !== undefined) {
    throw new ToolDefinitionError(
      `Multiple tools with the same name (${[...duplicates].join(', ')}) found in ${where}`,
    );
  }
}
