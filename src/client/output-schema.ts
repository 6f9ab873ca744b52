import { InvalidArgumentError, type ToolInputIssue } from '../errors/index.js';
import { trustJsonSchema, validateJsonSchema } from '../tools/input/json-schema-validator.js';
import type { JsonSchema } from '../tools/json-schema.js';
import { schemaShapeKeys, schemaShapeProblem } from '../tools/schema/schema-shape.js';
import {
  isStandardJsonSchema,
  isStandardSchema,
  type StandardSchemaIssue,
  type StandardSchemaV1,
} from '../tools/schema/standard-schema.js';
import { unsupportedZodSchemaReason } from '../tools/schema/unsupported-zod-schema.js';

/** A schema `entity()` accepts: a Standard Schema that can describe itself (Zod 4) or a JSON Schema. */
export type OutputSchema = StandardSchemaV1 | JsonSchema;

/** The outcome of checking one answer against an output schema. */
export type OutputValidation =
  | { ok: true; value: unknown }
  | { ok: false; issues: ToolInputIssue[] };

/** An output schema made ready for use: what the model is sent, and how an answer is checked. */
export interface ResolvedOutputSchema {
  readonly jsonSchema: JsonSchema;
  validate(value: unknown): Promise<OutputValidation>;
}

function pointer(path: StandardSchemaIssue['path']): string {
  if (!path || path.length === 0) return '';
  return path
    .map((segment) => {
      const key = typeof segment === 'object' ? segment.key : segment;
      return `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
    })
    .join('');
}

/**
 * Resolves a schema for structured output. A Standard Schema must also expose
 * `~standard.jsonSchema` (Zod ≥ 4.2 does); its input side is what the model is asked to write,
 * and its own `validate` checks the answer. A JSON Schema is validated with ajv.
 */
export function resolveOutputSchema(schema: OutputSchema): ResolvedOutputSchema {
  const zodProblem = unsupportedZodSchemaReason(schema);
  if (zodProblem !== undefined) throw new InvalidArgumentError(`entity(): ${zodProblem}`);
  if (isStandardSchema(schema)) {
    if (!isStandardJsonSchema(schema)) {
      throw new InvalidArgumentError(
        'entity() needs a schema that can describe itself as JSON Schema (~standard.jsonSchema, e.g. Zod 4) or a JSON Schema object',
      );
    }
    const jsonSchema = schema['~standard'].jsonSchema.input({
      target: 'draft-2020-12',
    }) as JsonSchema;
    return {
      jsonSchema,
      async validate(value) {
        const result = await schema['~standard'].validate(value);
        if (result.issues === undefined) return { ok: true, value: result.value };
        return {
          ok: false,
          issues: result.issues.map((issue) => ({
            path: pointer(issue.path),
            message: issue.message,
          })),
        };
      },
    };
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidArgumentError('entity() needs a Standard Schema or a JSON Schema object');
  }
  const shapeKeys = schemaShapeKeys(schema);
  if (shapeKeys !== undefined) {
    throw new InvalidArgumentError(`The schema of entity() ${schemaShapeProblem(shapeKeys)}`);
  }
  trustJsonSchema(schema);
  return {
    jsonSchema: schema,
    async validate(value) {
      const issues = validateJsonSchema(schema, value);
      return issues.length === 0 ? { ok: true, value } : { ok: false, issues };
    },
  };
}
