import type { JsonSchema } from '../tools/json-schema.js';

const MAX_SCHEMA_DEPTH = 4;

/**
 * The string values an input schema allows through `enum` or `const` (`["regular", "3d", "imax"]`),
 * nested objects, array items and `anyOf`/`oneOf` alternatives included, at most 4 levels deep.
 * Requests often name such a value ("a 3D movie", "Electropop tracks") rather than the parameter.
 */
export function schemaEnumValues(schema: JsonSchema | undefined): string[] {
  const values: string[] = [];
  collectEnumValues(schema, values, 0);
  return values;
}

function collectEnumValues(schema: unknown, values: string[], depth: number): void {
  if (depth > MAX_SCHEMA_DEPTH || typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.enum)) {
    for (const value of node.enum) if (typeof value === 'string') values.push(value);
  }
  if (typeof node.const === 'string') values.push(node.const);
  if (typeof node.properties === 'object' && node.properties !== null) {
    for (const property of Object.values(node.properties)) {
      collectEnumValues(property, values, depth + 1);
    }
  }
  const children = Array.isArray(node.items) ? node.items : [node.items];
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[key])) children.push(...(node[key] as unknown[]));
  }
  for (const child of children) collectEnumValues(child, values, depth + 1);
}
