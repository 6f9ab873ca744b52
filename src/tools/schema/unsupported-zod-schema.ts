// Zod 3 (and Zod 4.0 / 4.1) schemas are Standard Schemas but cannot describe themselves as JSON
// Schema, so a tool or an entity() built on one would send the model nothing to go by. They are
// recognised structurally, without importing zod: Zod 4 schemas carry `_zod`, Zod 3 ones only `_def`.

/**
 * Says why `schema` is a Zod schema toolloop cannot use (Zod 3, or Zod 4 before 4.2), or returns
 * `undefined` when it is not such a schema. The message names the version to install.
 */
export function unsupportedZodSchemaReason(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const standard = (schema as { '~standard'?: { vendor?: unknown; jsonSchema?: unknown } })[
    '~standard'
  ];
  if (standard !== undefined && standard.jsonSchema !== undefined) return undefined;
  const isZod4 = '_zod' in schema;
  const isZod3 =
    !isZod4 && '_def' in schema && (standard === undefined || standard.vendor === 'zod');
  if (isZod3) {
    return 'Zod 3 is not supported: install zod@^4.2 (its schemas describe themselves as JSON Schema through ~standard.jsonSchema), or pass a JSON Schema object';
  }
  if (isZod4) {
    return 'Zod 4.0 and 4.1 schemas cannot describe themselves as JSON Schema: install zod@^4.2, or pass a JSON Schema object';
  }
  return undefined;
}
