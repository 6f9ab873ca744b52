// Exposing tools as an MCP server: a class with an @mcpTool method served over Streamable HTTP on
// 127.0.0.1, called by an MCP client (toolloop's own client here; any MCP client works).
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/mcp-expose.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { McpClient } from '../src/mcp/index.js';
import { McpToolServer, mcpTool } from '../src/mcp/server/index.js';

/** Weather tools, served over MCP. */
export class WeatherTools {
  @mcpTool({
    description: 'Get the current weather for a given city',
    readOnly: true,
    inputSchema: z.object({ city: z.string().describe('City name') }),
  })
  getWeather({ city }: { city: string }): string {
    return `It is 18 °C and sunny in ${city}.`;
  }
}

/** What the run showed. */
export interface McpExposeResult {
  url: string;
  listed: { name: string; description?: string; annotations?: unknown }[];
  answer: unknown;
}

export async function runMcpExpose(
  log: (line: string) => void = console.log,
): Promise<McpExposeResult> {
  const server = new McpToolServer({ name: 'weather', tools: [new WeatherTools()] });
  const { url } = await server.listen();
  const client = new McpClient('weather', { url });
  try {
    const listed = (await client.listTools()).map(({ name, description, annotations }) => ({
      name,
      ...(description === undefined ? {} : { description }),
      ...(annotations === undefined ? {} : { annotations }),
    }));
    const result = await client.callTool('getWeather', { city: 'Copenhagen' });
    const answer = result.content[0]?.type === 'text' ? result.content[0].text : result.content;
    log(`MCP server at ${url.href} lists: ${listed.map((tool) => tool.name).join(', ')}`);
    log(`getWeather(Copenhagen) → ${String(answer)}`);
    return { url: url.href, listed, answer };
  } finally {
    await client.close();
    await server.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runMcpExpose();
}
