/** A way into a JSON value: object keys and array indexes, outermost first. */
export type JsonPath = (string | number)[];

/** Every path of a JSON value, the value itself (`[]`) first. */
export function jsonPaths(value: unknown, prefix: JsonPath = []): JsonPath[] {
  const found: JsonPath[] = [prefix];
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      found.push(...jsonPaths(item, [...prefix, index]));
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value))
      found.push(...jsonPaths(item, [...prefix, key]));
  }
  return found;
}

/** A copy of `value` with the node at `path` replaced (deleted from an object, for `undefined`). */
export function withJsonPathReplaced(
  value: unknown,
  path: JsonPath,
  replacement: unknown,
): unknown {
  if (path.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (replacement === undefined && !Array.isArray(node)) delete node[last];
  else node[last] = replacement;
  return copy;
}
