import { ToolDefinitionError } from '../../errors/index.js';
import type { JsonSchema } from '../json-schema.js';

/** The JSON Schema dialect of every tool input schema. */
export const JSON_SCHEMA_DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

// Keywords whose value is one schema or an array of schemas.
const SCHEMA_KEYWORDS = [
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
  'contentSchema',
] as const;
// Keywords whose value maps names to schemas.
const SCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
] as const;
// In JSON Schema the properties of a sibling or combined branch count as "additional", so closing
// an object that is combined with others would reject every valid value.
const COMBINING_KEYWORDS = [
  'allOf',
  'anyOf',
  'oneOf',
  '$ref',
  '$dynamicRef',
  'if',
  'unevaluatedProperties',
];
const ROOT_KEY_ORDER = [
  '$schema',
  'type',
  '$defs',
  'properties',
  'required',
  'additionalProperties',
];

/**
 * Brings a tool's input schema to the shape the model sees (Spring AI's method-tool schema):
 * `$schema` draft 2020-12 first, `type: 'object'`, `properties` and `required` always present, and
 * `additionalProperties: false` on the root and on every nested object schema that lists
 * `properties` without saying otherwise. Root keys come in the order `$schema, type, $defs,
 * properties, required, additionalProperties`, then the rest. The input is not modified.
 *
 * Objects combined with other schemas (`allOf` members, nodes with `anyOf`/`oneOf`/`$ref`/`if`)
 * are left open, because closing them would reject values the combination allows.
 *
 * Throws {@link ToolDefinitionError} when the schema is not an object or does not describe a
 * JSON object (tool arguments are always an object).
 */
export function normalizeInputSchema(schema: unknown): JsonSchema {
  if (!isPlainObject(schema)) {
    throw new ToolDefinitionError('A tool input schema must be a JSON Schema object');
  }
  let copy: Record<string, unknown>;
  try {
    copy = structuredClone(schema);
  } catch (error) {
    throw new ToolDefinitionError('A tool input schema must be plain JSON data', { cause: error });
  }
  const type = copy.type;
  const isObjectType =
    type === undefined ||
    type === 'object' ||
    (Array.isArray(type) &&
      type.includes('object') &&
      type.every((t) => t === 'object' || t === 'null'));
  if (!isObjectType) {
    throw new ToolDefinitionError(
      `A tool input schema must describe a JSON object (type "object"), not type ${JSON.stringify(type)}`,
    );
  }
  copy.$schema = JSON_SCHEMA_DRAFT_2020_12;
  copy.type = 'object';
  if (!isPlainObject(copy.properties)) copy.properties = {};
  if (!Array.isArray(copy.required)) copy.required = [];
  closeObjectSchemas(copy, false, new Set());

  const ordered: Record<string, unknown> = {};
  for (const key of ROOT_KEY_ORDER) if (copy[key] !== undefined) ordered[key] = copy[key];
  for (const [key, value] of Object.entries(copy)) if (!(key in ordered)) ordered[key] = value;
  return ordered as JsonSchema;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCombined(node: Record<string, unknown>): boolean {
  return COMBINING_KEYWORDS.some((keyword) => node[keyword] !== undefined);
}

function closeObjectSchemas(node: unknown, isAllOfMember: boolean, seen: Set<object>): void {
  if (!isPlainObject(node) || seen.has(node)) return;
  seen.add(node);
  if (
    !isAllOfMember &&
    isPlainObject(node.properties) &&
    node.additionalProperties === undefined &&
    !isCombined(node)
  ) {
    node.additionalProperties = false;
  }
  for (const keyword of SCHEMA_KEYWORDS) {
    const value = node[keyword];
    if (Array.isArray(value)) for (const member of value) closeObjectSchemas(member, false, seen);
    else closeObjectSchemas(value, false, seen);
  }
  if (Array.isArray(node.allOf))
    for (const member of node.allOf) closeObjectSchemas(member, true, seen);
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = node[keyword];
    if (isPlainObject(map))
      for (const member of Object.values(map)) closeObjectSchemas(member, false, seen);
  }
}
