import { InvalidArgumentError } from '../index.js';

/**
 * Which `ToolContext` entries an MCP request carries in its `_meta`: a list of keys (sent under
 * the same names) or a map from context key to `_meta` key. Nothing else of the context leaves
 * this process; without this option, nothing at all.
 */
export type ToolContextToMcpMeta = readonly string[] | Readonly<Record<string, string>>;

/** Checks a {@link ToolContextToMcpMeta} option; throws {@link InvalidArgumentError}. */
export function checkToolContextToMcpMeta(value: unknown): ToolContextToMcpMeta | undefined {
  if (value === undefined) return undefined;
  const ok = Array.isArray(value)
    ? value.every((key) => typeof key === 'string')
    : typeof value === 'object' &&
      value !== null &&
      Object.values(value).every((key) => typeof key === 'string');
  if (!ok) {
    throw new InvalidArgumentError(
      'toolContextToMeta must be a list of context keys or a map from context key to _meta key',
    );
  }
  return value as ToolContextToMcpMeta;
}

/** The `_meta` for one request: the allowed entries present in `context`, `undefined` if none. */
export function toMcpMeta(
  context: Readonly<Record<string, unknown>> | undefined,
  allowList: ToolContextToMcpMeta | undefined,
): Record<string, unknown> | undefined {
  if (allowList === undefined || context === undefined) return undefined;
  const pairs: [string, string][] = Array.isArray(allowList)
    ? (allowList as readonly string[]).map((key) => [key, key])
    : Object.entries(allowList);
  let meta: Record<string, unknown> | undefined;
  for (const [contextKey, metaKey] of pairs) {
    if (!Object.hasOwn(context, contextKey)) continue;
    const value = context[contextKey];
    if (value === undefined) continue;
    meta ??= {};
    meta[metaKey] = value;
  }
  return meta;
}
