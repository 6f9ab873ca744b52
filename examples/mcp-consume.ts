// Consuming MCP server tools: a server configured as plain data (here the MCP project's
// "everything" server started with npx), its tools offered to the model as the default tools of
// a ChatClient, listed only when the first request runs.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/mcp-consume.js
import { pathToFileURL } from 'node:url';
import { ChatClient, type ChatModel } from '../src/index.js';
import { McpToolCallbackProvider } from '../src/mcp/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** Stands in for a real model: calls the server's `echo` tool, then answers. */
export function scriptedMcpConsumeModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ id: 'call-1', name: 'echo', arguments: '{"message":"hello MCP"}' }]),
    textResponse('The server echoed: hello MCP'),
  ]);
}

/** What the run showed. */
export interface McpConsumeResult {
  answer: string | null;
  /** The MCP tools the model was offered. */
  offered: string[];
  /** Whether the server had started before the first request. */
  startedBeforeFirstRequest: boolean;
}

export async function runMcpConsume(
  chatModel: ChatModel = scriptedMcpConsumeModel(),
  log: (line: string) => void = console.log,
): Promise<McpConsumeResult> {
  // Spring AI: spring.ai.mcp.client.stdio.connections.my-server.command=npx
  //            spring.ai.mcp.client.stdio.connections.my-server.args=-y,@modelcontextprotocol/server-everything
  const mcpTools = new McpToolCallbackProvider({
    connections: {
      'my-server': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
    },
  });
  try {
    const startedBeforeFirstRequest = mcpTools.clients[0]?.pid !== undefined;
    const client = ChatClient.create(chatModel, { tools: [mcpTools] });
    const response = await client
      .prompt('Echo "hello MCP" with the MCP server')
      .call()
      .chatResponse();
    const offered = (await mcpTools.getToolCallbacks()).map((tool) => tool.definition.name);
    const answer = response?.results[0]?.output.text ?? null;
    log(`MCP tools offered: ${offered.join(', ')}`);
    log(`answer: ${answer}`);
    return { answer, offered, startedBeforeFirstRequest };
  } finally {
    await mcpTools.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runMcpConsume();
}
