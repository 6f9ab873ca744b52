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
  const addedNulls: string[][] = [];
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
      if (!acceptsNull(property)) {
        const route = propertyRoute(`${path}/properties/${pointerSegment(name)}`);
        if (route) addedNulls.push(route);
      }
      changes.push(
        `optional property made required and nullable at ${path}/properties/${pointerSegment(name)}`,
      );
    }
    node.required = Object.keys(properties);
  });
  const result: CompiledToolSchema = { schema: compiled, strict: true, changes };
  if (addedNulls.length > 0) result.restoreArguments = (args) => dropAddedNulls(args, addedNulls);
  return result;
}

/**
 * The route of property names (and `*` for array items) from the arguments' root to a property,
 * or `undefined` when its path goes through `$defs`, unions or other keywords (then the nulls are
 * left alone).
 */
function propertyRoute(path: string): string[] | undefined {
  const segments = path.split('/').slice(1);
  const route: string[] = [];
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index];
    if (segment === 'properties' && index + 1 < segments.length) {
      route.push((segments[++index] as string).replace(/~1/g, '/').replace(/~0/g, '~'));
    } else if (segment === 'items') {
      route.push('*');
    } else {
      return undefined;
    }
  }
  return route;
}

/** Removes the `null` values the model sent for properties that are optional in the tool's schema. */
function dropAddedNulls(args: string, routes: readonly string[][]): string {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return args;
  }
  let changed = false;
  const visit = (node: unknown, route: readonly string[]): void => {
    if (route.length === 0 || typeof node !== 'object' || node === null) return;
    const [head, ...rest] = route as [string, ...string[]];
    if (head === '*') {
      if (Array.isArray(node)) for (const item of node) visit(item, rest);
      return;
    }
    if (Array.isArray(node) || !Object.hasOwn(node, head)) return;
    const record = node as Record<string, unknown>;
    if (rest.length === 0) {
      if (record[head] === null) {
        delete record[head];
        changed = true;
      }
      return;
    }
    visit(record[head], rest);
  };
  for (const route of routes) visit(value, route);
  return changed ? JSON.stringify(value) : args;
}

function acceptsNull(schema: JsonSchema): boolean {
  if (schema.type === 'null') return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  return (
    Array.isArray(schema.anyOf) &&
    schema.anyOf.some((branch) => isSchemaObject(branch) && acceptsNull(branch))
  );
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
