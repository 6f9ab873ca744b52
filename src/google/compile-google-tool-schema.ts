import {
  type CompiledToolSchema,
  isSchemaObject,
  objectRootSchema,
  pointerSegment,
} from '../internal/tool-schema-adaptation.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type { GoogleSchema } from './google-wire.js';

type GoogleType = NonNullable<GoogleSchema['type']>;

const TYPES: Record<string, GoogleType> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
};

/** Keywords that only structure a schema: dropped without a report once `$ref`s are resolved. */
const STRUCTURAL = new Set(['$schema', '$id', '$comment', '$anchor', '$defs', 'definitions']);
/** Keywords handled one by one below (kept, converted or reported). */
const HANDLED = new Set([
  '$ref',
  'type',
  'title',
  'description',
  'default',
  'nullable',
  'enum',
  'const',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'properties',
  'required',
  'items',
  'anyOf',
  'oneOf',
  'allOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
]);
const COUNTS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
] as const;
/** The only string formats the API accepts; other formats make it refuse the request. */
const STRING_FORMATS = new Set(['enum', 'date-time']);
const NUMBER_FORMATS = new Set(['int32', 'int64', 'float', 'double']);
/** Deeper schemas are cut: a hostile or generated schema must not cost unbounded time. */
const MAX_DEPTH = 64;

interface Context {
  root: JsonSchema;
  changes: string[];
  /** The `$ref`s being expanded, to cut recursion. */
  expanding: string[];
}

/**
 * Adapts a tool's input schema to the subset of JSON Schema (OpenAPI 3.0 style) that the Gemini
 * API accepts in a function declaration's `parameters`. The root becomes an object schema; local
 * `$ref`s are inlined (a recursive one is cut to its type); `type` names are written the API's way
 * (`OBJECT`, `STRING`, …); a type list or a union with `null` becomes `nullable`; `oneOf` becomes
 * `anyOf`; `allOf` branches are merged into one schema; a string `const` becomes a one-value
 * `enum`; counts (`minLength`, `maxItems`, …) are written as the API's int64 strings. What the API
 * has no keyword for (`additionalProperties`, `exclusiveMinimum`, `multipleOf`, `uniqueItems`,
 * `patternProperties`, conditionals, non-string `enum`s, string formats other than `date-time`,
 * …) is removed. Every change is listed, naming the JSON-pointer path it applies to; the tool's
 * own validation still applies the whole original schema to the arguments. Gemini has no strict
 * mode: `strict` is ignored.
 */
export function compileGoogleToolSchema(
  schema: JsonSchema,
  _options: { strict: boolean },
): CompiledToolSchema {
  const root = objectRootSchema(schema);
  const context: Context = { root: root.schema, changes: [...root.changes], expanding: [] };
  const compiled = convert(root.schema, '', context, 0);
  return {
    schema: compiled as unknown as JsonSchema,
    strict: false,
    changes: context.changes,
  };
}

function convert(node: unknown, path: string, context: Context, depth: number): GoogleSchema {
  const at = path || '/';
  if (!isSchemaObject(node)) {
    if (node !== true) context.changes.push(`replaced a schema that is not an object at ${at}`);
    return {};
  }
  if (depth > MAX_DEPTH) {
    context.changes.push(`cut a schema nested deeper than ${MAX_DEPTH} levels at ${at}`);
    return {};
  }
  if (typeof node.$ref === 'string') return expandRef(node, path, context, depth);
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    context.changes.push(`merged allOf into one schema at ${at}`);
    let merged: JsonSchema = rest;
    for (const branch of allOf) merged = mergeSchemas(merged, resolveShallow(branch, context));
    return convert(merged, path, context, depth + 1);
  }
  const result: GoogleSchema = {};
  for (const key of Object.keys(node)) {
    if (STRUCTURAL.has(key) || HANDLED.has(key)) continue;
    context.changes.push(`removed unsupported keyword "${key}" at ${at}`);
  }
  if (typeof node.title === 'string') result.title = node.title;
  if (typeof node.description === 'string') result.description = node.description;
  if (node.default !== undefined) result.default = node.default;
  if (node.nullable === true) result.nullable = true;

  let types = typeList(node.type, at, context);
  const union = Array.isArray(node.anyOf)
    ? node.anyOf
    : Array.isArray(node.oneOf)
      ? node.oneOf
      : [];
  if (Array.isArray(node.oneOf)) context.changes.push(`oneOf turned into anyOf at ${at}`);
  if (types.includes('NULL') && types.length > 1) {
    result.nullable = true;
    types = types.filter((type) => type !== 'NULL');
  }
  if (types.length > 1) {
    context.changes.push(`type list turned into anyOf at ${at}`);
    const { type: _type, ...rest } = node;
    result.anyOf = types.map((type, index) =>
      convert({ ...rest, type: type.toLowerCase() }, `${path}/anyOf/${index}`, context, depth + 1),
    );
    return result;
  }
  const type = types[0];
  if (type !== undefined) result.type = type;

  if (union.length > 0) {
    const key = Array.isArray(node.anyOf) ? 'anyOf' : 'oneOf';
    const branches = union
      .map((branch, index) => convert(branch, `${path}/${key}/${index}`, context, depth + 1))
      .filter((branch) => {
        if (branch.type !== 'NULL') return true;
        result.nullable = true;
        return false;
      });
    if (branches.length === 1 && result.type === undefined) {
      Object.assign(result, { ...branches[0], ...result });
    } else if (branches.length > 0) {
      result.anyOf = branches;
    }
  }

  enumOf(node, result, at, context);
  formatOf(node, result, at, context);
  if (typeof node.pattern === 'string') result.pattern = node.pattern;
  for (const bound of ['minimum', 'maximum'] as const) {
    if (typeof node[bound] === 'number') result[bound] = node[bound] as number;
  }
  for (const count of COUNTS) {
    const value = node[count];
    if (value === undefined) continue;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
      result[count] = String(value);
    } else {
      context.changes.push(`removed "${count}" that is not a count at ${at}`);
    }
  }

  if (isSchemaObject(node.properties)) {
    const properties: Record<string, GoogleSchema> = {};
    for (const [name, property] of Object.entries(node.properties)) {
      // Defined, not assigned: a property named `__proto__` must stay a property.
      Object.defineProperty(properties, name, {
        value: convert(property, `${path}/properties/${pointerSegment(name)}`, context, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (Object.keys(properties).length > 0) result.properties = properties;
    if (Array.isArray(node.required)) {
      const required = node.required.filter(
        (name): name is string => typeof name === 'string' && Object.hasOwn(properties, name),
      );
      if (required.length !== node.required.length) {
        context.changes.push(`removed required names that have no property at ${at}`);
      }
      if (required.length > 0) result.required = required;
    }
  }
  if (isSchemaObject(node.items)) {
    result.items = convert(node.items, `${path}/items`, context, depth + 1);
  } else if (Array.isArray(node.items)) {
    context.changes.push(`tuple items turned into items of their union at ${at}`);
    result.items = {
      anyOf: node.items.map((item, index) =>
        convert(item, `${path}/items/${index}`, context, depth + 1),
      ),
    };
  }
  return result;
}

/** Inlines a local `$ref` (`#`, `#/$defs/…`, `#/definitions/…`); a recursive one keeps its type only. */
function expandRef(node: JsonSchema, path: string, context: Context, depth: number): GoogleSchema {
  const at = path || '/';
  const { $ref, ...siblings } = node;
  const ref = $ref as string;
  const target = resolveRef(ref, context.root);
  if (target === undefined) {
    context.changes.push(`removed $ref "${ref}" that does not point into the schema at ${at}`);
    return convert(siblings, path, context, depth + 1);
  }
  if (context.expanding.includes(ref)) {
    context.changes.push(`cut the recursive $ref "${ref}" to its type at ${at}`);
    const type =
      typeList(target.type, at, context)[0] ?? (target.properties ? 'OBJECT' : undefined);
    const description = siblings.description ?? target.description;
    return {
      ...(type === undefined ? {} : { type }),
      ...(typeof description === 'string' ? { description } : {}),
    };
  }
  context.expanding.push(ref);
  try {
    return convert({ ...target, ...siblings }, path, context, depth + 1);
  } finally {
    context.expanding.pop();
  }
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (ref === '#') return root;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const name = (match[2] as string).replace(/~1/g, '/').replace(/~0/g, '~');
  const defs = root[match[1] as string];
  if (!isSchemaObject(defs)) return undefined;
  const target = Object.hasOwn(defs, name) ? defs[name] : undefined;
  return isSchemaObject(target) ? target : undefined;
}

/** An `allOf` branch with its own `$ref` resolved, for merging. */
function resolveShallow(branch: unknown, context: Context): JsonSchema {
  if (!isSchemaObject(branch)) return {};
  if (typeof branch.$ref !== 'string') return branch;
  const { $ref, ...rest } = branch;
  return { ...(resolveRef($ref as string, context.root) ?? {}), ...rest };
}

/** Two schemas as one: properties and required names joined, other keywords of the first kept. */
function mergeSchemas(first: JsonSchema, second: JsonSchema): JsonSchema {
  const merged: JsonSchema = { ...second, ...first };
  if (isSchemaObject(first.properties) || isSchemaObject(second.properties)) {
    merged.properties = { ...second.properties, ...first.properties };
  }
  const required = [
    ...(Array.isArray(first.required) ? first.required : []),
    ...(Array.isArray(second.required) ? second.required : []),
  ];
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

function typeList(value: unknown, at: string, context: Context): GoogleType[] {
  const names = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  const types: GoogleType[] = [];
  for (const name of names) {
    const type = typeof name === 'string' ? TYPES[name] : undefined;
    if (type === undefined) context.changes.push(`removed an unknown type at ${at}`);
    else if (!types.includes(type)) types.push(type);
  }
  return types;
}

/** Gemini's `enum` holds strings only: a string `const` becomes one, other values are removed. */
function enumOf(node: JsonSchema, result: GoogleSchema, at: string, context: Context): void {
  const values: unknown[] | undefined = Array.isArray(node.enum)
    ? node.enum
    : 'const' in node
      ? [node.const]
      : undefined;
  if (values === undefined) return;
  const strings = values.filter((value): value is string => typeof value === 'string');
  if (values.includes(null)) result.nullable = true;
  if (strings.length === values.filter((value) => value !== null).length && strings.length > 0) {
    result.enum = strings;
    result.type ??= 'STRING';
    if ('const' in node && !Array.isArray(node.enum)) {
      context.changes.push(`const turned into a one-value enum at ${at}`);
    }
    return;
  }
  context.changes.push(
    `removed ${Array.isArray(node.enum) ? 'an enum' : 'a const'} of values that are not all strings at ${at}`,
  );
}

function formatOf(node: JsonSchema, result: GoogleSchema, at: string, context: Context): void {
  if (typeof node.format !== 'string') return;
  const allowed =
    result.type === 'STRING'
      ? STRING_FORMATS
      : result.type === 'NUMBER' || result.type === 'INTEGER'
        ? NUMBER_FORMATS
        : new Set<string>();
  if (allowed.has(node.format)) result.format = node.format;
  else context.changes.push(`removed unsupported format "${node.format}" at ${at}`);
}
