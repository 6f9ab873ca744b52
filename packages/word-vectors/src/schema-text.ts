/** Nested objects and array items are read this deep. */
const MAX_DEPTH = 4;

/**
 * The text of an input schema a tool's vector reads: each parameter's name, description and the
 * string values it allows (`enum`, `const`), nested objects, array items and `anyOf` / `oneOf`
 * alternatives included, at most 4 levels deep.
 */
export function schemaText(schema: unknown): string {
  const parts: string[] = [];
  collect(schema, parts, 0);
  return parts.join(' ');
}

function collect(schema: unknown, parts: string[], depth: number): void {
  if (depth > MAX_DEPTH || typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum)) {
    for (const value of node.enum) if (typeof value === 'string') parts.push(value);
  }
  if (typeof node.const === 'string') parts.push(node.const);
  const children: unknown[] = Array.isArray(node.items) ? [...node.items] : [node.items];
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[key])) children.push(...(node[key] as unknown[]));
  }
  if (typeof node.properties === 'object' && node.properties !== null) {
    for (const [name, property] of Object.entries(node.properties)) {
      parts.push(name);
      const description = (property as { description?: unknown } | null)?.description;
      if (typeof description === 'string') parts.push(description);
      children.push(property);
    }
  }
  for (const child of children) collect(child, parts, depth + 1);
}
