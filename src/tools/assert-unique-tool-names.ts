import { ToolDefinitionError } from '../errors/index.js';
import type { ToolCallback } from './tool-callback.js';

const FEW_TOOLS = 16;

/**
 * Throws a {@link ToolDefinitionError} when two different tools share a name:
 * `Multiple tools with the same name (a, b) found in <where>`, each duplicated name listed once.
 * The same callback object given twice is one tool, not a collision.
 */
export function assertUniqueToolNames(callbacks: readonly ToolCallback[], where: string): void {
  uniqueToolCallbacks(callbacks, where);
}

/**
 * The callbacks with every repeat of one callback object left out (a tool given both as a
 * client default and on the request is offered once); throws a {@link ToolDefinitionError} when
 * two different tools share a name, ending the message with `hint` when one is given. Returns
 * `callbacks` itself when nothing repeats.
 */
export function uniqueToolCallbacks(
  callbacks: readonly ToolCallback[],
  where: string,
  hint?: string,
): readonly ToolCallback[] {
  // Runs on every request: a few tools are compared pairwise instead of filling a map.
  let duplicates: Set<string> | undefined;
  let repeats: Set<number> | undefined;
  if (callbacks.length <= FEW_TOOLS) {
    for (let index = 1; index < callbacks.length; index++) {
      const callback = callbacks[index] as ToolCallback;
      const name = callback.definition.name;
      for (let earlier = 0; earlier < index; earlier++) {
        const other = callbacks[earlier] as ToolCallback;
        if (other.definition.name !== name) continue;
        if (other === callback) {
          repeats ??= new Set();
          repeats.add(index);
        } else {
          duplicates ??= new Set();
          duplicates.add(name);
        }
        break;
      }
    }
  } else {
    const seen = new Map<string, ToolCallback>();
    for (let index = 0; index < callbacks.length; index++) {
      const callback = callbacks[index] as ToolCallback;
      const name = callback.definition.name;
      const other = seen.get(name);
      if (other === undefined) seen.set(name, callback);
      else if (other === callback) {
        repeats ??= new Set();
        repeats.add(index);
      } else {
        duplicates ??= new Set();
        duplicates.add(name);
      }
    }
  }
  if (duplicates !== undefined) {
    throw new ToolDefinitionError(
      `Multiple tools with the same name (${[...duplicates].join(', ')}) found in ${where}${hint === undefined ? '' : `: ${hint}`}`,
    );
  }
  if (repeats === undefined) return callbacks;
  const kept = repeats;
  return callbacks.filter((_, index) => !kept.has(index));
}
