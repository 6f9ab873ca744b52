// The fixture server the official MCP conformance suite's server scenarios expect (tool names,
// arguments and answers as the suite describes them), built only with toolloop's server API.
import { jsonSchema, type ToolCallback, tool } from '../../src/index.js';
import { McpToolServer, mcpExchange, mcpToolResult } from '../../src/mcp/server/index.js';

/** A 1×1 PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A 10 ms, 8 kHz, 8-bit mono WAV of silence. */
function silentWav(): string {
  const samples = 80;
  const bytes = Buffer.alloc(44 + samples, 0x80);
  bytes.write('RIFF', 0);
  bytes.writeUInt32LE(36 + samples, 4);
  bytes.write('WAVEfmt ', 8);
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(8000, 24);
  bytes.writeUInt32LE(8000, 28);
  bytes.writeUInt16LE(1, 32);
  bytes.writeUInt16LE(8, 34);
  bytes.write('data', 36);
  bytes.writeUInt32LE(samples, 40);
  return bytes.toString('base64');
}

const noArguments = jsonSchema<Record<string, never>>({ type: 'object', properties: {} });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exchangeOf(context: Parameters<ToolCallback['call']>[1]) {
  const exchange = mcpExchange(context);
  if (exchange === undefined) throw new Error('This tool runs only on an MCP server');
  return exchange;
}

/** The conformance fixture tools. */
export function conformanceTools(): ToolCallback[] {
  return [
    tool({
      name: 'test_simple_text',
      description: 'Returns simple text',
      inputSchema: noArguments,
      execute: () =>
        mcpToolResult({
          content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
        }),
    }),
    tool({
      name: 'test_image_content',
      description: 'Returns an image',
      inputSchema: noArguments,
      execute: () =>
        mcpToolResult({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
    }),
    tool({
      name: 'test_audio_content',
      description: 'Returns audio',
      inputSchema: noArguments,
      execute: () =>
        mcpToolResult({ content: [{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }] }),
    }),
    tool({
      name: 'test_embedded_resource',
      description: 'Returns an embedded resource',
      inputSchema: noArguments,
      execute: () =>
        mcpToolResult({
          content: [
            {
              type: 'resource',
              resource: {
                uri: 'test://embedded-resource',
                mimeType: 'text/plain',
                text: 'This is an embedded resource content.',
              },
            },
          ],
        }),
    }),
    tool({
      name: 'test_multiple_content_types',
      description: 'Returns text, an image and a resource',
      inputSchema: noArguments,
      execute: () =>
        mcpToolResult({
          content: [
            { type: 'text', text: 'Multiple content types test:' },
            { type: 'image', data: PNG, mimeType: 'image/png' },
            {
              type: 'resource',
              resource: {
                uri: 'test://mixed-content-resource',
                mimeType: 'application/json',
                text: '{"test":"data","value":123}',
              },
            },
          ],
        }),
    }),
    tool({
      name: 'test_tool_with_logging',
      description: 'Logs three messages while it runs',
      inputSchema: noArguments,
      execute: async (_input, context) => {
        const exchange = exchangeOf(context);
        await exchange.log('info', 'Tool execution started');
        await pause(50);
        await exchange.log('info', 'Tool processing data');
        await pause(50);
        await exchange.log('info', 'Tool execution completed');
        return 'Tool with logging executed successfully';
      },
    }),
    tool({
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100',
      inputSchema: noArguments,
      execute: async (_input, context) => {
        const exchange = exchangeOf(context);
        await exchange.progress(0, 100);
        await pause(50);
        await exchange.progress(50, 100);
        await pause(50);
        await exchange.progress(100, 100);
        return 'Tool with progress executed successfully';
      },
    }),
    tool({
      name: 'test_error_handling',
      description: 'Always fails',
      inputSchema: noArguments,
      execute: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
    tool({
      name: 'test_sampling',
      description: 'Asks the client for a completion',
      inputSchema: jsonSchema<{ prompt: string }>({
        type: 'object',
        properties: { prompt: { type: 'string' } },
        required: ['prompt'],
      }),
      execute: async ({ prompt }, context) => {
        const result = await exchangeOf(context).createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        });
        const content = result.content as { type: string; text?: string };
        return `LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`;
      },
    }),
    tool({
      name: 'test_elicitation',
      description: 'Asks the user for a name and an email address',
      inputSchema: jsonSchema<{ message: string }>({
        type: 'object',
        properties: { message: { type: 'string' } },
        required: ['message'],
      }),
      execute: async ({ message }, context) => {
        const result = await exchangeOf(context).elicitInput({
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        });
        return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
    }),
    tool({
      name: 'test_elicitation_sep1034_defaults',
      description: 'Elicitation with a default for every primitive type',
      inputSchema: noArguments,
      execute: async (_input, context) => {
        const result = await exchangeOf(context).elicitInput({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'User name', default: 'John Doe' },
              age: { type: 'integer', description: 'User age', default: 30 },
              score: { type: 'number', description: 'User score', default: 95.5 },
              status: {
                type: 'string',
                description: 'User status',
                enum: ['active', 'inactive', 'pending'],
                default: 'active',
              },
              verified: { type: 'boolean', description: 'Verification status', default: true },
            },
            required: [],
          },
        });
        return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
    }),
    tool({
      name: 'test_elicitation_sep1330_enums',
      description: 'Elicitation with the five enum forms',
      inputSchema: noArguments,
      execute: async (_input, context) => {
        const result = await exchangeOf(context).elicitInput({
          message: 'Please choose options',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: {
                type: 'array',
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
            required: [],
          },
        } as Parameters<ReturnType<typeof exchangeOf>['elicitInput']>[0]);
        return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
    }),
    tool({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      inputSchema: jsonSchema<{ name?: string; address?: { street?: string; city?: string } }>({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      }),
      execute: (input) => `Received: ${JSON.stringify(input)}`,
    }),
  ];
}

/** The fixture server: toolloop's McpToolServer with the conformance tools. */
export function conformanceFixtureServer(): McpToolServer {
  return new McpToolServer({
    name: 'toolloop-conformance-fixture',
    version: '1.0.0',
    tools: conformanceTools(),
  });
}
