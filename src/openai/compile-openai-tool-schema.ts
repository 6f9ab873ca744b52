import {
  type CompiledToolSchema,
  describesObject,
  isSchemaObject,
  objectRootSchema,
  pointerSegment,
  transformSchema,
} from '../internal/tool-schema-adaptation.js';
import type { JsonSchema } from '../tools/json-schema.js';

/**
 * Keywords OpenAI's strict mode (Structured Outputs) rejects. They are removed from the schema
 * sent to the model; the tool's own validation still applies them to the arguments.
 */
const STRICT_UNSUPPORTED_KEYWORDS = [
  '$schema',
  '$id',
  'default',
  'examples',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'unevaluatedProperties',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedItems',
  'contentEncoding',
  'contentMediaType',
];

/** Keywords strict mode cannot express at all; a schema using one is sent non-strict instead. */
const STRICT_BLOCKING_KEYWORDS = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
];

/** String formats strict mode accepts. */
const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/**
 * Adapts a tool's input schema to what OpenAI's Chat Completions API accepts.
 *
 * Non-strict: the root is made an object schema with `properties` (see `objectRootSchema`). Strict (`strict: true`): every
 * object gets `additionalProperties: false` and lists all its properties in `required`; the
 * optional ones become nullable (`type: [t, 'null']`, or `anyOf` with `{type:'null'}`, and `null`
 * added to an `enum`), so the model may still leave them out by sending `null`; keywords strict
 * mode rejects are removed; `oneOf` becomes `anyOf`. A schema that strict mode cannot express
 * (`allOf`, `not`, conditionals, `patternProperties`, map-like `additionalProperties` schemas, a
 * root that is not an object) is sent non-strict, and that is reported as a change too.
 */
export function compileOpenAiToolSchema(
  schema: JsonSchema,
  options: { strict: boolean },
): CompiledToolSchema {
  const loose = compileLoose(schema);
  if (!options.strict) return loose;
  const blocker = strictBlocker(loose.schema);
  if (blocker) {
    return { ...loose, changes: [...loose.changes, `strict mode off: ${blocker}`] };
  }
  const changes: string[] = [...loose.changes];
  const compiled = transformSchema(loose.schema, (node, path) => {
    const at = path || '/';
    for (const keyword of STRICT_UNSUPPORTED_KEYWORDS) {
      if (keyword in node) {
        delete node[keyword];
        changes.push(`removed unsupported keyword "${keyword}" at ${at}`);
      }
    }
    if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format)) {
      changes.push(`removed unsupported format "${node.format}" at ${at}`);
      delete node.format;
    }
    if (Array.isArray(node.oneOf)) {
      node.anyOf = [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...node.oneOf];
      delete node.oneOf;
      changes.push(`oneOf turned into anyOf at ${at}`);
    }
    if (!describesObject(node)) return;
    if (node.additionalProperties !== false) {
      node.additionalProperties = false;
      changes.push(`additionalProperties set to false at ${at}`);
    }
    const properties = isSchemaObject(node.properties)
      ? (node.properties as Record<string, JsonSchema>)
      : {};
    node.properties = properties;
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    for (const [name, property] of Object.entries(properties)) {
      if (required.has(name)) continue;
      properties[name] = nullable(property);
      changes.push(
        `optional property made required and nullable at ${path}/properties/${pointerSegment(name)}`,
      );
    }
    node.required = Object.keys(properties);
  });
  return { schema: compiled, strict: true, changes };
}

function compileLoose(schema: JsonSchema): CompiledToolSchema {
  const { schema: root, changes } = objectRootSchema(schema);
  return { schema: root, strict: false, changes };
}

/** Why a schema cannot be sent in strict mode, or `undefined` when it can. */
function strictBlocker(schema: JsonSchema): string | undefined {
  if (schema.type !== undefined && schema.type !== 'object') {
    return 'the root schema is not an object';
  }
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    return 'the root schema is a union (anyOf/oneOf)';
  }
  let reason: string | undefined;
  transformSchema(schema, (node, path) => {
    if (reason) return;
    for (const keyword of STRICT_BLOCKING_KEYWORDS) {
      if (keyword in node) {
        reason = `"${keyword}" at ${path || '/'} has no strict-mode equivalent`;
        return;
      }
    }
    if (isSchemaObject(node.additionalProperties)) {
      reason = `a map-like additionalProperties schema at ${path || '/'} has no strict-mode equivalent`;
    }
  });
  return reason;
}

function nullable(schema: JsonSchema): JsonSchema {
  const withNullEnum = (copy: JsonSchema): JsonSchema => {
    if (Array.isArray(copy.enum) && !copy.enum.includes(null)) copy.enum = [...copy.enum, null];
    return copy;
  };
  if (typeof schema.type === 'string') {
    if (schema.type === 'null') return schema;
    return withNullEnum({ ...schema, type: [schema.type, 'null'] });
  }
  if (Array.isArray(schema.type)) {
    if (schema.type.includes('null')) return schema;
    return withNullEnum({ ...schema, type: [...schema.type, 'null'] });
  }
  if (Array.isArray(schema.anyOf)) {
    const hasNull = schema.anyOf.some((branch) => isSchemaObject(branch) && branch.type === 'null');
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  const { description, ...rest } = schema;
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [rest, { type: 'null' }],
  };
}
