import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ChatClient,
  type ToolResponse,
  type ToolResponseMessage,
  tool,
  toolResult,
} from '../../../src/index.js';
import { McpToolCallbackProvider } from '../../../src/mcp/index.js';
import { McpToolServer } from '../../../src/mcp/server/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../../../src/testing/index.js';

// MCP results beyond text, both ways: a real MCP server's image, resources and structured content
// reach the transcript as parts (not flattened to JSON text), and toolloop's own server
// advertises output schemas and answers with structured content and image blocks.

const projectRoot = join(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const providers: McpToolCallbackProvider[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.close()));
  await Promise.all(closers.splice(0).map((close) => close()));
});

function toolResponses(model: ScriptedChatModel, promptIndex: number): ToolResponse[] {
  const last = model.prompts[promptIndex]?.messages.at(-1) as ToolResponseMessage;
  return last.responses;
}

describe('an MCP server-everything tool through the loop', () => {
  it('keeps the image, the resource links, the embedded resource and the structured content', async () => {
    const mcpTools = new McpToolCallbackProvider({
      connections: {
        everything: {
          command: process.execPath,
          args: [
            join(projectRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
          ],
        },
      },
    });
    providers.push(mcpTools);
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'c1', name: 'get-tiny-image', arguments: {} },
        { id: 'c2', name: 'get-structured-content', arguments: { location: 'Chicago' } },
        { id: 'c3', name: 'get-resource-links', arguments: { count: 2 } },
        { id: 'c4', name: 'get-resource-reference', arguments: {} },
      ]),
      textResponse('seen'),
    ]);
    const answer = await ChatClient.create(model)
      .prompt('Show me')
      .tools(mcpTools)
      .call()
      .content();
    expect(answer).toBe('seen');
    const [image, structured, links, reference] = toolResponses(model, 1);

    expect(image?.isError).toBeUndefined();
    const imagePart = image?.content?.find((part) => part.type === 'image');
    expect(imagePart).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(
      Buffer.from((imagePart as { data: string }).data, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    // The text form names the image; its bytes stay in the part.
    expect(image?.responseData).toMatch(/\[image image\/png, [\d.]+ (B|KB)\]/);
    expect(image?.responseData).not.toContain((imagePart as { data: string }).data);

    expect(structured?.structuredContent).toEqual({
      temperature: 36,
      conditions: 'Light rain / drizzle',
      humidity: 82,
    });
    expect(JSON.parse(structured?.responseData ?? '')).toEqual(structured?.structuredContent);

    const linkParts = links?.content?.filter((part) => part.type === 'resource-link') ?? [];
    expect(linkParts).toHaveLength(2);
    expect(linkParts[0]).toMatchObject({ type: 'resource-link', uri: expect.any(String) });

    const embedded = reference?.content?.find((part) => part.type === 'file');
    expect(embedded).toMatchObject({ type: 'file', uri: expect.stringContaining('1') });

    // Every message is plain JSON, parts included.
    const messages = model.prompts[1]?.messages;
    expect(JSON.parse(JSON.stringify(messages))).toEqual(messages);
  }, 60_000);
});

describe("toolloop's MCP server, rich results", () => {
  const PNG =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
  const forecast = tool({
    name: 'forecast',
    description: 'The forecast for a city',
    inputSchema: z.object({ city: z.string() }),
    outputSchema: z.object({ city: z.string(), celsius: z.number() }),
    execute: ({ city }) => ({ city, celsius: city === 'Oslo' ? 4 : 'unknown' }),
  });
  const chart = tool({
    name: 'chart',
    description: 'A chart of the week',
    execute: () =>
      toolResult(['The week', { type: 'image', mediaType: 'image/png', data: PNG }], {
        structuredContent: { points: 7 },
      }),
  });

  async function connected() {
    const server = new McpToolServer({ tools: [forecast, chart] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'rich-test', version: '1.0.0' });
    await client.connect(clientSide);
    closers.push(
      () => client.close(),
      () => server.close(),
    );
    return client;
  }

  it('advertises the output schema and answers with structured content the SDK client checks', async () => {
    const client = await connected();
    const { tools } = await client.listTools();
    const listed = tools.find((entry) => entry.name === 'forecast');
    expect(listed?.outputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'number' } },
    });
    const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
    expect(result.structuredContent).toEqual({ city: 'Oslo', celsius: 4 });
    expect(result.content).toEqual([{ type: 'text', text: '{"city":"Oslo","celsius":4}' }]);
    // A result that breaks the schema is the tool's error, never structured content.
    const broken = await client.callTool({ name: 'forecast', arguments: { city: 'Lima' } });
    expect(broken.isError).toBe(true);
    expect(broken.structuredContent).toBeUndefined();
    expect(JSON.stringify(broken.content)).toContain('does not match its output schema');
  });

  it('answers a toolResult() with image blocks and structured content', async () => {
    const client = await connected();
    const result = await client.callTool({ name: 'chart', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: 'The week' },
      { type: 'image', mimeType: 'image/png', data: PNG },
    ]);
    expect(result.structuredContent).toEqual({ points: 7 });
  });

  it('round trip: toolloop serving, toolloop consuming, the parts arrive whole', async () => {
    const server = new McpToolServer({ tools: [chart, forecast] });
    closers.push(() => server.close());
    const { url } = await server.listen();
    const mcpTools = new McpToolCallbackProvider({
      connections: { local: { url: url.href } },
    });
    providers.push(mcpTools);
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'c1', name: 'chart', arguments: {} },
        { id: 'c2', name: 'forecast', arguments: { city: 'Oslo' } },
      ]),
      textResponse('ok'),
    ]);
    await ChatClient.create(model).prompt('chart').tools(mcpTools).call().content();
    const [chartResponse, forecastResponse] = toolResponses(model, 1);
    expect(chartResponse).toEqual({
      id: 'c1',
      name: 'chart',
      responseData: 'The week\n[image image/png, 70 B]',
      content: [
        { type: 'text', text: 'The week' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ],
      structuredContent: { points: 7 },
    });
    expect(forecastResponse?.structuredContent).toEqual({ city: 'Oslo', celsius: 4 });
  });
});
