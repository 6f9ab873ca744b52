export { assertUniqueToolNames } from './assert-unique-tool-names.js';
export { asToolExecutionError, createToolCallback } from './create-tool-callback.js';
export { escapeJsonPointerToken, jsonPointer } from './input/json-pointer.js';
export {
  compileJsonSchema,
  isTrustedJsonSchema,
  trustJsonSchema,
  validateJsonSchema,
} from './input/json-schema-validator.js';
export {
  DEFAULT_MAX_TOOL_ARGUMENTS_BYTES,
  DEFAULT_MAX_TOOL_ARGUMENTS_DEPTH,
  type ParsedToolArguments,
  type ParseToolArgumentsOptions,
  parseToolArguments,
} from './input/parse-tool-arguments.js';
export type { JsonSchema } from './json-schema.js';
export {
  JSON_SCHEMA_DRAFT_2020_12,
  normalizeInputSchema,
} from './schema/normalize-input-schema.js';
export {
  type InferStandardInput,
  type InferStandardOutput,
  isStandardJsonSchema,
  isStandardSchema,
  type JsonSchemaOutputDemand,
  type NeedsStandardJsonSchema,
  type StandardJsonSchemaConverter,
  type StandardJsonSchemaOptions,
  type StandardJsonSchemaV1,
  type StandardSchemaIssue,
  type StandardSchemaPathSegment,
  type StandardSchemaProps,
  type StandardSchemaResult,
  type StandardSchemaTypes,
  type StandardSchemaV1,
} from './schema/standard-schema.js';
export {
  type InferToolInput,
  type ResolvedToolInputSchema,
  resolveToolInputSchema,
  type ToolInputSchema,
  type ToolInputSchemaBound,
  type ToolInputSchemaDemand,
  type ToolInputValidation,
} from './schema/tool-input-schema.js';
export {
  type ResolvedToolOutputSchema,
  resolveToolOutputSchema,
  type ToolOutputSchema,
} from './schema/tool-output-schema.js';
export {
  type InferTypedJsonSchemaInput,
  jsonSchema,
  type TypedJsonSchema,
} from './schema/typed-json-schema.js';
export { staticToolCallbackProvider } from './static-tool-callback-provider.js';
export { staticToolCallbackResolver } from './static-tool-callback-resolver.js';
export { tool } from './tool.js';
export type {
  ToolApprovalCheck,
  ToolCallback,
  ToolCallbackProvider,
  ToolCallbackProviderRequest,
  ToolCallbackResolver,
  ToolCallOptions,
  ToolContext,
  ToolContextMap,
  ToolDefinition,
  ToolMetadata,
} from './tool-callback.js';
export {
  hasToolMethods,
  isToolMethodDecorator,
  type ToolMethodDecorator,
  toolCallbacksFrom,
  toolMethodDecorator,
} from './tool-decorator.js';
export { executeOf, pairExecute } from './tool-execute.js';
export { assertToolName, isPortableToolName, splitCamelCase } from './tool-name.js';
export {
  type FunctionToolOptions,
  type PreparedTool,
  prepareTool,
  type ToolMethodOptions,
  type ToolOptionsBase,
} from './tool-options.js';
export {
  isToolResult,
  type ToolResult,
  type ToolResultBytes,
  type ToolResultOptions,
  type ToolResultPartInput,
  toolResult,
  toolResultProblem,
} from './tool-result.js';
export {
  type BinaryToolResult,
  defaultToolResultConverter,
  type ToolResultConverter,
  toolResultText,
} from './tool-result-converter.js';
export {
  type CollectedToolSources,
  collectToolSources,
  isToolCallback,
  isToolCallbackProvider,
  resolveToolCallbacks,
  type ToolSource,
} from './tool-sources.js';
