import { InvalidArgumentError, untilAborted } from '../errors/index.js';
import type {
  ToolCallback,
  ToolCallbackProvider,
  ToolCallbackProviderRequest,
} from './tool-callback.js';
import { toolCallbacksFrom } from './tool-decorator.js';

/**
 * What `ChatClient.tools(...)` accepts: a {@link ToolCallback}, a {@link ToolCallbackProvider}
 * (listed again on every request), an object (or class) with `@tool` methods, or arrays of these.
 */
export type ToolSource = ToolCallback | ToolCallbackProvider | object | readonly ToolSource[];

/** Tool sources sorted into ready callbacks and providers to ask on each request. */
export interface CollectedToolSources {
  readonly callbacks: ToolCallback[];
  readonly providers: ToolCallbackProvider[];
}

/** True for a {@link ToolCallback}: a `definition` with a string name and a `call` function. */
export function isToolCallback(value: unknown): value is ToolCallback {
  if (typeof value !== 'object' || value === null) return false;
  const { definition, call } = value as { definition?: unknown; call?: unknown };
  return (
    typeof call === 'function' &&
    typeof definition === 'object' &&
    definition !== null &&
    typeof (definition as { name?: unknown }).name === 'string'
  );
}

/** True for a {@link ToolCallbackProvider}: an object with a `getToolCallbacks` function. */
export function isToolCallbackProvider(value: unknown): value is ToolCallbackProvider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { getToolCallbacks?: unknown }).getToolCallbacks === 'function'
  );
}

/**
 * Sorts tool sources, flattening arrays. Objects with `@tool` methods become callbacks right
 * away, so a wrong object fails here (`ToolDefinitionError`) and not later inside a request;
 * `null`, `undefined` and primitives throw {@link InvalidArgumentError}.
 */
export function collectToolSources(sources: readonly ToolSource[]): CollectedToolSources {
  const callbacks: ToolCallback[] = [];
  const providers: ToolCallbackProvider[] = [];
  // Most calls pass callbacks side by side; only nested arrays need the stack and the cycle check.
  let seenArrays: Set<unknown> | undefined;
  for (let index = 0; index < sources.length; index++) {
    const source: unknown = sources[index];
    if (!Array.isArray(source)) {
      sortToolSource(source, callbacks, providers);
      continue;
    }
    seenArrays ??= new Set<unknown>();
    const pending: unknown[] = [source];
    while (pending.length > 0) {
      const next = pending.pop();
      if (!Array.isArray(next)) {
        sortToolSource(next, callbacks, providers);
        continue;
      }
      if (seenArrays.has(next)) continue;
      seenArrays.add(next);
      for (let item = next.length - 1; item >= 0; item--) pending.push(next[item]);
    }
  }
  return { callbacks, providers };
}

function sortToolSource(
  source: unknown,
  callbacks: ToolCallback[],
  providers: ToolCallbackProvider[],
): void {
  if ((typeof source !== 'object' && typeof source !== 'function') || source === null) {
    throw new InvalidArgumentError(
      `Tools cannot contain ${source === null || source === undefined ? String(source) : `a ${typeof source}`} elements`,
    );
  }
  if (isToolCallback(source)) callbacks.push(source);
  else if (isToolCallbackProvider(source)) providers.push(source);
  else callbacks.push(...toolCallbacksFrom(source));
}

/**
 * The callbacks of collected sources for one request: the fixed callbacks first, then each
 * provider's, asked anew every time (providers such as MCP servers may change their tools). Each
 * provider is told the names taken before it (`reservedNames`), so that its own collision policy
 * can act; duplicates it lets through are left to the caller's uniqueness check. `request` adds
 * the names taken outside these sources (a wrapping provider passes on what it was told), and
 * its `signal`, passed to every provider, ends the wait with an `AbortError` when it aborts.
 */
export async function resolveToolCallbacks(
  collected: CollectedToolSources,
  request?: ToolCallbackProviderRequest,
): Promise<ToolCallback[]> {
  const resolved = [...collected.callbacks];
  if (collected.providers.length === 0) return resolved;
  const reservedNames = new Set<string>(request?.reservedNames);
  for (const callback of resolved) reservedNames.add(callback.definition.name);
  for (const provider of collected.providers) {
    const signal = request?.signal;
    const provided: unknown = await untilAborted(
      provider.getToolCallbacks({
        reservedNames: new Set(reservedNames),
        ...(signal === undefined ? {} : { signal }),
      }),
      signal,
    );
    if (!Array.isArray(provided) || !provided.every(isToolCallback)) {
      throw new InvalidArgumentError(
        'A ToolCallbackProvider must return an array of ToolCallbacks',
      );
    }
    for (const callback of provided) {
      resolved.push(callback);
      reservedNames.add(callback.definition.name);
    }
  }
  return resolved;
}
