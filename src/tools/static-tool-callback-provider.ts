import type { ToolCallback, ToolCallbackProvider } from './tool-callback.js';

/** A {@link ToolCallbackProvider} that always lists the same callbacks (copied when created). */
export function staticToolCallbackProvider(
  callbacks: readonly ToolCallback[],
): ToolCallbackProvider {
  const fixed = [...callbacks];
  return {
    getToolCallbacks: () => [...fixed],
  };
}
