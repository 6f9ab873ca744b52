import { ToolDefinitionError } from '../errors/index.js';
import type {
  InferToolInput,
  ResolvedToolInputSchema,
  ToolInputSchema,
} from './schema/tool-input-schema.js';
import { resolveToolInputSchema } from './schema/tool-input-schema.js';
import type { ToolContext, ToolDefinition, ToolMetadata } from './tool-callback.js';
import { assertToolName, splitCamelCase } from './tool-name.js';
import { defaultToolResultConverter, type ToolResultConverter } from './tool-result-converter.js';

/** Options shared by function tools and `@tool` methods. */
export interface ToolOptionsBase<
  Schema extends ToolInputSchema | undefined = ToolInputSchema | undefined,
> {
  /** Tells the model what the tool does; defaults to the name split into words. */
  description?: string;
  /**
   * The arguments the model must send: a Standard Schema with JSON Schema (Zod ≥ 4.2) or a raw
   * JSON Schema object. Omitted: the tool takes no arguments.
   */
  inputSchema?: Schema;
  /** Hand the result straight to the caller instead of back to the model. Default `false`. */
  returnDirect?: boolean;
  /** Never run concurrently with other calls of the same batch. Default `false`. */
  sequential?: boolean;
  /** Abort the tool after this many milliseconds (a positive number). */
  timeoutMs?: number;
  /** Turns the tool's return value into text for the model; default {@link defaultToolResultConverter}. */
  resultConverter?: ToolResultConverter;
}

/** Options of a function tool: `tool({ name, …, execute })`. */
export interface FunctionToolOptions<
  Schema extends ToolInputSchema | undefined = ToolInputSchema | undefined,
  Result = unknown,
> extends ToolOptionsBase<Schema> {
  /** Unique within the tools of a request. */
  name: string;
  /** Runs the tool with the validated input and the caller's {@link ToolContext}. */
  execute: (input: InferToolInput<Schema>, context: ToolContext) => Result | Promise<Result>;
}

/** Options of `@tool` on a class method. */
export interface ToolMethodOptions<
  Schema extends ToolInputSchema | undefined = ToolInputSchema | undefined,
> extends ToolOptionsBase<Schema> {
  /** Defaults to the method name. */
  name?: string;
}

/** A tool's parts checked and resolved at definition time. */
export interface PreparedTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  readonly inputSchema: ResolvedToolInputSchema;
  readonly resultConverter: ToolResultConverter;
}

/**
 * Checks the options every tool style shares and resolves the schema, so that a tool declared
 * wrongly fails where it is declared, with a {@link ToolDefinitionError} naming the tool.
 * `defaults.name` stands in for a missing name; a missing description is the camelCase split of
 * `defaults.describeAs` (a method's name) or else of the tool name.
 */
export function prepareTool(
  options: ToolOptionsBase & { name?: unknown },
  defaults: { name?: string; describeAs?: string } = {},
): PreparedTool {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError('Tool options must be an object');
  }
  const name = assertToolName(options.name ?? defaults.name);
  const fail = (message: string): never => {
    throw new ToolDefinitionError(`Tool '${name}': ${message}`, { toolName: name });
  };
  if (options.description !== undefined && typeof options.description !== 'string') {
    fail('description must be a string');
  }
  if (options.returnDirect !== undefined && typeof options.returnDirect !== 'boolean') {
    fail('returnDirect must be a boolean');
  }
  if (options.sequential !== undefined && typeof options.sequential !== 'boolean') {
    fail('sequential must be a boolean');
  }
  if (
    options.timeoutMs !== undefined &&
    (typeof options.timeoutMs !== 'number' ||
      !(options.timeoutMs > 0) ||
      Number.isNaN(options.timeoutMs))
  ) {
    fail('timeoutMs must be a positive number of milliseconds');
  }
  if (options.resultConverter !== undefined && typeof options.resultConverter !== 'function') {
    fail('resultConverter must be a function');
  }
  const description =
    options.description === undefined || options.description.trim() === ''
      ? splitCamelCase(defaults.describeAs ?? name)
      : options.description;
  const inputSchema = resolveToolInputSchema(options.inputSchema, name);
  const metadata: ToolMetadata = {
    returnDirect: options.returnDirect ?? false,
    sequential: options.sequential ?? false,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  return {
    definition: Object.freeze({ name, description, inputSchema: inputSchema.jsonSchema }),
    metadata: Object.freeze(metadata),
    inputSchema,
    resultConverter: options.resultConverter ?? defaultToolResultConverter,
  };
}
