import { type CallToolResult, ErrorCode, type Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  InvalidToolInputError,
  isAbortError,
  type JsonSchema,
  type ToolCallback,
  type ToolContext,
  type ToolDefinition,
  ToolExecutionError,
  type ToolMetadata,
} from '../index.js';
import { type ToolResultPart, toolResultPartsText } from '../messages/index.js';
import type { ToolCallOptions, ToolResult } from '../tools/index.js';
import {
  JSON_SCHEMA_DRAFT_2020_12,
  parseToolArguments,
  splitCamelCase,
  validateJsonSchema,
} from '../tools/index.js';
import { withDraft07TuplesRewritten } from './draft-07-tuples.js';
import type { McpClient } from './mcp-client.js';
import { McpProtocolError } from './mcp-protocol-error.js';
import { mcpToolResultText } from './mcp-tool-result-text.js';
import { type ToolContextToMcpMeta, toMcpMeta } from './tool-context-to-mcp-meta.js';

/**
 * One tool of an MCP server as a {@link ToolCallback}: the model sees `name` (sanitised, maybe
 * prefixed) with the server's description and input schema; `call` sends the server's original
 * name. The arguments are checked against the server's schema first and a call with invalid
 * arguments is never sent.
 *
 * - Success: the result's text per {@link mcpToolResultText}.
 * - `isError: true`: a {@link ToolExecutionError} whose message is that text, so the model gets an
 *   error result.
 * - A protocol, connection or size failure: a {@link ToolExecutionError} whose `cause` is the
 *   typed `McpProtocolError`, `McpConnectionError` or `McpLimitError` (a tool-execution exception
 *   processor can rethrow them by class).
 * - Abort (the caller's signal or the tool's timeout): the request is cancelled on the server and
 *   the abort error passes through.
 *
 * A trusted server's annotations become metadata (`readOnlyHint` → `readOnly`, `destructiveHint` →
 * `destructive`, `idempotentHint` → `idempotent`, `openWorldHint` → `openWorld`), which approval
 * policies read; a read-only or idempotent call is replayed once when its server dies before
 * answering. An untrusted server's (the default, see `McpServerTrust.trusted`) tools are
 * `readOnly: false, destructive: true, idempotent: false, openWorld: true` whatever its
 * annotations say (they stay readable on {@link McpToolCallback.tool}).
 *
 * A tool with an `outputSchema` that answers with `structuredContent` has it checked against the
 * schema (on the linear-time regex engine, as every schema of a server): a mismatch is a
 * {@link ToolExecutionError} caused by an `McpProtocolError`.
 */
export class McpToolCallback implements ToolCallback {
  readonly definition: ToolDefinition;
  readonly metadata: ToolMetadata;
  /** The client of the server that owns the tool. */
  readonly client: McpClient;
  /** The tool as the server listed it. */
  readonly tool: Tool;
  readonly #toolContextToMeta: ToolContextToMcpMeta | undefined;
  #outputSchema: JsonSchema | undefined;

  constructor(options: {
    client: McpClient;
    tool: Tool;
    /** The name the model sees; default the server's name, sanitised by the provider. */
    name?: string;
    toolContextToMeta?: ToolContextToMcpMeta;
  }) {
    const { client, tool } = options;
    this.client = client;
    this.tool = tool;
    const name = options.name ?? tool.name;
    const description = tool.description?.trim() ? tool.description : splitCamelCase(name);
    this.definition = Object.freeze({ name, description, inputSchema: modelInputSchema(tool) });
    this.metadata = Object.freeze(
      client.config.trusted === true ? annotationMetadata(tool) : UNTRUSTED_METADATA,
    );
    this.#toolContextToMeta = options.toolContextToMeta;
  }

  /** The tool's name on its server (what `call` sends). */
  get originalName(): string {
    return this.tool.name;
  }

  /**
   * Calls the tool on its server with `input` parsed and checked against the input schema here
   * (or the deprecated `validatedInput`); resolves to the result's text per
   * {@link mcpToolResultText} (images and resources as JSON text).
   */
  async call(input: string, context?: ToolContext, options?: ToolCallOptions): Promise<string> {
    const toolName = this.definition.name;
    let value = options?.validatedInput;
    if (value === undefined) {
      const parsed = parseToolArguments(input);
      if (!parsed.ok) throw new InvalidToolInputError({ toolName, issues: parsed.issues });
      const issues = validateJsonSchema(this.definition.inputSchema, parsed.value);
      if (issues.length > 0) throw new InvalidToolInputError({ toolName, issues });
      value = parsed.value;
    }
    return mcpToolResultText(await this.#callServer(value, context));
  }

  /**
   * Calls the tool on its server with the manager's parsed input. A result of text only resolves
   * to its text as `call` does; a result with images, audio, embedded resources or resource links
   * keeps them as content parts (see {@link mcpToolResultParts}), and `structuredContent` (checked
   * against the tool's output schema) is kept beside them.
   */
  async execute(
    input: Record<string, unknown>,
    context: ToolContext,
    _options?: ToolCallOptions,
  ): Promise<string | ToolResult> {
    const result = await this.#callServer(input, context);
    const blocks = Array.isArray(result.content) ? result.content : [];
    const structured = result.structuredContent;
    if (blocks.every((block) => block.type === 'text')) {
      const text = mcpToolResultText(result);
      return structured === undefined ? text : { text, structuredContent: structured };
    }
    const content = mcpToolResultParts(blocks);
    return {
      text: toolResultPartsText(content),
      content,
      ...(structured === undefined ? {} : { structuredContent: structured }),
    };
  }

  /** Sends the call; throws for a failure, an output that breaks the schema, or `isError`. */
  async #callServer(
    value: Record<string, unknown>,
    context: ToolContext | undefined,
  ): Promise<CallToolResult> {
    const toolName = this.definition.name;
    const meta = toMcpMeta(context?.context, this.#toolContextToMeta);
    const signal = context?.signal;
    let result: Awaited<ReturnType<McpClient['callTool']>>;
    try {
      result = await this.client.callTool(this.tool.name, value, {
        ...(signal === undefined ? {} : { signal }),
        ...(meta === undefined ? {} : { meta }),
        replayable: this.metadata.readOnly === true || this.metadata.idempotent === true,
      });
    } catch (error) {
      if (isAbortError(error)) throw error;
      throw new ToolExecutionError({
        toolName,
        ...(context?.toolCallId === undefined ? {} : { toolCallId: context.toolCallId }),
        cause: error,
      });
    }
    const mismatch = this.#outputMismatch(result);
    if (mismatch !== undefined) {
      throw new ToolExecutionError({
        toolName,
        ...(context?.toolCallId === undefined ? {} : { toolCallId: context.toolCallId }),
        cause: new McpProtocolError({
          serverName: this.client.name,
          rpcCode: ErrorCode.InvalidParams,
          message: `MCP tool '${this.tool.name}' of server '${this.client.name}' answered structured content that does not match its output schema: ${mismatch}`,
        }),
      });
    }
    if (result.isError === true) {
      const text = mcpToolResultText(result);
      throw new ToolExecutionError({
        toolName,
        message:
          text === '[]' || text.trim() === ''
            ? `MCP tool '${this.tool.name}' of server '${this.client.name}' reported an error without details`
            : text,
      });
    }
    return result;
  }

  /** Why a result's structured content fails the tool's output schema, or `undefined`. */
  #outputMismatch(result: CallToolResult): string | undefined {
    const schema = this.tool.outputSchema;
    if (schema === undefined || result.isError === true) return undefined;
    if (result.structuredContent === undefined) return undefined;
    this.#outputSchema ??= outputSchemaCopy(schema);
    const issues = validateJsonSchema(this.#outputSchema, result.structuredContent);
    if (issues.length === 0) return undefined;
    return issues
      .slice(0, 5)
      .map((issue) => `${issue.path || '/'} ${issue.message}`)
      .join('; ');
  }
}

/**
 * An MCP result's content blocks as tool result parts, nothing flattened: text → text; image and
 * audio → image and audio parts (base64 as sent); an embedded resource → a file part with its
 * URI (its text, or its blob as data); a resource link → a resource-link part. A block of a type
 * MCP may add later becomes a text part holding its JSON.
 */
export function mcpToolResultParts(blocks: CallToolResult['content']): ToolResultPart[] {
  return blocks.map((block): ToolResultPart => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'image':
      case 'audio':
        return { type: block.type, mediaType: block.mimeType, data: block.data };
      case 'resource': {
        const resource = block.resource;
        return 'text' in resource
          ? {
              type: 'file',
              mediaType: resource.mimeType ?? 'text/plain',
              text: resource.text,
              uri: resource.uri,
            }
          : {
              type: 'file',
              mediaType: resource.mimeType ?? 'application/octet-stream',
              data: resource.blob,
              uri: resource.uri,
            };
      }
      case 'resource_link':
        return {
          type: 'resource-link',
          uri: block.uri,
          name: block.name,
          ...(block.title === undefined ? {} : { title: block.title }),
          ...(block.description === undefined ? {} : { description: block.description }),
          ...(block.mimeType === undefined ? {} : { mediaType: block.mimeType }),
        };
      default:
        return { type: 'text', text: JSON.stringify(block) };
    }
  });
}

/** The metadata of every tool of an untrusted server: the MCP defaults' worst case. */
const UNTRUSTED_METADATA: ToolMetadata = Object.freeze({
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
});

/**
 * The server's input schema made safe to send: a copy, `type: 'object'` when missing, and
 * `properties: {}` for an object schema without them (Spring AI's `ensureValidInputSchema`).
 * A `$schema` other than draft 2020-12 (servers built on Zod 3 say draft-07) is dropped: the
 * keywords such servers use mean the same in 2020-12, which is what arguments are checked with,
 * but for tuples, rewritten to `prefixItems` (see {@link withDraft07TuplesRewritten}).
 */
function modelInputSchema(tool: Tool): JsonSchema {
  const schema = structuredClone(tool.inputSchema) as Record<string, unknown>;
  if (schema.$schema !== undefined && schema.$schema !== JSON_SCHEMA_DRAFT_2020_12) {
    delete schema.$schema;
  }
  schema.type ??= 'object';
  if (schema.type === 'object' && schema.properties === undefined) schema.properties = {};
  return withDraft07TuplesRewritten(schema as JsonSchema);
}

/**
 * The server's output schema as checked (a copy: never the listed object, whose compiled form
 * must not outlive the listing). A `$schema` of another draft is dropped as for input schemas.
 */
export function outputSchemaCopy(schema: NonNullable<Tool['outputSchema']>): JsonSchema {
  const copy = structuredClone(schema) as Record<string, unknown>;
  if (copy.$schema !== undefined && copy.$schema !== JSON_SCHEMA_DRAFT_2020_12) delete copy.$schema;
  return withDraft07TuplesRewritten(copy as JsonSchema);
}

function annotationMetadata(tool: Tool): ToolMetadata {
  const annotations = tool.annotations ?? {};
  const metadata: Record<string, unknown> = {};
  if (typeof annotations.readOnlyHint === 'boolean') metadata.readOnly = annotations.readOnlyHint;
  if (typeof annotations.destructiveHint === 'boolean') {
    metadata.destructive = annotations.destructiveHint;
  }
  if (typeof annotations.idempotentHint === 'boolean') {
    metadata.idempotent = annotations.idempotentHint;
  }
  if (typeof annotations.openWorldHint === 'boolean')
    metadata.openWorld = annotations.openWorldHint;
  return metadata;
}
