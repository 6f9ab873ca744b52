import type { CompiledTool } from '../internal/tool-schema-compiler-cache.js';
import type { ChatResponse } from '../model/index.js';

/** The argument restorers of the tools compiled in strict mode, by tool name. */
export function strictArgumentRestorers(
  tools: readonly CompiledTool[],
): Map<string, (args: string) => string> {
  const restorers = new Map<string, (args: string) => string>();
  for (const { definition, compiled } of tools) {
    if (compiled.restoreArguments) restorers.set(definition.name, compiled.restoreArguments);
  }
  return restorers;
}

/**
 * Strict mode made optional properties nullable; the `null`s the model sends for them are
 * dropped so the tool's own schema (where they are optional, not nullable) accepts the call.
 */
export function restoreArguments(
  response: ChatResponse,
  restorers: ReadonlyMap<string, (args: string) => string>,
): ChatResponse {
  if (restorers.size === 0) return response;
  for (const generation of response.results) {
    for (const call of generation.output.toolCalls) {
      const restore = restorers.get(call.name);
      if (restore && call.metadata?.truncated !== true && !call.metadata?.nonTextArguments) {
        call.arguments = restore(call.arguments);
      }
    }
  }
  return response;
}
