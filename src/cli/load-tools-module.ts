import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasToolMethods, isToolCallback, type ToolSource } from '../tools/index.js';
import { UsageError } from './usage-error.js';

function isToolSource(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isToolSource);
  if (typeof value !== 'object' || value === null) return false;
  return (
    isToolCallback(value) ||
    typeof (value as { getToolCallbacks?: unknown }).getToolCallbacks === 'function' ||
    hasToolMethods(value)
  );
}

/**
 * The tools a module exports: its default export (a tool, an array of tools, an object with
 * `@tool` methods, or a `ToolCallbackProvider`), or else every named export that is one of
 * those. Throws a {@link UsageError} when the module cannot be found or exports no tools.
 */
export async function loadToolsModule(
  path: string,
  cwd: string = process.cwd(),
): Promise<ToolSource[]> {
  const url = pathToFileURL(resolve(cwd, path)).href;
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (
      code === 'ERR_MODULE_NOT_FOUND' &&
      String((error as Error).message).includes(resolve(cwd, path))
    ) {
      throw new UsageError(`tools module not found: ${path}`);
    }
    throw error;
  }
  if (module.default !== undefined) {
    if (!isToolSource(module.default)) {
      throw new UsageError(
        `the default export of ${path} is not a tool, an array of tools, an object with @tool methods or a ToolCallbackProvider`,
      );
    }
    return [module.default as ToolSource];
  }
  const tools = Object.entries(module)
    .filter(([, value]) => isToolSource(value))
    .map(([, value]) => value as ToolSource);
  if (tools.length === 0) {
    throw new UsageError(
      `${path} exports no tools: export tool() callbacks, objects with @tool methods, or a default array of them`,
    );
  }
  return tools;
}
