import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userMessage } from '../../src/messages/index.js';
import { aggregateChatResponses, type ChatResponse } from '../../src/model/index.js';
import { OpenAiChatModel, type SchemaAdaptation } from '../../src/openai/index.js';
import type { ToolCallback } from '../../src/tools/tool-callback.js';
import { FixtureHttpServer, sendEvents, sendJson } from './support/fixture-http-server.js';

const weather: ToolCallback = {
  definition: {
    name: 'weather',
    description: 'Weather',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
      required: ['city'],
    },
  },
  metadata: {},
  call: async () => '',
};

describe('OpenAI strict tools over HTTP', () => {
  let server: FixtureHttpServer;
  beforeEach(async () => {
    server = new FixtureHttpServer();
    await server.start();
  });
  afterEach(() => server.stop());

  it('sends the compiled schema, reports it once, and hands the tool arguments its own schema accepts', async () => {
    const adaptations: SchemaAdaptation[] = [];
    const model = new OpenAiChatModel({
      baseUrl: server.baseUrl,
      strictTools: true,
      onSchemaAdaptation: (adaptation) => adaptations.push(adaptation),
    });
    const args = '{"city":"Oslo","unit":null}';
    server.reply(
      sendJson({
        id: 'r1',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'c1', type: 'function', function: { name: 'weather', arguments: args } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      }),
      sendEvents(
        [
          {
            id: 'r2',
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [
                    { index: 0, id: 'c2', function: { name: 'weather', arguments: args } },
                  ],
                },
              },
            ],
          },
          { id: 'r2', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        ]
          .map((payload) => `data: ${JSON.stringify(payload)}\n\n`)
          .join(''),
      ),
    );
    const prompt = {
      messages: [userMessage('Weather in Oslo?')],
      options: { toolCallbacks: [weather] },
    };
    const called = await model.call(prompt);
    expect(called.results[0]?.output.toolCalls).toEqual([
      { id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' },
    ]);
    const chunks: ChatResponse[] = [];
    for await (const chunk of model.stream(prompt)) chunks.push(chunk);
    expect(aggregateChatResponses(chunks).results[0]?.output.toolCalls).toEqual([
      { id: 'c2', name: 'weather', arguments: '{"city":"Oslo"}' },
    ]);
    expect(server.requests[0]?.body).toMatchObject({
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            strict: true,
            parameters: {
              type: 'object',
              properties: {
                city: { type: 'string' },
                unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
              },
              required: ['city', 'unit'],
              additionalProperties: false,
            },
          },
        },
      ],
    });
    expect(adaptations).toHaveLength(1);
    expect(adaptations[0]).toMatchObject({ toolName: 'weather', provider: 'openai', strict: true });
  });
});
