import { ToolDefinitionError, type ToolInputIssue } from '../../errors/index.js';
import { jsonPointer } from '../input/json-pointer.js';
import {
  compileJsonSchema,
  trustJsonSchema,
  validateJsonSchema,
} from '../input/json-schema-validator.js';
import type { JsonSchema } from '../json-schema.js';
import { normalizeInputSchema } from './normalize-input-schema.js';
import { fillOmittedNullables, relaxNullableRequired } from './nullable-properties.js';
import { schemaShapeKeys, schemaShapeProblem } from './schema-shape.js';
import {
  type InferStandardOutput,
  isStandardJsonSchema,
  isStandardSchema,
  type JsonSchemaOutputDemand,
  type StandardJsonSchemaV1,
  type StandardSchemaIssue,
  type StandardSchemaResult,
  type StandardSchemaV1,
} from './standard-schema.js';
import type { InferTypedJsonSchemaInput } from './typed-json-schema.js';
import { unsupportedZodSchemaReason } from './unsupported-zod-schema.js';

/**
 * What a tool's `inputSchema` may be: a Standard Schema that exposes JSON Schema (Zod ≥ 4.2
 * schemas, validated by the library itself, transforms and defaults included) or a raw JSON
 * Schema object (draft 2020-12, validated with ajv).
 */
export type ToolInputSchema = StandardJsonSchemaV1 | JsonSchema;

/**
 * The bound of an `inputSchema` type parameter: a {@link ToolInputSchema}, or any Standard Schema
 * so that one without JSON Schema output (Zod 3) is reported by the type
 * {@link JsonSchemaOutputDemand} with a message naming the fix (it is refused at run time too).
 */
export type ToolInputSchemaBound = ToolInputSchema | StandardSchemaV1;

/** Intersected with tool options: their `inputSchema` must be one toolloop can use. */
export interface ToolInputSchemaDemand<Schema> {
  readonly inputSchema?: JsonSchemaOutputDemand<Schema>;
}

/**
 * The input type a tool's `execute` receives: the schema's output type for a Standard Schema, the
 * type named with `jsonSchema<T>()` or else a plain record for a raw JSON Schema, and an empty
 * object when the tool takes no input.
 */
export type InferToolInput<Schema> = [Schema] extends [undefined]
  ? Record<string, never>
  : Schema extends StandardSchemaV1
    ? InferStandardOutput<Schema>
    : unknown extends InferTypedJsonSchemaInput<Schema>
      ? Record<string, unknown>
      : InferTypedJsonSchemaInput<Schema>;

/** Outcome of checking parsed arguments against a tool's input schema. */
export type ToolInputValidation =
  | { ok: true; value: unknown }
  | { ok: false; issues: ToolInputIssue[] };

/** A tool's input schema resolved once, at definition time. */
export interface ResolvedToolInputSchema {
  /** The normalised JSON Schema the model sees. */
  readonly jsonSchema: JsonSchema;
  /**
   * True when `validate` is only the check against `jsonSchema` (a raw JSON Schema): input already
   * checked against that schema needs nothing more. False for a Standard Schema, whose own
   * validation also converts (transforms, defaults, refinements JSON Schema cannot express).
   */
  readonly checksJsonSchemaOnly: boolean;
  /**
   * Checks parsed arguments; the value passed on may be transformed by the schema library.
   * Synchronous when the schema library validates synchronously (a promise only for an async
   * schema): awaiting a value that is already there costs every tool call a promise and a
   * microtask hop.
   */
  validate(value: Record<string, unknown>): ToolInputValidation | PromiseLike<ToolInputValidation>;
}

/**
 * Resolves a tool's `inputSchema` option into the normalised JSON Schema and a validator.
 * `undefined` means the tool takes no arguments (an empty object schema). Every problem is a
 * {@link ToolDefinitionError} naming the tool, so a broken schema fails when the tool is defined.
 */
export function resolveToolInputSchema(
  inputSchema: unknown,
  toolName: string,
): ResolvedToolInputSchema {
  if (inputSchema === undefined)
    return fromJsonSchema({ type: 'object', properties: {} }, toolName);
  if (isStandardJsonSchema(inputSchema)) return fromStandardSchema(inputSchema, toolName);
  const zodProblem = unsupportedZodSchemaReason(inputSchema);
  if (zodProblem !== undefined) {
    throw new ToolDefinitionError(`The inputSchema of tool '${toolName}': ${zodProblem}`, {
      toolName,
    });
  }
  if (isStandardSchema(inputSchema)) {
    const vendor = inputSchema['~standard'].vendor;
    throw new ToolDefinitionError(
      `The inputSchema of tool '${toolName}' is a ${vendor} schema that does not expose JSON Schema ` +
        '(~standard.jsonSchema); use Zod 4.2 or later, or pass a JSON Schema object',
      { toolName },
    );
  }
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema)) {
    throw new ToolDefinitionError(
      `The inputSchema of tool '${toolName}' must be a Standard Schema (e.g. Zod) or a JSON Schema object`,
      { toolName },
    );
  }
  const shapeKeys = schemaShapeKeys(inputSchema);
  if (shapeKeys !== undefined) {
    throw new ToolDefinitionError(
      `The inputSchema of tool '${toolName}' ${schemaShapeProblem(shapeKeys)}`,
      { toolName },
    );
  }
  return fromJsonSchema(inputSchema as JsonSchema, toolName);
}

function fromJsonSchema(schema: JsonSchema, toolName: string): ResolvedToolInputSchema {
  // Written by the user in code: its patterns may use the whole ECMAScript syntax.
  const jsonSchema = trustJsonSchema(withToolName(toolName, () => normalizeInputSchema(schema)));
  withToolName(toolName, () => compileJsonSchema(jsonSchema));
  return {
    jsonSchema,
    checksJsonSchemaOnly: true,
    validate(value) {
      const issues = validateJsonSchema(jsonSchema, value);
      return issues.length === 0 ? { ok: true, value } : { ok: false, issues };
    },
  };
}

function fromStandardSchema(
  schema: StandardJsonSchemaV1,
  toolName: string,
): ResolvedToolInputSchema {
  let generated: Record<string, unknown>;
  try {
    generated = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
  } catch (error) {
    throw new ToolDefinitionError(
      `Cannot derive a JSON Schema from the inputSchema of tool '${toolName}': ${messageOf(error)}`,
      { toolName, cause: error },
    );
  }
  const jsonSchema = trustJsonSchema(withToolName(toolName, () => normalizeInputSchema(generated)));
  const fillPlan = relaxNullableRequired(jsonSchema);
  return {
    jsonSchema,
    checksJsonSchemaOnly: false,
    validate(value) {
      const result = schema['~standard'].validate(fillOmittedNullables(fillPlan, value));
      return result instanceof Promise
        ? result.then(toToolInputValidation)
        : toToolInputValidation(result);
    },
  };
}

/** A Standard Schema's validation result as a {@link ToolInputValidation} (JSON-pointer issue paths). */
export function toToolInputValidation(result: StandardSchemaResult<unknown>): ToolInputValidation {
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, issues: result.issues.map(toToolInputIssue) };
}

function toToolInputIssue(issue: StandardSchemaIssue): ToolInputIssue {
  const segments = (issue.path ?? []).map((segment) => {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    return typeof key === 'symbol' ? (key.description ?? '') : key;
  });
  return { path: jsonPointer(segments), message: issue.message };
}

function withToolName<T>(toolName: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof ToolDefinitionError && error.toolName === undefined) {
      throw new ToolDefinitionError(`Tool '${toolName}': ${error.message}`, {
        toolName,
        cause: error.cause ?? error,
      });
    }
    throw error;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
