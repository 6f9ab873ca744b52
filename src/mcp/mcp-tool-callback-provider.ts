import { type Tool, ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  InvalidArgumentError,
  type ToolCallback,
  type ToolCallbackProvider,
  type ToolCallbackProviderRequest,
  ToolDefinitionError,
} from '../index.js';
import { compileJsonSchema } from '../tools/index.js';
import { McpClient, type McpClientOptions, type McpConnectionInfo } from './mcp-client.js';
import type { McpConnectionConfig } from './mcp-connection-config.js';
import { McpToolCallback, outputSchemaCopy } from './mcp-tool-callback.js';
import { alternativeToolName, sanitizeToolName, serverPrefixedToolName } from './mcp-tool-names.js';
import {
  checkToolContextToMcpMeta,
  type ToolContextToMcpMeta,
} from './tool-context-to-mcp-meta.js';

/** Decides which MCP tools enter the request (Spring AI's `McpToolFilter`). */
export type McpToolFilter = (connection: McpConnectionInfo, tool: Tool) => boolean;

/** Names a tool for the model; the result is sanitised afterwards. */
export type McpToolNameGenerator = (connection: McpConnectionInfo, tool: Tool) => string;

/**
 * How MCP tools are named for the model. Every name is sanitised to `^[a-zA-Z0-9_-]{1,64}$`.
 * - `'default'`: the tool's own name; the second and later tools of one name get `alt_1_`,
 *   `alt_2_`, … (Spring AI's `DefaultMcpToolNamePrefixGenerator`).
 * - `'server-prefix'`: `<connection name>_<tool name>` for every tool (duplicates as above).
 * - a function: its name for each tool; two tools given one name are an error.
 */
export type McpToolNaming = 'default' | 'server-prefix' | McpToolNameGenerator;

/**
 * What happens when an MCP tool's name is already taken in the request by a local tool (or by
 * a provider listed earlier):
 * - `'error'` (default): the request fails with a {@link ToolDefinitionError} naming both;
 * - `'prefix'`: the MCP tool is renamed `<connection name>_<tool name>` (then `alt_<n>_…`);
 * - `'local-wins'`: the MCP tool is left out of that request.
 * A local tool is never silently shadowed.
 */
export type McpNameCollisionPolicy = 'error' | 'prefix' | 'local-wins';

/** Options of {@link McpToolCallbackProvider}. */
export interface McpToolCallbackProviderOptions {
  /** Servers by connection name; the provider creates and owns their clients. */
  connections?: Readonly<Record<string, McpConnectionConfig>>;
  /** Clients created elsewhere (for example shared with another provider). */
  clients?: readonly McpClient[];
  /** Options for the clients created from `connections`. */
  clientOptions?: McpClientOptions;
  /** Which tools enter; default all. */
  toolFilter?: McpToolFilter;
  /** Default `'default'`. */
  toolNaming?: McpToolNaming;
  /** Default `'error'`. */
  onNameCollision?: McpNameCollisionPolicy;
  /** `ToolContext` entries sent as the request's `_meta`; default none. */
  toolContextToMeta?: ToolContextToMcpMeta;
  /**
   * `false` lists no tools and starts no server (Spring AI's
   * `spring.ai.mcp.client.toolcallback.enabled`). Default `true`.
   */
  enabled?: boolean;
  /**
   * Told about every tool left out: its input or output schema does not compile (a pattern the
   * linear-time regex engine refuses included), is nested too deep, or the entry is not a valid
   * MCP tool (`tool` is then the entry as listed). One bad tool never fails the request: the
   * server's other tools and the local tools are offered as usual. Default: a Node process
   * warning (`McpToolWarning`).
   */
  onToolRejected?: (connection: McpConnectionInfo, tool: Tool, reason: string) => void;
}

/**
 * The tools of one or many MCP servers as a {@link ToolCallbackProvider}: pass it to
 * `ChatClient.create(model, { tools })` or `.tools(...)` next to local tools.
 *
 * ```ts
 * import { McpToolCallbackProvider } from 'toolloop/mcp';
 * const mcpTools = new McpToolCallbackProvider({
 *   connections: { everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] } },
 * });
 * await client.prompt('…').tools(new LocalTools(), mcpTools).call().content();
 * await mcpTools.close();
 * ```
 *
 * Nothing connects when the provider is created: the first request lists every server's tools
 * (in parallel), and the lists stay cached until a server sends `tools/list_changed` or
 * reconnects. Each request then gets the filtered tools, named per `toolNaming` and
 * `onNameCollision`. A server that cannot be reached fails the request with its
 * `McpConnectionError`.
 */
export class McpToolCallbackProvider implements ToolCallbackProvider {
  /** The clients whose tools this provider lists, in order. */
  readonly clients: readonly McpClient[];
  readonly #filter: McpToolFilter;
  readonly #naming: McpToolNaming;
  readonly #collision: McpNameCollisionPolicy;
  readonly #toolContextToMeta: ToolContextToMcpMeta | undefined;
  readonly #enabled: boolean;
  readonly #onToolRejected: (connection: McpConnectionInfo, tool: Tool, reason: string) => void;
  readonly #callbacks = new WeakMap<Tool, Map<string, McpToolCallback>>();
  readonly #screenings = new WeakMap<Tool, { tool: Tool | undefined }>();

  constructor(options: McpToolCallbackProviderOptions = {}) {
    const created = Object.entries(options.connections ?? {}).map(
      ([name, config]) => new McpClient(name, config, options.clientOptions),
    );
    const given = options.clients ?? [];
    if (!Array.isArray(given) || !given.every((client) => client instanceof McpClient)) {
      throw new InvalidArgumentError('clients must be an array of McpClient');
    }
    this.clients = Object.freeze([...created, ...given]);
    const names = new Set<string>();
    for (const client of this.clients) {
      if (names.has(client.name)) {
        throw new InvalidArgumentError(`Two MCP connections are named '${client.name}'`);
      }
      names.add(client.name);
    }
    this.#filter = options.toolFilter ?? (() => true);
    this.#naming = options.toolNaming ?? 'default';
    this.#collision = options.onNameCollision ?? 'error';
    if (!['error', 'prefix', 'local-wins'].includes(this.#collision)) {
      throw new InvalidArgumentError(
        `onNameCollision must be 'error', 'prefix' or 'local-wins', not ${JSON.stringify(this.#collision)}`,
      );
    }
    this.#toolContextToMeta = checkToolContextToMcpMeta(options.toolContextToMeta);
    this.#enabled = options.enabled ?? true;
    this.#onToolRejected =
      options.onToolRejected ??
      ((connection, tool, reason) =>
        process.emitWarning(
          `MCP tool '${tool.name}' of server '${connection.serverName}' was left out: ${reason}`,
          'McpToolWarning',
        ));
  }

  /**
   * The callbacks for one request. `request.reservedNames` (set by the ChatClient) are the names
   * local tools already use; the collision policy applies to them. `request.signal` aborting
   * ends the wait for the servers' lists with an `AbortError` (a listing goes on, to be cached).
   */
  async getToolCallbacks(request?: ToolCallbackProviderRequest): Promise<ToolCallback[]> {
    if (!this.#enabled) return [];
    const signal = request?.signal;
    const listings = await Promise.all(
      this.clients.map(async (client) => ({
        client,
        tools: await client.listTools(signal === undefined ? {} : { signal }),
      })),
    );
    const reserved = request?.reservedNames ?? new Set<string>();
    const taken = new Set<string>();
    const callbacks: ToolCallback[] = [];
    for (const { client, tools } of listings) {
      const connection = client.connectionInfo ?? placeholderInfo(client);
      for (const listed of tools) {
        const screened = this.#screened(client, connection, listed);
        if (screened === undefined) continue;
        if (!this.#filter(connection, screened)) continue;
        const name = this.#name(connection, screened, reserved, taken);
        if (name === undefined) continue;
        const callback = this.#callback(client, screened, name);
        taken.add(name);
        callbacks.push(callback);
      }
    }
    return callbacks;
  }

  /** Drops every cached tool list; the next request lists the servers again. */
  invalidateCache(): void {
    for (const client of this.clients) client.invalidateTools();
  }

  /** Closes every client (and stops their servers). */
  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
  }

  #name(
    connection: McpConnectionInfo,
    tool: Tool,
    reserved: ReadonlySet<string>,
    taken: Set<string>,
  ): string | undefined {
    const naming = this.#naming;
    let name =
      typeof naming === 'function'
        ? sanitizeToolName(naming(connection, tool))
        : naming === 'server-prefix'
          ? serverPrefixedToolName(connection.serverName, tool.name)
          : sanitizeToolName(tool.name);
    if (reserved.has(name)) {
      if (this.#collision === 'local-wins') return undefined;
      if (this.#collision === 'error') {
        throw new ToolDefinitionError(
          `MCP tool '${tool.name}' of server '${connection.serverName}' has the name '${name}' of a tool already in the request; ` +
            "rename one, drop the MCP tool with toolFilter, or set onNameCollision to 'prefix' or 'local-wins'",
          { toolName: name },
        );
      }
      name = serverPrefixedToolName(connection.serverName, tool.name);
    }
    if (taken.has(name) || reserved.has(name)) {
      if (typeof naming === 'function') {
        throw new ToolDefinitionError(
          `Multiple tools with the same name (${name}) found in MCP servers`,
          {
            toolName: name,
          },
        );
      }
      name = alternativeToolName(name, new Set([...taken, ...reserved]));
    }
    return name;
  }

  /**
   * The listed tool once it passed every check, or `undefined` (reported once) when one of them
   * fails: schemas nested deeper than {@link MAX_TOOL_DEPTH} levels (checked without recursion,
   * before anything recursive touches them), an entry that is not a valid MCP `Tool` (an input
   * schema that is not an object schema, a description that is not text, …), and input or
   * output schemas that do not compile (including patterns the linear-time engine refuses).
   */
  #screened(client: McpClient, connection: McpConnectionInfo, listed: Tool): Tool | undefined {
    const known = this.#screenings.get(listed);
    if (known !== undefined) return known.tool;
    let tool: Tool | undefined;
    try {
      if (jsonDepth(listed) > MAX_TOOL_DEPTH) {
        throw new Error(`its definition is nested more than ${MAX_TOOL_DEPTH} levels deep`);
      }
      const parsed = ToolSchema.safeParse(withObjectType(listed));
      if (!parsed.success)
        throw new Error(`it is not a valid MCP tool: ${zodIssues(parsed.error)}`);
      tool = parsed.data as Tool;
      compileJsonSchema(new McpToolCallback({ client, tool }).definition.inputSchema);
      if (tool.outputSchema !== undefined) compileJsonSchema(outputSchemaCopy(tool.outputSchema));
    } catch (error) {
      tool = undefined;
      this.#onToolRejected(
        connection,
        listed,
        error instanceof Error ? error.message : String(error),
      );
    }
    this.#screenings.set(listed, { tool });
    return tool;
  }

  #callback(client: McpClient, tool: Tool, name: string): McpToolCallback {
    let byName = this.#callbacks.get(tool);
    if (byName === undefined) {
      byName = new Map();
      this.#callbacks.set(tool, byName);
    }
    let callback = byName.get(name);
    if (callback === undefined) {
      callback = new McpToolCallback({
        client,
        tool,
        name,
        ...(this.#toolContextToMeta === undefined
          ? {}
          : { toolContextToMeta: this.#toolContextToMeta }),
      });
      byName.set(name, callback);
    }
    return callback;
  }
}

/**
 * Deepest nesting of objects and arrays a listed tool may have. Zod and hand-written schemas
 * stay far below; a schema thousands of levels deep overflows the stack of every recursive
 * consumer (cloning, compiling, provider adaptation).
 */
const MAX_TOOL_DEPTH = 128;

/**
 * The listed tool with `type: 'object'` on an input schema that names no type (`{}`, or
 * properties alone), as Spring AI's `ensureValidInputSchema` cleans it up, so that such a tool is
 * checked and offered like any other instead of failing the MCP tool shape; a schema of another
 * type is left as it is (and refused).
 */
function withObjectType(listed: Tool): Tool {
  const schema: unknown = (listed as { inputSchema?: unknown }).inputSchema;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return listed;
  if ('type' in schema) return listed;
  return { ...listed, inputSchema: { type: 'object', ...schema } };
}

/** Nesting depth of a JSON value, walked without recursion. */
function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_TOOL_DEPTH) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function zodIssues(error: {
  issues: readonly { path: readonly PropertyKey[]; message: string }[];
}): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

function placeholderInfo(client: McpClient): McpConnectionInfo {
  return {
    serverName: client.name,
    transport: client.config.transport,
    serverInfo: undefined,
    capabilities: undefined,
    instructions: undefined,
  };
}
