// Combining local and MCP tools: a local @tool class and an MCP server's tools in one .tools()
// call; the model calls one of each in the same response. A local tool whose name an MCP tool
// also has would fail the request unless a collision policy is chosen (onNameCollision).
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/mcp-combine.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  ChatClient,
  type ChatModel,
  type ToolResponse,
  type ToolResponseMessage,
  tool,
} from '../src/index.js';
import { McpToolCallbackProvider } from '../src/mcp/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** Local tools. */
export class LocalTools {
  @tool({
    description: 'Converts degrees Celsius to Fahrenheit',
    inputSchema: z.object({ celsius: z.number() }),
  })
  toFahrenheit({ celsius }: { celsius: number }): number {
    return celsius * 1.8 + 32;
  }
}

/** Stands in for a real model: one local and one MCP call in one response, then the answer. */
export function scriptedMcpCombineModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { id: 'call-1', name: 'toFahrenheit', arguments: '{"celsius":20}' },
      { id: 'call-2', name: 'get-sum', arguments: '{"a":20,"b":22}' },
    ]),
    textResponse('20 °C is 68 °F, and 20 + 22 = 42.'),
  ]);
}

/** What the run showed. */
export interface McpCombineResult {
  answer: string | null;
  toolResponses: ToolResponse[];
}

export async function runMcpCombine(
  chatModel: ChatModel = scriptedMcpCombineModel(),
  log: (line: string) => void = console.log,
): Promise<McpCombineResult> {
  const mcpTools = new McpToolCallbackProvider({
    connections: {
      everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
    },
    // Only what this app needs enters the request.
    toolFilter: (_server, mcpTool) => ['get-sum', 'echo'].includes(mcpTool.name),
  });
  try {
    const client = ChatClient.create(chatModel);
    const response = await client
      .prompt('What is 20 °C in Fahrenheit, and 20 + 22?')
      .tools(new LocalTools(), mcpTools)
      .call()
      .chatClientResponse();
    const answer = response.chatResponse?.results[0]?.output.text ?? null;
    const toolMessage = (chatModel as ScriptedChatModel).prompts?.[1]?.messages.at(-1) as
      | ToolResponseMessage
      | undefined;
    const toolResponses = toolMessage?.responses ?? [];
    for (const entry of toolResponses) log(`${entry.name} → ${entry.responseData}`);
    log(`answer: ${answer}`);
    return { answer, toolResponses };
  } finally {
    await mcpTools.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runMcpCombine();
}
