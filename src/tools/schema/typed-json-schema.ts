import type { JsonSchema } from '../json-schema.js';

declare const INPUT_TYPE: unique symbol;

/** A raw JSON Schema that also names, for TypeScript only, the input type it describes. */
export type TypedJsonSchema<Input> = JsonSchema & { readonly [INPUT_TYPE]?: Input };

/** The input type named by {@link jsonSchema}, or `unknown` when none is named. */
export type InferTypedJsonSchemaInput<Schema> = Schema extends {
  readonly [INPUT_TYPE]?: infer Input;
}
  ? Input
  : unknown;

/**
 * Marks a raw JSON Schema with the TypeScript type of the input it describes, so a tool's
 * `execute` (or `@tool` method) receives that type instead of a plain record. The schema is
 * returned as it is; validation still follows the schema, not the type.
 *
 * ```ts
 * tool({ name: 'echo', inputSchema: jsonSchema<{ word: string }>({ type: 'object',
 *   properties: { word: { type: 'string' } }, required: ['word'] }), execute: ({ word }) => word });
 * ```
 */
export function jsonSchema<Input = Record<string, unknown>>(
  schema: JsonSchema,
): TypedJsonSchema<Input> {
  return schema as TypedJsonSchema<Input>;
}
