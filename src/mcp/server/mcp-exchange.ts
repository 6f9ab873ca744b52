import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../../index.js';
import type { McpPrincipal } from './mcp-principal.js';

/**
 * The MCP request a tool runs for, on `McpToolServer` (Spring AI's `McpSyncServerExchange`): lets
 * the tool log, report progress, and ask the client for a sampling or an elicitation. Get it
 * with {@link mcpExchange}.
 */
export interface McpExchange {
  /** The MCP session (Streamable HTTP); `undefined` over stdio. */
  readonly sessionId: string | undefined;
  /** Who called, as the server's token check established; `undefined` without authentication. */
  readonly principal: McpPrincipal | undefined;
  /** Sends a `notifications/message` log entry with the request. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Sends `notifications/progress` when the client asked for progress (a no-op otherwise). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Asks the client's model for a completion (`sampling/createMessage`). */
  createMessage(params: CreateMessageRequest['params']): Promise<CreateMessageResult>;
  /** Asks the client's user for input (`elicitation/create`, form mode). */
  elicitInput(params: ElicitRequestFormParams): Promise<ElicitResult>;
}

const exchanges = new WeakMap<ToolContext, McpExchange>();

/** Links a tool context to the MCP request it was made for (used by the server). */
export function bindMcpExchange(context: ToolContext, exchange: McpExchange): void {
  exchanges.set(context, exchange);
}

/**
 * The MCP request behind a tool call, when the tool runs on `McpToolServer`; `undefined` when it
 * runs anywhere else (for example in-process in a ChatClient).
 */
export function mcpExchange(context: ToolContext | undefined): McpExchange | undefined {
  return context === undefined ? undefined : exchanges.get(context);
}
