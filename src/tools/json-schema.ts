/**
 * A JSON Schema object (draft 2020-12). Kept structural on purpose: toolloop reads a few keywords
 * and passes the rest through to providers and validators untouched.
 */
export interface JsonSchema {
  $schema?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  description?: string;
  items?: JsonSchema | JsonSchema[];
  enum?: unknown[];
  $defs?: Record<string, JsonSchema>;
  [keyword: string]: unknown;
}
