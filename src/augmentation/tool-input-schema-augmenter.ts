import { ToolDefinitionError } from '../errors/index.js';
import type { JsonSchema, ToolInputSchema, ToolInputValidation } from '../tools/index.js';
import { isTrustedJsonSchema, resolveToolInputSchema, trustJsonSchema } from '../tools/index.js';

const DEFINITION_KEYWORDS = ['$defs', 'definitions'] as const;

/**
 * Merges extra argument fields (for example `{ reasoning, confidence }`) into tool input schemas,
 * and picks and validates those fields out of a model's arguments.
 *
 * The extra fields are given once, as a Standard Schema that exposes JSON Schema (a Zod object)
 * or a JSON Schema object; they must describe an object with at least one property. Augmenting a
 * schema copies it: the tool's own schema is never modified.
 */
export class ToolInputSchemaAugmenter {
  /** The extra fields' own schema, normalised (draft 2020-12, closed object). */
  readonly argumentsSchema: JsonSchema;
  /** Names of the extra fields, in schema order. */
  readonly argumentNames: readonly string[];
  readonly #validate: (value: Record<string, unknown>) => Promise<ToolInputValidation>;

  /**
   * @throws ToolDefinitionError when `argumentSchema` is not an object schema, cannot be turned
   *   into JSON Schema, or has no properties.
   */
  constructor(argumentSchema: ToolInputSchema) {
    const resolved = resolveToolInputSchema(argumentSchema, 'augmented arguments');
    const properties = resolved.jsonSchema.properties as Record<string, unknown>;
    const argumentNames = Object.keys(properties);
    if (argumentNames.length === 0) {
      throw new ToolDefinitionError(
        'The augmented arguments schema must have at least one property',
      );
    }
    this.argumentsSchema = resolved.jsonSchema;
    this.argumentNames = Object.freeze(argumentNames);
    this.#validate = (value) => Promise.resolve(resolved.validate(value));
  }

  /**
   * A copy of `inputSchema` with the extra fields added to `properties` (and the required ones to
   * `required`), plus any `$defs` they refer to.
   *
   * @throws ToolDefinitionError naming the tool when an extra field, or a `$defs` entry with a
   *   different content, is already in the tool's schema: a clash is never silently overwritten.
   */
  augment(inputSchema: JsonSchema, toolName: string): JsonSchema {
    const augmented = structuredClone(inputSchema) as Record<string, unknown>;
    // The copy is as trustworthy as the tool's own schema (an MCP server's stays untrusted).
    if (isTrustedJsonSchema(inputSchema)) trustJsonSchema(augmented);
    const properties = asRecord(augmented.properties, toolName, 'properties');
    augmented.properties = properties;
    const extra = this.argumentsSchema as Record<string, unknown>;
    const extraProperties = extra.properties as Record<string, unknown>;
    for (const name of this.argumentNames) {
      if (Object.hasOwn(properties, name)) {
        throw new ToolDefinitionError(
          `Tool '${toolName}' already has an input property '${name}', which the augmented arguments also define; rename the augmented argument`,
          { toolName },
        );
      }
      properties[name] = structuredClone(extraProperties[name]);
    }
    const required = Array.isArray(augmented.required) ? [...augmented.required] : [];
    for (const name of (extra.required as string[] | undefined) ?? []) {
      if (!required.includes(name)) required.push(name);
    }
    augmented.required = required;
    for (const keyword of DEFINITION_KEYWORDS) {
      const extraDefinitions = extra[keyword];
      if (extraDefinitions === undefined) continue;
      const definitions = asRecord(augmented[keyword], toolName, keyword);
      for (const [name, definition] of Object.entries(extraDefinitions as object)) {
        if (
          Object.hasOwn(definitions, name) &&
          JSON.stringify(definitions[name]) !== JSON.stringify(definition)
        ) {
          throw new ToolDefinitionError(
            `Tool '${toolName}' already has a schema definition '${keyword}/${name}' that differs from the augmented arguments' one`,
            { toolName },
          );
        }
        definitions[name] = structuredClone(definition);
      }
      augmented[keyword] = definitions;
    }
    return augmented as JsonSchema;
  }

  /** The extra fields present in `input` (a parsed argument object), as a new object. */
  pick(input: Record<string, unknown>): Record<string, unknown> {
    const picked: Record<string, unknown> = {};
    for (const name of this.argumentNames) {
      if (Object.hasOwn(input, name)) picked[name] = input[name];
    }
    return picked;
  }

  /** `input` without the extra fields, as a new object. */
  omit(input: Record<string, unknown>): Record<string, unknown> {
    const rest: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) {
      if (!this.argumentNames.includes(name)) rest[name] = value;
    }
    return rest;
  }

  /** Checks picked extra fields against their schema; the value may be transformed by it. */
  validate(picked: Record<string, unknown>): Promise<ToolInputValidation> {
    return this.#validate(picked);
  }
}

function asRecord(value: unknown, toolName: string, keyword: string): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolDefinitionError(
      `Tool '${toolName}' has an input schema whose '${keyword}' is not an object`,
      { toolName },
    );
  }
  return value as Record<string, unknown>;
}
