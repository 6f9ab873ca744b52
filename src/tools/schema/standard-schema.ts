// The Standard Schema (https://standardschema.dev) interfaces, declared here as plain types so
// that toolloop accepts Zod, Valibot, ArkType … schemas without importing any of them.

/** One problem reported by a Standard Schema's `validate`. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | StandardSchemaPathSegment> | undefined;
}

/** A path segment given as an object rather than a bare key. */
export interface StandardSchemaPathSegment {
  readonly key: PropertyKey;
}

/** What a Standard Schema's `validate` returns: the (transformed) value, or the issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** The static input and output types a schema carries, for inference only. */
export interface StandardSchemaTypes<Input = unknown, Output = Input> {
  readonly input: Input;
  readonly output: Output;
}

/** Options for producing a JSON Schema from a Standard JSON Schema. */
export interface StandardJsonSchemaOptions {
  /** The JSON Schema dialect wanted, e.g. `'draft-2020-12'`. */
  readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (string & {});
  /** Options understood only by the schema library. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** Converts a schema to JSON Schema, for the input side or the output side of its transforms. */
export interface StandardJsonSchemaConverter {
  readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
}

/** The `~standard` property of a Standard Schema. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (
    value: unknown,
  ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  readonly types?: StandardSchemaTypes<Input, Output> | undefined;
}

/** A Standard Schema (v1): a validator any library can implement. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/** A Standard Schema that can also describe itself as JSON Schema (Zod ≥ 4.2 schemas do). */
export interface StandardJsonSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output> & {
    readonly jsonSchema: StandardJsonSchemaConverter;
  };
}

/**
 * What the compiler asks of a Standard Schema without JSON Schema output (a Zod 3 schema, say)
 * where toolloop needs JSON Schema: its one property names the fix, so the type error reads
 * "Property 'toolloop needs Zod 4 …' is missing in type 'ZodObject<…>'".
 */
export interface NeedsStandardJsonSchema {
  readonly 'toolloop needs Zod 4 (zod >= 4.2) or a Standard Schema with JSON Schema output (~standard.jsonSchema); Zod 3 schemas have none': true;
}

/**
 * What toolloop demands of a schema type beyond its bound: nothing (`unknown`) for JSON Schema
 * objects and Standard Schemas with JSON Schema output, {@link NeedsStandardJsonSchema} when
 * `Schema` has a Standard Schema without it. An API intersects its schema property or parameter
 * with this, and admits every Standard Schema in its type parameter's bound, so that such a schema
 * meets this message rather than "No overload matches this call". (The bound itself, where
 * inference failed, demands nothing: its own error is the clearer one.)
 */
export type JsonSchemaOutputDemand<Schema> = [
  Exclude<Extract<Schema, StandardSchemaV1>, StandardJsonSchemaV1>,
] extends [never]
  ? unknown
  : StandardSchemaV1 extends Schema
    ? unknown
    : NeedsStandardJsonSchema;

/** The type a Standard Schema produces after validation (with transforms and defaults applied). */
export type InferStandardOutput<Schema extends StandardSchemaV1> = NonNullable<
  Schema['~standard']['types']
>['output'];

/** The type a Standard Schema accepts. */
export type InferStandardInput<Schema extends StandardSchemaV1> = NonNullable<
  Schema['~standard']['types']
>['input'];

/** True when `value` implements Standard Schema v1 (structural check, no library import). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** True when `value` is a Standard Schema that also exposes `~standard.jsonSchema`. */
export function isStandardJsonSchema(value: unknown): value is StandardJsonSchemaV1 {
  if (!isStandardSchema(value)) return false;
  const converter = (value['~standard'] as { jsonSchema?: unknown }).jsonSchema;
  return (
    typeof converter === 'object' &&
    converter !== null &&
    typeof (converter as { input?: unknown }).input === 'function'
  );
}
