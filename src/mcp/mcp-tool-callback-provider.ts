import type { Tool } from '@modelcontextprotocol/sdk/types.js';
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
import { McpToolCallback } from './mcp-tool-callback.js';
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
   * Told about every tool left out because its input schema does not compile. Default: a Node
   * process warning (`McpToolWarning`).
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
  readonly #rejected = new WeakSet<Tool>();

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
   * local tools already use; the collision policy applies to them.
   */
  async getToolCallbacks(request?: ToolCallbackProviderRequest): Promise<ToolCallback[]> {
    if (!this.#enabled) return [];
    const listed = await Promise.all(
      this.clients.map(async (client) => ({ client, tools: await client.listTools() })),
    );
    const reserved = request?.reservedNames ?? new Set<string>();
    const taken = new Set<string>();
    const callbacks: ToolCallback[] = [];
    for (const { client, tools } of listed) {
      const connection = client.connectionInfo ?? placeholderInfo(client);
      for (const tool of tools) {
        if (!this.#filter(connection, tool)) continue;
        const name = this.#name(connection, tool, reserved, taken);
        if (name === undefined) continue;
        const callback = this.#callback(client, tool, name);
        if (!this.#acceptable(connection, callback)) continue;
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

  #acceptable(connection: McpConnectionInfo, callback: McpToolCallback): boolean {
    const tool = callback.tool;
    if (this.#rejected.has(tool)) return false;
    try {
      compileJsonSchema(callback.definition.inputSchema);
      return true;
    } catch (error) {
      this.#rejected.add(tool);
      this.#onToolRejected(
        connection,
        tool,
        error instanceof Error ? error.message : String(error),
      );
      return false;
    }
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

function placeholderInfo(client: McpClient): McpConnectionInfo {
  return {
    serverName: client.name,
    transport: client.config.transport,
    serverInfo: undefined,
    capabilities: undefined,
    instructions: undefined,
  };
}
