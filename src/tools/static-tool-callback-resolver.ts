import { assertToolCallbackList } from './assert-tool-callback-list.js';
import type { ToolCallback, ToolCallbackResolver } from './tool-callback.js';

/**
 * A {@link ToolCallbackResolver} over a fixed list of tools (Spring AI's
 * `StaticToolCallbackResolver`): exact names; when two share a name, the later one wins.
 *
 * @throws InvalidArgumentError when `callbacks` is not an array or holds `null` or `undefined`.
 */
export function staticToolCallbackResolver(
  callbacks: readonly ToolCallback[],
): ToolCallbackResolver {
  assertToolCallbackList(callbacks);
  const byName = new Map<string, ToolCallback>();
  for (const callback of callbacks) byName.set(callback.definition.name, callback);
  return (toolName) => byName.get(toolName);
}
