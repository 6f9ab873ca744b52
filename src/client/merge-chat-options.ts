import type { ChatOptions, ToolCallingChatOptions } from '../model/index.js';

/**
 * Merges option layers key by key, later layers winning, except `toolContext`, whose entries are
 * merged (later values win per key). `undefined` values never override. A later `toolCallbacks`
 * list replaces an earlier one.
 */
export function mergeChatOptions(
  ...layers: readonly (ChatOptions | ToolCallingChatOptions | undefined)[]
): ToolCallingChatOptions {
  const merged: Record<string, unknown> = {};
  let toolContext: Record<string, unknown> | undefined;
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      if (key === 'toolContext') {
        toolContext = { ...toolContext, ...(value as Record<string, unknown>) };
      } else {
        merged[key] = value;
      }
    }
  }
  if (toolContext !== undefined) merged.toolContext = toolContext;
  return merged as ToolCallingChatOptions;
}
