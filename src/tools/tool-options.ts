import { ToolDefinitionError } from '../errors/index.js';
import type {
  InferToolInput,
  ResolvedToolInputSchema,
  ToolInputSchema,
  ToolInputSchemaBound,
} from './schema/tool-input-schema.js';
import { resolveToolInputSchema } from './schema/tool-input-schema.js';
import {
  type ResolvedToolOutputSchema,
  resolveToolOutputSchema,
  type ToolOutputSchema,
} from './schema/tool-output-schema.js';
import type {
  ToolApprovalCheck,
  ToolContext,
  ToolContextMap,
  ToolDefinition,
  ToolMetadata,
} from './tool-callback.js';
import { assertPortableToolName, assertToolName, splitCamelCase } from './tool-name.js';
import { defaultToolResultConverter, type ToolResultConverter } from './tool-result-converter.js';

/** Options shared by function tools and `@tool` methods. */
export interface ToolOptionsBase<
  Schema extends ToolInputSchemaBound | undefined = ToolInputSchema | undefined,
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
  /**
   * Abort the tool after this many milliseconds: a positive number of any size (a limit past
   * `setTimeout`'s 24.8-day maximum is kept exactly), or `Infinity` for none.
   */
  timeoutMs?: number;
  /** The tool changes nothing (see `ToolMetadata.readOnly`; MCP `readOnlyHint`). */
  readOnly?: boolean;
  /** The tool may destroy or overwrite data (see `ToolMetadata.destructive`; MCP `destructiveHint`). */
  destructive?: boolean;
  /** Repeating a call with the same arguments has no further effect (MCP `idempotentHint`). */
  idempotent?: boolean;
  /** The tool reaches an open world such as the web (MCP `openWorldHint`). */
  openWorld?: boolean;
  /**
   * Whether a call waits for a human decision before it runs: `true`, `false`, or a function of
   * the validated input (as `execute` receives it) and the caller's context. Given here, it wins
   * over the client's approval policy. Default: the policy decides (no policy: no approval).
   */
  needsApproval?:
    | boolean
    | ((input: InferToolInput<Schema>, context: ToolContext) => boolean | Promise<boolean>);
  /**
   * The shape of the tool's result, checked on every result: a Standard Schema with JSON Schema
   * (Zod ≥ 4.2) or a JSON Schema object, with an object root. A result that breaks it goes back
   * to the model as the tool's error; a result that passes is kept as the response's
   * `structuredContent` (as the schema outputs it) beside its JSON text, and an MCP server
   * advertises the schema and returns the structured content.
   */
  outputSchema?: ToolOutputSchema;
  /**
   * Turns the tool's return value into text (or a `ToolResult`) for the model; default
   * {@link defaultToolResultConverter}.
   */
  resultConverter?: ToolResultConverter;
  /**
   * Accept a name outside OpenAI's and Anthropic's rule `^[a-zA-Z0-9_-]{1,64}$` (for a provider that
   * accepts more, such as Gemini's `.` and `:` or a local server). Default `false`: such a name
   * throws a `ToolDefinitionError` where the tool is defined.
   */
  allowNonPortableName?: boolean;
}

/**
 * Options of a function tool: `tool({ name, …, execute })`. `Ctx` is the tool-context map the
 * tool expects, inferred from the annotation of `execute`'s second parameter.
 */
export interface FunctionToolOptions<
  Schema extends ToolInputSchemaBound | undefined = ToolInputSchema | undefined,
  Result = unknown,
  Ctx extends object = ToolContextMap,
> extends ToolOptionsBase<Schema> {
  /** Unique within the tools of a request. */
  name: string;
  /**
   * Runs the tool with the validated input and the caller's {@link ToolContext}. An async
   * generator function (`async function* (input) { yield progress; …; return result }`) may yield
   * progress values: they become `tool-progress` turn events and never reach the model; its
   * return value is the result.
   */
  execute: (input: InferToolInput<Schema>, context: ToolContext<Ctx>) => Result | Promise<Result>;
}

/** Options of `@tool` on a class method. */
export interface ToolMethodOptions<
  Schema extends ToolInputSchemaBound | undefined = ToolInputSchema | undefined,
> extends ToolOptionsBase<Schema> {
  /** Defaults to the method name. */
  name?: string;
}

/** Metadata flags that only say how the tool behaves; copied to the metadata when given. */
const BEHAVIOUR_HINTS = ['readOnly', 'destructive', 'idempotent', 'openWorld'] as const;
const BOOLEAN_FLAGS = [
  'returnDirect',
  'sequential',
  'allowNonPortableName',
  ...BEHAVIOUR_HINTS,
] as const;

/** A tool's parts checked and resolved at definition time. */
export interface PreparedTool {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  readonly inputSchema: ResolvedToolInputSchema;
  /** The resolved output schema, when the tool declares one. */
  readonly outputSchema?: ResolvedToolOutputSchema;
  readonly resultConverter: ToolResultConverter;
}

/**
 * Checks the options every tool style shares and resolves the schema, so that a tool declared
 * wrongly fails where it is declared, with a {@link ToolDefinitionError} naming the tool.
 * `defaults.name` stands in for a missing name; a missing description is the camelCase split of
 * `defaults.describeAs` (a method's name) or else of the tool name.
 */
export function prepareTool(
  // needsApproval's input type varies with the schema; it is checked to be a function here.
  options: Omit<ToolOptionsBase<ToolInputSchemaBound | undefined>, 'needsApproval'> & {
    name?: unknown;
    needsApproval?: unknown;
  },
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
  for (const flag of BOOLEAN_FLAGS) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') {
      fail(`${flag} must be a boolean`);
    }
  }
  if (
    options.timeoutMs !== undefined &&
    (typeof options.timeoutMs !== 'number' ||
      !(options.timeoutMs > 0) ||
      Number.isNaN(options.timeoutMs))
  ) {
    fail('timeoutMs must be a positive number of milliseconds');
  }
  const needsApproval = options.needsApproval;
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== 'boolean' &&
    typeof needsApproval !== 'function'
  ) {
    fail('needsApproval must be a boolean or a function');
  }
  if (options.resultConverter !== undefined && typeof options.resultConverter !== 'function') {
    fail('resultConverter must be a function');
  }
  if (options.allowNonPortableName !== true) assertPortableToolName(name);
  const description =
    options.description === undefined || options.description.trim() === ''
      ? splitCamelCase(defaults.describeAs ?? name)
      : options.description;
  const inputSchema = resolveToolInputSchema(options.inputSchema, name);
  const outputSchema =
    options.outputSchema === undefined
      ? undefined
      : resolveToolOutputSchema(options.outputSchema, name);
  const metadata: { -readonly [K in keyof ToolMetadata]: ToolMetadata[K] } = {
    returnDirect: options.returnDirect ?? false,
    sequential: options.sequential ?? false,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  for (const hint of BEHAVIOUR_HINTS) {
    if (options[hint] !== undefined) metadata[hint] = options[hint];
  }
  if (typeof needsApproval === 'boolean') metadata.needsApproval = needsApproval;
  else if (typeof needsApproval === 'function') {
    metadata.needsApproval = approvalCheckOnValidatedInput(
      needsApproval as (input: unknown, context: ToolContext) => boolean | Promise<boolean>,
      inputSchema,
    );
  }
  return {
    definition: Object.freeze(
      outputSchema === undefined
        ? { name, description, inputSchema: inputSchema.jsonSchema }
        : {
            name,
            description,
            inputSchema: inputSchema.jsonSchema,
            outputSchema: outputSchema.jsonSchema,
          },
    ),
    metadata: Object.freeze(metadata),
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    resultConverter: options.resultConverter ?? defaultToolResultConverter,
  };
}

/**
 * The tool's approval function as metadata: it receives the input as `execute` would (the tool's
 * own schema applied: defaults, transforms). Input that the tool's schema refuses although the
 * definition's JSON Schema accepted it (a wrapper that adds fields) needs approval: when in
 * doubt, ask.
 */
function approvalCheckOnValidatedInput(
  check: (input: unknown, context: ToolContext) => boolean | Promise<boolean>,
  inputSchema: ResolvedToolInputSchema,
): ToolApprovalCheck {
  return async (input, context) => {
    const checked = await inputSchema.validate(input);
    if (!checked.ok) return true;
    return (await check(checked.value, context)) === true;
  };
}
