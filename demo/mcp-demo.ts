// The MCP part of `npm start`: consume the reference "everything" server by config, expose a
// weather tool as an MCP server, and combine local and MCP tools in one .tools() call.
import { type McpCombineResult, runMcpCombine } from '../examples/mcp-combine.js';
import { type McpConsumeResult, runMcpConsume } from '../examples/mcp-consume.js';
import { type McpExposeResult, runMcpExpose } from '../examples/mcp-expose.js';
import type { ChatModel } from '../src/index.js';

/** What the three MCP scenarios showed. */
export interface McpDemoResult {
  consume: McpConsumeResult;
  expose: McpExposeResult;
  combine: McpCombineResult;
}

/**
 * Runs the three MCP scenarios. With a real model the model decides which tools to call; the
 * scripted models play the calls the scenarios describe.
 */
export async function runMcpDemo(
  realModel?: ChatModel,
  log: (line: string) => void = console.log,
): Promise<McpDemoResult> {
  log(
    '\n=== MCP: consume the everything server (npx -y @modelcontextprotocol/server-everything) ===',
  );
  const consume = await runMcpConsume(realModel, log);
  log('\n=== MCP: expose WeatherTools (@mcpTool) as an MCP server ===');
  const expose = await runMcpExpose(log);
  log('\n=== MCP: local and MCP tools in one .tools() call ===');
  const combine = await runMcpCombine(realModel, log);
  return { consume, expose, combine };
}
