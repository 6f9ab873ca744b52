import { assertToolCallbackList } from './assert-tool-callback-list.js';
import type { ToolCallback, ToolCallbackProvider } from './tool-callback.js';

/**
 * A {@link ToolCallbackProvider} that always lists the same callbacks (copied when created).
 *
 * @throws InvalidArgumentError when `callbacks` is not an array or holds `null` or `undefined`.
 */
export function staticToolCallbackProvider(
  callbacks: readonly ToolCallback[],
): ToolCallbackProvider {
  assertToolCallbackList(callbacks);
  const fixed = [...callbacks];
  return {
    getToolCallbacks: () => [...fixed],
  };
}
