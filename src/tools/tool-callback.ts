import type { Message } from '../messages/index.js';
import type { JsonSchema } from './json-schema.js';

/** What the model sees of a tool: its name, description and input schema. */
export interface ToolDefinition {
  /** Unique within the tools of one request. */
  readonly name: string;
  /** Tells the model what the tool does and when to call it. */
  readonly description: string;
  /** JSON Schema (draft 2020-12) of the tool's argument object. */
  readonly inputSchema: JsonSchema;
}

/** How the loop treats a tool; none of this reaches the model. */
export interface ToolMetadata {
  /** Hand the tool's result straight to the caller instead of back to the model. Default `false`. */
  readonly returnDirect?: boolean;
  /** Run this tool alone, never concurrently with other calls of its batch. Default `false`. */
  readonly sequential?: boolean;
  /** Abort the tool after this many milliseconds; overrides the manager's default timeout. */
  readonly timeoutMs?: number;
  /** Further metadata for custom advisors. */
  readonly [key: string]: unknown;
}

/**
 * Data a tool receives from the caller and never from the model. The map is never part of a
 * schema, a prompt, a stored message, a log line or an error text.
 */
export interface ToolContext {
  /** The caller's map, as given to `.toolContext()`; read-only. */
  readonly context: Readonly<Record<string, unknown>>;
  /** Id of the tool call being executed. */
  readonly toolCallId?: string;
  /** The conversation so far, up to and including the assistant message that requested the call. */
  readonly messages?: readonly Message[];
  /**
   * Aborted when the caller aborts or the tool's timeout expires. `undefined` when nothing can
   * abort the call (no caller signal and no timeout).
   */
  readonly signal?: AbortSignal;
}

/**
 * A tool the loop can execute: the definition the model sees, metadata for the loop, and the
 * execution logic. `call` takes the raw JSON arguments and returns model-ready text; it throws
 * `InvalidToolInputError` for input it rejects and `ToolExecutionError` when the tool fails.
 */
export interface ToolCallback {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  call(input: string, context?: ToolContext): Promise<string>;
}

/** A source of tools listed again on every request (for example an MCP server). */
export interface ToolCallbackProvider {
  getToolCallbacks(): ToolCallback[] | Promise<ToolCallback[]>;
}

/** Looks a tool up by name; `undefined` when it does not know the name. */
export interface ToolCallbackResolver {
  resolve(toolName: string): ToolCallback | undefined;
}
