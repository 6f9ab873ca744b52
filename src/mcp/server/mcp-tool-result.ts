import { AsyncLocalStorage } from 'node:async_hooks';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InvalidArgumentError } from '../../index.js';
import { mcpToolResultText } from '../mcp-tool-result-text.js';

const MCP_TOOL_RESULT = Symbol('toolloop.mcpToolResult');

/** Receives the MCP result of the tool call running in this async context (set by the server). */
export const mcpResultSink = new AsyncLocalStorage<{ result: CallToolResult | undefined }>();

/**
 * A tool's answer as MCP content blocks (images, audio, resources, structured content), for MCP
 * clients of `McpToolServer`. Return it from any tool (`tool()`, `@tool`, `@mcpTool`):
 *
 * ```ts
 * execute: () => mcpToolResult({ content: [{ type: 'image', data: png, mimeType: 'image/png' }] })
 * ```
 *
 * An MCP client receives the blocks as they are. A model calling the same tool in-process reads
 * their text mapping (`mcpToolResultText`), through the tool's result converter.
 */
export interface McpToolResult {
  readonly result: CallToolResult;
  /** The model's view: the text mapping, parsed back when it is JSON. */
  toJSON(): unknown;
}

/** Wraps MCP content blocks as a tool's return value; see {@link McpToolResult}. */
export function mcpToolResult(result: CallToolResult): McpToolResult {
  if (typeof result !== 'object' || result === null || !Array.isArray(result.content)) {
    throw new InvalidArgumentError('mcpToolResult takes a CallToolResult: { content: [...] }');
  }
  const frozen = Object.freeze({ ...result });
  return Object.freeze({
    [MCP_TOOL_RESULT]: true,
    result: frozen,
    toJSON(): unknown {
      // The converter serialises the value inside the tool call: hand the blocks to the server.
      const sink = mcpResultSink.getStore();
      if (sink !== undefined) sink.result = frozen;
      const text = mcpToolResultText(frozen);
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    },
  });
}

/** True for a value made by {@link mcpToolResult}. */
export function isMcpToolResult(value: unknown): value is McpToolResult {
  return typeof value === 'object' && value !== null && MCP_TOOL_RESULT in value;
}
