import { isStandardSchema } from './standard-schema.js';
import { unsupportedZodSchemaReason } from './unsupported-zod-schema.js';

/**
 * The keys of `value` when it is an object of schemas rather than a schema: the "raw shape"
 * (`{ city: z.string() }`) that the MCP SDK's `server.tool()` takes. No JSON Schema keyword holds
 * a schema object of a library, so one such value is enough to tell; `undefined` otherwise.
 * Passed as a JSON Schema, a shape would give the model an object with no properties.
 */
export function schemaShapeKeys(value: unknown): string[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (isStandardSchema(value)) return undefined;
  const keys = Object.keys(value).filter((key) => {
    const entry = (value as Record<string, unknown>)[key];
    return isStandardSchema(entry) || unsupportedZodSchemaReason(entry) !== undefined;
  });
  return keys.length === 0 ? undefined : keys;
}

/** The message tail for a {@link schemaShapeKeys} match: what it is and how to fix it. */
export function schemaShapeProblem(keys: readonly string[]): string {
  return `is an object of schemas (${keys.join(', ')}), not a schema: wrap it in z.object({ … })`;
}
