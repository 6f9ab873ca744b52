import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { ToolDefinitionError, type ToolInputIssue } from '../../errors/index.js';
import type { JsonSchema } from '../json-schema.js';
import { escapeJsonPointerToken } from './json-pointer.js';

// Formats are not checked (no format plugin is a dependency). One compiler serves every schema;
// each compiled function is removed from ajv's own cache right away (it stays usable), so schemas
// listed anew on every request (MCP) do not pile up in memory and two schemas with one `$id` do
// not collide.
let sharedAjv: Ajv2020 | undefined;

// Created on first use, so importing the package costs nothing until a schema is compiled.
function compiler(): Ajv2020 {
  sharedAjv ??= new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  return sharedAjv;
}
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Compiles a JSON Schema (draft 2020-12) once and keeps the validator for as long as the schema
 * object lives. Throws {@link ToolDefinitionError} naming the problem when ajv cannot compile it.
 */
export function compileJsonSchema(schema: JsonSchema): ValidateFunction {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new ToolDefinitionError('Invalid input schema: a JSON Schema must be an object');
  }
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
  const ajv = compiler();
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new ToolDefinitionError(
      `Invalid input schema: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    ajv.removeSchema(schema);
  }
  compiled.set(schema, validate);
  return validate;
}

/**
 * Validates a value against a JSON Schema (draft 2020-12, all errors, no formats) and returns
 * the issues found, `[]` when the value is valid. Paths are JSON pointers into the value; a
 * missing required property is reported at the path it should have had (`/city`).
 */
export function validateJsonSchema(schema: JsonSchema, value: unknown): ToolInputIssue[] {
  const validate = compileJsonSchema(schema);
  if (validate(value)) return [];
  const issues: ToolInputIssue[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const issue = toIssue(error);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function toIssue(error: ErrorObject): ToolInputIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: `${error.instancePath}/${escapeJsonPointerToken(String(params.missingProperty))}`,
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        path: `${error.instancePath}/${escapeJsonPointerToken(String(params.additionalProperty))}`,
        message: 'is not an allowed property',
      };
    case 'unevaluatedProperties':
      return {
        path: `${error.instancePath}/${escapeJsonPointerToken(String(params.unevaluatedProperty))}`,
        message: 'is not an allowed property',
      };
    case 'dependentRequired':
      return {
        path: `${error.instancePath}/${escapeJsonPointerToken(String(params.missingProperty))}`,
        message: `is required when ${String(params.property)} is present`,
      };
    default:
      return { path: error.instancePath, message: error.message ?? `fails "${error.keyword}"` };
  }
}
