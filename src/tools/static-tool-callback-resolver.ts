import type { ToolCallback, ToolCallbackResolver } from './tool-callback.js';

/**
 * A {@link ToolCallbackResolver} over a fixed list of tools (Spring AI's
 * `StaticToolCallbackResolver`): exact names; when two share a name, the later one wins.
 */
export function staticToolCallbackResolver(
  callbacks: readonly ToolCallback[],
): ToolCallbackResolver {
  const byName = new Map<string, ToolCallback>();
  for (const callback of callbacks) byName.set(callback.definition.name, callback);
  return (toolName) => byName.get(toolName);
}
