import {
  type CompiledToolSchema,
  describesObject,
  objectRootSchema,
  transformSchema,
} from '../internal/tool-schema-adaptation.js';
import type { JsonSchema } from '../tools/json-schema.js';

/** Keywords Anthropic's strict tool mode does not support; removed from the schema sent. */
const STRICT_UNSUPPORTED_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
];

const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

/**
 * Adapts a tool's input schema to what Anthropic's Messages API accepts as `input_schema`.
 *
 * Always: the root is an object schema (a missing `type` is added; a root `anyOf` / `oneOf`,
 * which the API refuses, is flattened into one object). Strict (`strict: true` tools): every
 * object gets `additionalProperties: false`, numeric and string-length constraints and other
 * unsupported keywords are removed, `minItems` above 1 is dropped, and unsupported `format`s
 * are removed. Optional properties stay optional (strict mode allows them).
 */
export function compileAnthropicToolSchema(
  schema: JsonSchema,
  options: { strict: boolean },
): CompiledToolSchema {
  const root = objectRootSchema(schema);
  if (!options.strict) return { schema: root.schema, strict: false, changes: root.changes };
  const changes = [...root.changes];
  const compiled = transformSchema(root.schema, (node, path) => {
    const at = path || '/';
    for (const keyword of STRICT_UNSUPPORTED_KEYWORDS) {
      if (keyword in node) {
        delete node[keyword];
        changes.push(`removed unsupported keyword "${keyword}" at ${at}`);
      }
    }
    if (typeof node.minItems === 'number' && node.minItems > 1) {
      delete node.minItems;
      changes.push(`removed minItems above 1 at ${at}`);
    }
    if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format)) {
      changes.push(`removed unsupported format "${node.format}" at ${at}`);
      delete node.format;
    }
    if (describesObject(node) && node.additionalProperties !== false) {
      node.additionalProperties = false;
      changes.push(`additionalProperties set to false at ${at}`);
    }
  });
  return { schema: compiled, strict: true, changes };
}
