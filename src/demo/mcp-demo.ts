import { fileURLToPath } from 'node:url';
import { ChatClient, type ChatModel, type ToolResponseMessage } from '../index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { RecordingChatModel } from './recording-chat-model.js';
import { WeatherTools } from './weather-and-status-tools.js';

/** Where the MCP scenarios find the `toolloop` bin and the module its `mcp serve` serves. */
export interface McpDemoFiles {
  /** The built `toolloop` bin (`cli/main.js`). Default: the one beside this module. */
  cliPath?: string;
  /** The built tools module served over MCP. Default: `mcp-demo-tools.js` beside this module. */
  toolsModule?: string;
}

/** What the three MCP scenarios showed. */
export interface McpDemoResult {
  consume: { offered: string[]; answer: string | null };
  expose: { url: string; listed: string[]; answer: string };
  combine: { toolResponses: [name: string, data: string][]; answer: string | null };
}

/** The line `toolloop demo` prints instead of the MCP scenarios when the SDK is missing. */
export const MCP_SDK_MISSING =
  'MCP scenarios skipped: they need the optional package @modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk)';

/** Whether the optional MCP SDK can be imported from where toolloop is installed. */
export async function mcpSdkInstalled(): Promise<boolean> {
  try {
    await import('@modelcontextprotocol/sdk/client/index.js');
    return true;
  } catch {
    return false;
  }
}

/** The scripted model of the consume scenario: asks the MCP server for an order, then answers. */
export function mcpConsumeScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { id: 'call-order', name: 'get_order_status', arguments: { orderId: 'A-1001' } },
    ]),
    textResponse('Order A-1001 has shipped with DHL and should arrive on 2026-09-25.'),
  ]);
}

/** The scripted model of the combine scenario: one local and one MCP call in one response. */
export function mcpCombineScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { id: 'call-weather', name: 'current_weather', arguments: { city: 'Boston' } },
      { id: 'call-add', name: 'add', arguments: { a: 20, b: 22 } },
    ]),
    textResponse('Boston is at 14.5 °C and overcast, and 20 + 22 = 42.'),
  ]);
}

function serverConnection(files: McpDemoFiles) {
  const cliPath = files.cliPath ?? fileURLToPath(new URL('../cli/main.js', import.meta.url));
  const toolsModule =
    files.toolsModule ?? fileURLToPath(new URL('./mcp-demo-tools.js', import.meta.url));
  return { command: process.execPath, args: [cliPath, 'mcp', 'serve', toolsModule] };
}

/**
 * MCP: consume a server started as a child process; the server is toolloop's own
 * (`toolloop mcp serve` on a module of tools), configured as plain data like Spring AI's
 * `spring.ai.mcp.client.stdio.connections.<name>.*`, and started when the first request lists
 * its tools.
 */
export async function runMcpConsumeDemo(
  model: ChatModel = mcpConsumeScript(),
  log: (line: string) => void = console.log,
  files: McpDemoFiles = {},
): Promise<McpDemoResult['consume']> {
  const { McpToolCallbackProvider } = await import('../mcp/index.js');
  const connection = serverConnection(files);
  log(`server, a child process: toolloop mcp serve ${connection.args.at(-1)}`);
  const mcpTools = new McpToolCallbackProvider({ connections: { orders: connection } });
  try {
    const answer = await ChatClient.create(model, { tools: [mcpTools] })
      .prompt('Where is my order A-1001?')
      .call()
      .content();
    const offered = (await mcpTools.getToolCallbacks()).map((tool) => tool.definition.name);
    log(`MCP tools offered: ${offered.join(', ')}`);
    log(`answer: ${answer ?? '(no text)'}`);
    log('');
    return { offered, answer };
  } finally {
    await mcpTools.close();
  }
}

/** MCP: expose toolloop tools as an MCP server over Streamable HTTP, called by an MCP client. */
export async function runMcpExposeDemo(
  log: (line: string) => void = console.log,
): Promise<McpDemoResult['expose']> {
  const { McpClient } = await import('../mcp/index.js');
  const { McpToolServer } = await import('../mcp/server/index.js');
  const server = new McpToolServer({ name: 'weather', tools: [new WeatherTools()] });
  const { url } = await server.listen();
  const client = new McpClient('weather', { url });
  try {
    const listed = (await client.listTools()).map((tool) => tool.name);
    const result = await client.callTool('current_weather', { city: 'Boston' });
    const first = result.content[0];
    const answer = first?.type === 'text' ? first.text : JSON.stringify(result.content);
    log(`MCP server at ${url.href} lists: ${listed.join(', ')}`);
    log(`current_weather(Boston) over MCP → ${answer}`);
    log('');
    return { url: url.href, listed, answer };
  } finally {
    await client.close();
    await server.close();
  }
}

/** MCP: a local tool and an MCP server's tools in one `.tools()` call, one batch. */
export async function runMcpCombineDemo(
  model: ChatModel = mcpCombineScript(),
  log: (line: string) => void = console.log,
  files: McpDemoFiles = {},
): Promise<McpDemoResult['combine']> {
  const { McpToolCallbackProvider } = await import('../mcp/index.js');
  const mcpTools = new McpToolCallbackProvider({
    connections: { orders: serverConnection(files) },
  });
  const recorder = new RecordingChatModel(model);
  try {
    const answer = await ChatClient.create(recorder)
      .prompt("What's the weather in Boston, and what is 20 + 22?")
      .tools(new WeatherTools(), mcpTools)
      .call()
      .content();
    const toolMessage = recorder.prompts
      .flatMap((prompt) => prompt.messages)
      .filter((message): message is ToolResponseMessage => message.role === 'tool')
      .at(-1);
    const toolResponses = (toolMessage?.responses ?? []).map(
      (response) => [response.name, response.responseData] as [string, string],
    );
    for (const [name, data] of toolResponses) log(`${name} → ${data}`);
    log(`answer: ${answer ?? '(no text)'}`);
    log('');
    return { toolResponses, answer };
  } finally {
    await mcpTools.close();
  }
}
