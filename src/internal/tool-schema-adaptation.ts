import type { JsonSchema } from '../tools/json-schema.js';

/** How one tool's input schema was changed to fit a provider, reported once per tool definition. */
export interface SchemaAdaptation {
  toolName: string;
  /** The provider the schema was compiled for, e.g. `'openai'`. */
  provider: string;
  /** Whether the tool is sent in the provider's strict mode. */
  strict: boolean;
  /** One human-readable line per change, each naming the JSON-pointer path it applies to. */
  changes: string[];
}

/** A tool schema compiled for a provider. */
export interface CompiledToolSchema {
  schema: JsonSchema;
  strict: boolean;
  changes: string[];
  /**
   * Undoes the compilation's effect on the model's arguments (OpenAI strict mode: drops the
   * `null`s sent for optional properties that were made nullable), so the tool's own schema
   * accepts them. Absent when nothing needs undoing.
   */
  restoreArguments?: (args: string) => string;
}

/** A JSON-pointer segment, escaped as RFC 6901 says. */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** True for a plain JSON object (not an array, not null). */
export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when the schema describes an object (by `type` or by having `properties`). */
export function describesObject(schema: JsonSchema): boolean {
  const { type } = schema;
  if (type === 'object') return true;
  if (Array.isArray(type) && type.includes('object')) return true;
  return type === undefined && isSchemaObject(schema.properties);
}

/** Keys whose values are single subschemas. */
export const SUBSCHEMA_KEYS = ['items', 'additionalItems', 'contains', 'not', 'if', 'then', 'else'];
/** Keys whose values are arrays of subschemas. */
export const SUBSCHEMA_ARRAY_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keys whose values map names to subschemas. */
export const SUBSCHEMA_MAP_KEYS = ['properties', '$defs', 'definitions', 'patternProperties'];

/**
 * Copies a schema tree, calling `visit` on every subschema (root first) with its JSON-pointer path;
 * `visit` may change the copy it receives in place.
 */
export function transformSchema(
  schema: JsonSchema,
  visit: (node: JsonSchema, path: string) => void,
  path = '',
): JsonSchema {
  const copy: JsonSchema = { ...schema };
  for (const key of SUBSCHEMA_MAP_KEYS) {
    const map = copy[key];
    if (!isSchemaObject(map)) continue;
    const next: Record<string, JsonSchema> = {};
    for (const [name, child] of Object.entries(map)) {
      next[name] = isSchemaObject(child)
        ? transformSchema(child, visit, `${path}/${key}/${pointerSegment(name)}`)
        : (child as JsonSchema);
    }
    copy[key] = next;
  }
  for (const key of SUBSCHEMA_KEYS) {
    const child = copy[key];
    if (isSchemaObject(child)) copy[key] = transformSchema(child, visit, `${path}/${key}`);
    else if (Array.isArray(child) && key === 'items') {
      copy[key] = child.map((item, index) =>
        isSchemaObject(item) ? transformSchema(item, visit, `${path}/items/${index}`) : item,
      );
    }
  }
  if (isSchemaObject(copy.additionalProperties)) {
    copy.additionalProperties = transformSchema(
      copy.additionalProperties,
      visit,
      `${path}/additionalProperties`,
    );
  }
  for (const key of SUBSCHEMA_ARRAY_KEYS) {
    const list = copy[key];
    if (!Array.isArray(list)) continue;
    copy[key] = list.map((item, index) =>
      isSchemaObject(item) ? transformSchema(item, visit, `${path}/${key}/${index}`) : item,
    );
  }
  visit(copy, path);
  return copy;
}

/**
 * Makes the root of a tool schema a plain object schema, which both providers require: a missing
 * `type` becomes `"object"`, and a root union (`anyOf` / `oneOf`) of object schemas is flattened
 * into one object holding every branch's properties, none required (the tool's own validation
 * still checks the real union). Returns the copy and the changes made.
 */
export function objectRootSchema(schema: JsonSchema): { schema: JsonSchema; changes: string[] } {
  const changes: string[] = [];
  let copy: JsonSchema = { ...schema };
  const union = Array.isArray(copy.anyOf)
    ? 'anyOf'
    : Array.isArray(copy.oneOf)
      ? 'oneOf'
      : undefined;
  if (
    union &&
    (copy.type === undefined || copy.type === 'object') &&
    !isSchemaObject(copy.properties)
  ) {
    const properties: Record<string, JsonSchema> = {};
    for (const branch of copy[union] as unknown[]) {
      if (!isSchemaObject(branch) || !isSchemaObject(branch.properties)) continue;
      for (const [name, property] of Object.entries(branch.properties)) {
        properties[name] ??= property as JsonSchema;
      }
    }
    const { [union]: _removed, required: _required, ...rest } = copy;
    copy = { ...rest, type: 'object', properties };
    changes.push(`root ${union} flattened into one object whose properties are all optional at /`);
  }
  if (copy.type === undefined) {
    copy.type = 'object';
    changes.push('added type "object" at /');
  }
  if (copy.type === 'object' && !isSchemaObject(copy.properties)) {
    copy.properties = {};
    changes.push('added empty properties at /');
  }
  return { schema: copy, changes };
}
