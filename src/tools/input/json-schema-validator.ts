import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { ToolDefinitionError, type ToolInputIssue } from '../../errors/index.js';
import type { JsonSchema } from '../json-schema.js';
import { escapeJsonPointerToken } from './json-pointer.js';
import {
  linearRegExp,
  PATTERN_CHECK_BUDGET,
  PatternBudgetExceeded,
  resetPatternBudget,
} from './linear-reg-exp.js';

// Formats are not checked (no format plugin is a dependency). One compiler per regex engine
// serves every schema; each compiled function is removed from ajv's own cache right away (it
// stays usable), so schemas listed anew on every request (MCP) do not pile up in memory and two
// schemas with one `$id` do not collide.
let trustedAjv: Ajv2020 | undefined;
let untrustedAjv: Ajv2020 | undefined;

// Created on first use, so importing the package costs nothing until a schema is compiled.
function compiler(trusted: boolean): Ajv2020 {
  const options = { allErrors: true, strict: false, validateFormats: false } as const;
  if (trusted) {
    trustedAjv ??= new Ajv2020(options);
    return trustedAjv;
  }
  untrustedAjv ??= new Ajv2020({ ...options, code: { regExp: linearRegExp } });
  return untrustedAjv;
}
const compiled = new WeakMap<object, ValidateFunction>();
const linear = new WeakSet<ValidateFunction>();
const trustedSchemas = new WeakSet<object>();

/**
 * Marks a schema the user wrote in code (`tool()`, `@tool`, an output schema, a Zod schema's
 * JSON Schema): its patterns run on JavaScript's own regex engine, lookahead and
 * backreferences included. Every other schema (an MCP server's, any `ToolCallback` built by
 * hand) is untrusted: its patterns run on the linear-time engine ({@link linearRegExp}) within a
 * work budget per check, so no schema can freeze the process. Mark before the first compile.
 */
export function trustJsonSchema<T extends object>(schema: T): T {
  trustedSchemas.add(schema);
  return schema;
}

/** True for a schema marked with {@link trustJsonSchema}. */
export function isTrustedJsonSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && trustedSchemas.has(schema);
}

/**
 * Compiles a JSON Schema (draft 2020-12) once and keeps the validator for as long as the schema
 * object lives. Throws {@link ToolDefinitionError} naming the problem when ajv cannot compile it
 * (for an untrusted schema: also a pattern the linear-time engine cannot run).
 */
export function compileJsonSchema(schema: JsonSchema): ValidateFunction {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new ToolDefinitionError('Invalid input schema: a JSON Schema must be an object');
  }
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
  const trusted = trustedSchemas.has(schema);
  const ajv = compiler(trusted);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new ToolDefinitionError(`Invalid input schema: ${compileProblem(error)}`, {
      cause: error,
    });
  } finally {
    ajv.removeSchema(schema);
  }
  compiled.set(schema, validate);
  if (!trusted) linear.add(validate);
  return validate;
}

/**
 * ajv's message for a schema it cannot compile, each problem once: checked against the
 * meta-schema with all errors on, one bad keyword breaks several of its rules with one text.
 */
function compileProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const [, lead = '', problems = message] = /^(.*?: )?(.*)$/s.exec(message) ?? [];
  return lead + [...new Set(problems.split(', '))].join(', ');
}

/**
 * Validates a value against a JSON Schema (draft 2020-12, all errors, no formats) and returns
 * the issues found, `[]` when the value is valid. Paths are JSON pointers into the value; a
 * missing required property is reported at the path it should have had (`/city`).
 */
export function validateJsonSchema(schema: JsonSchema, value: unknown): ToolInputIssue[] {
  const validate = compileJsonSchema(schema);
  if (linear.has(validate)) {
    resetPatternBudget();
    try {
      if (validate(value)) return [];
    } catch (error) {
      if (!(error instanceof PatternBudgetExceeded)) throw error;
      return [
        {
          path: '',
          message: `strings too long to check against the schema's patterns (the bound of ${PATTERN_CHECK_BUDGET} character-steps per call was reached); send shorter strings`,
        },
      ];
    }
  } else if (validate(value)) {
    return [];
  }
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
