import { ToolDefinitionError } from '../../errors/index.js';
import { compileJsonSchema, validateJsonSchema } from '../input/json-schema-validator.js';
import type { JsonSchema } from '../json-schema.js';
import { JSON_SCHEMA_DRAFT_2020_12 } from './normalize-input-schema.js';
import { schemaShapeKeys, schemaShapeProblem } from './schema-shape.js';
import {
  isStandardJsonSchema,
  isStandardSchema,
  type StandardJsonSchemaV1,
} from './standard-schema.js';
import { type ToolInputValidation, toToolInputValidation } from './tool-input-schema.js';
import { unsupportedZodSchemaReason } from './unsupported-zod-schema.js';

/**
 * What a tool's `outputSchema` may be: a Standard Schema that exposes JSON Schema (Zod ≥ 4.2) or
 * a raw JSON Schema object. Its root is an object schema (`type: 'object'`), as MCP requires of
 * an advertised output schema.
 */
export type ToolOutputSchema = StandardJsonSchemaV1 | JsonSchema;

/** A tool's output schema resolved once, at definition time. */
export interface ResolvedToolOutputSchema {
  /** The JSON Schema of the output (what an MCP server advertises). */
  readonly jsonSchema: JsonSchema;
  /** Checks a result; the value passed on may be converted by the schema library. */
  validate(value: unknown): ToolInputValidation | PromiseLike<ToolInputValidation>;
}

/**
 * Resolves a tool's `outputSchema` option into its JSON Schema and a validator. Every problem is
 * a {@link ToolDefinitionError} naming the tool, so a broken schema fails where the tool is
 * defined.
 */
export function resolveToolOutputSchema(
  outputSchema: unknown,
  toolName: string,
): ResolvedToolOutputSchema {
  const fail = (message: string, cause?: unknown): never => {
    throw new ToolDefinitionError(`The outputSchema of tool '${toolName}' ${message}`, {
      toolName,
      ...(cause === undefined ? {} : { cause }),
    });
  };
  if (isStandardJsonSchema(outputSchema)) {
    let generated: Record<string, unknown> = {};
    try {
      generated = outputSchema['~standard'].jsonSchema.output({ target: 'draft-2020-12' });
    } catch (error) {
      fail(`cannot be converted to JSON Schema: ${(error as Error)?.message ?? error}`, error);
    }
    const jsonSchema = objectRoot(generated, fail);
    return {
      jsonSchema,
      validate(value) {
        const result = outputSchema['~standard'].validate(value);
        return result instanceof Promise
          ? result.then(toToolInputValidation)
          : toToolInputValidation(result);
      },
    };
  }
  const zodProblem = unsupportedZodSchemaReason(outputSchema);
  if (zodProblem !== undefined) fail(`: ${zodProblem}`);
  if (isStandardSchema(outputSchema)) {
    fail('does not expose JSON Schema (~standard.jsonSchema); use Zod 4.2 or later');
  }
  if (typeof outputSchema !== 'object' || outputSchema === null || Array.isArray(outputSchema)) {
    fail('must be a Standard Schema (e.g. Zod) or a JSON Schema object');
  }
  const shapeKeys = schemaShapeKeys(outputSchema);
  if (shapeKeys !== undefined) fail(schemaShapeProblem(shapeKeys));
  const jsonSchema = objectRoot(outputSchema as JsonSchema, fail);
  try {
    compileJsonSchema(jsonSchema);
  } catch (error) {
    fail(`does not compile: ${(error as Error)?.message ?? error}`, error);
  }
  return {
    jsonSchema,
    validate(value) {
      const issues = validateJsonSchema(jsonSchema, value);
      return issues.length === 0 ? { ok: true, value } : { ok: false, issues };
    },
  };
}

function objectRoot(schema: Record<string, unknown>, fail: (message: string) => never): JsonSchema {
  if (schema.type !== 'object') {
    fail("must describe an object (type: 'object'), as MCP requires of structured content");
  }
  return { $schema: JSON_SCHEMA_DRAFT_2020_12, ...schema } as JsonSchema;
}
