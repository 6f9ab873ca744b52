import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatModelError } from '../../src/errors/index.js';
import { userMessage } from '../../src/messages/index.js';
import { aggregateChatResponses, type ChatResponse, type Prompt } from '../../src/model/index.js';
import { OpenAiChatModel } from '../../src/openai/index.js';
import type { ToolCallback } from '../../src/tools/tool-callback.js';
import { FixtureHttpServer, sendEvents, sendJson } from './support/fixture-http-server.js';
import { fixtureText, frameChunksAsSse } from './support/provider-fixtures.js';

const DIR = 'openai-chat-completions';
const API_KEY = 'sk-replay-test-key-0123456789';

const weatherTool: ToolCallback = {
  definition: {
    name: 'weather',
    description: 'Weather of a location',
    inputSchema: {
      type: 'object',
      properties: { location: { type: 'string' } },
      required: ['location'],
    },
  },
  metadata: {},
  call: async () => '{"temperature":20}',
};

const prompt: Prompt = {
  messages: [userMessage("What's the weather like in Edinburgh?")],
  options: { toolCallbacks: [weatherTool] },
};

interface Expected {
  file: string;
  framed?: boolean;
  text: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  usage?: ChatResponse['metadata']['usage'];
  id: string;
  model: string;
  reasoningStartsWith?: string;
}

/** Every recorded Chat Completions stream, with what it must assemble to. */
const STREAMS: Expected[] = [
  {
    file: 'c6aa7e397b7123c3501f25df3a05d4daf7e8ad6d61ffa406ab5361fe36a8d5b1.bin.txt',
    text: null,
    toolCalls: [
      {
        id: 'call_c91SqDXlYFuETYv8mUHzz6pp',
        name: 'GetWeatherArgs',
        arguments: '{"city":"Edinburgh","country":"UK","units":"c"}',
      },
    ],
    usage: { promptTokens: 76, completionTokens: 24, totalTokens: 100, reasoningTokens: 0 },
    id: 'chatcmpl-ABfw8AOXnoa2kzy11vVTSjuQhHCQr',
    model: 'gpt-4o-2024-08-06',
  },
  {
    file: 'f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin.txt',
    text: null,
    toolCalls: [
      {
        id: 'call_JMW1whyEaYG438VE1OIflxA2',
        name: 'GetWeatherArgs',
        arguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}',
      },
      {
        id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou',
        name: 'get_stock_price',
        arguments: '{"ticker": "AAPL", "exchange": "NASDAQ"}',
      },
    ],
    usage: { promptTokens: 149, completionTokens: 60, totalTokens: 209, reasoningTokens: 0 },
    id: 'chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63',
    model: 'gpt-4o-2024-08-06',
  },
  {
    file: 'a247c49c5fcd492bfb7a02a3306ad615ed8d8f649888ebfddfbc3ee151f44d46.bin.txt',
    text: null,
    toolCalls: [
      {
        id: 'call_CTf1nWJLqSeRgDqaCG27xZ74',
        name: 'get_weather',
        arguments: '{"city":"San Francisco","state":"CA"}',
      },
    ],
    usage: { promptTokens: 48, completionTokens: 19, totalTokens: 67, reasoningTokens: 0 },
    id: 'chatcmpl-ABfwCgi41eStOcARjZq97ohCEGBPO',
    model: 'gpt-4o-2024-08-06',
  },
  {
    file: '2018feb66ae13fcf5333d61b95849decc68d3f63bd38172889367e1afb1e04f7.bin.txt',
    text: null,
    toolCalls: [
      {
        id: 'call_4XzlGBLtUe9dy3GVNV4jhq7h',
        name: 'get_weather',
        arguments: '{"city":"New York City"}',
      },
    ],
    usage: { promptTokens: 44, completionTokens: 16, totalTokens: 60, reasoningTokens: 0 },
    id: 'chatcmpl-ABfwERreu9s99xXsVuOWtIB2UOx62',
    model: 'gpt-4o-2024-08-06',
  },
  {
    file: 'xai-tool-call.chunks.txt',
    framed: true,
    text: null,
    toolCalls: [
      { id: 'call_79382389', name: 'weather', arguments: '{"location":"San Francisco"}' },
    ],
    usage: {
      promptTokens: 307,
      completionTokens: 26,
      totalTokens: 560,
      cacheReadTokens: 306,
      reasoningTokens: 227,
    },
    id: '7027d986-3c59-a37a-9a5f-50713e01c8a6',
    model: 'grok-3-mini',
    reasoningStartsWith: 'First, the user is asking about the weather',
  },
  {
    file: 'deepseek-tool-call.chunks.txt',
    framed: true,
    text: null,
    toolCalls: [
      {
        id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
      },
    ],
    usage: {
      promptTokens: 339,
      completionTokens: 83,
      totalTokens: 422,
      cacheReadTokens: 320,
      reasoningTokens: 39,
    },
    id: 'cca85624-4056-401f-b220-d77601d1f70d',
    model: 'deepseek-reasoner',
    reasoningStartsWith: 'The user is asking for the weather in San Francisco',
  },
  {
    // A no-argument call in one chunk; usage only in the vendor's x_groq / usage fields.
    file: 'groq-tool-call.chunks.txt',
    framed: true,
    text: null,
    toolCalls: [{ id: 'tk85n1k4m', name: 'weather', arguments: '{}' }],
    usage: { promptTokens: 210, completionTokens: 15, totalTokens: 225 },
    id: 'chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f',
    model: 'llama-3.3-70b-versatile',
  },
  {
    // Continuation deltas carry "id": "" and a trailing delta has empty arguments.
    file: 'alibaba-tool-call.chunks.txt',
    framed: true,
    text: null,
    toolCalls: [
      {
        id: 'call_eee11723464a4b9eb8cee71d',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
      },
    ],
    usage: { promptTokens: 295, completionTokens: 22, totalTokens: 317, cacheReadTokens: 0 },
    id: 'chatcmpl-8e243c57-23b3-9db2-a02e-e3c53929c368',
    model: 'qwen3-max',
  },
  {
    // Text first, then a call whose index starts at 1.
    file: 'anthropic-fallback-tool-call.sse.txt',
    text: 'Reading it.',
    toolCalls: [{ id: 'toolu_sanitized', name: 'read_file', arguments: '{"path": "a.txt"}' }],
    id: 'msg_sanitized',
    model: 'claude-haiku-4-5-20251001',
  },
];

/** The non-streamed bodies (separate recordings of the same scenarios). */
const BODIES: Expected[] = [
  {
    file: 'xai-tool-call.json',
    text: null,
    toolCalls: [
      { id: 'call_46427107', name: 'weather', arguments: '{"location":"San Francisco"}' },
    ],
    usage: {
      promptTokens: 307,
      completionTokens: 26,
      totalTokens: 588,
      cacheReadTokens: 244,
      reasoningTokens: 255,
    },
    id: 'acfa24c3-b556-0f2c-731e-64fb836d544b',
    model: 'grok-3-mini',
    reasoningStartsWith: 'First, the user is asking about the weather',
  },
  {
    file: 'deepseek-tool-call.json',
    text: null,
    toolCalls: [
      {
        id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
      },
    ],
    usage: {
      promptTokens: 339,
      completionTokens: 92,
      totalTokens: 431,
      cacheReadTokens: 320,
      reasoningTokens: 48,
    },
    id: '7a630f5b-b7e6-4878-82f8-d77db164d42b',
    model: 'deepseek-reasoner',
    reasoningStartsWith: 'The user is asking for the weather in San Francisco',
  },
  {
    file: 'groq-tool-call.json',
    text: null,
    toolCalls: [{ id: 'ax9fskhev', name: 'weather', arguments: '{}' }],
    usage: { promptTokens: 218, completionTokens: 15, totalTokens: 233 },
    id: 'chatcmpl-1fd017fc-60b8-44eb-a736-375b8e1bc3e7',
    model: 'llama-3.3-70b-versatile',
  },
  {
    file: 'alibaba-tool-call.json',
    text: null,
    toolCalls: [
      {
        id: 'call_962bfd2ab8f54b89a1161356',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
      },
    ],
    usage: { promptTokens: 295, completionTokens: 22, totalTokens: 317, cacheReadTokens: 0 },
    id: 'chatcmpl-bc7fc58d-c03f-9c9f-af73-91bea326c99f',
    model: 'qwen3-max',
  },
];

function expectAssembled(response: ChatResponse, expected: Expected): void {
  expect(response.results).toHaveLength(1);
  const generation = response.results[0]!;
  expect(generation.metadata.finishReason).toBe('tool_calls');
  expect(generation.output.text).toBe(expected.text);
  expect(generation.output.toolCalls).toEqual(expected.toolCalls);
  for (const call of generation.output.toolCalls)
    expect(() => JSON.parse(call.arguments)).not.toThrow();
  expect(response.metadata.id).toBe(expected.id);
  expect(response.metadata.model).toBe(expected.model);
  expect(response.metadata.usage).toEqual(expected.usage);
  const reasoning = generation.output.metadata?.reasoningContent;
  if (expected.reasoningStartsWith) {
    expect(String(reasoning).startsWith(expected.reasoningStartsWith)).toBe(true);
  } else {
    expect(reasoning).toBeUndefined();
  }
}

describe('OpenAI Chat Completions replay over HTTP', () => {
  let server: FixtureHttpServer;
  let model: OpenAiChatModel;

  beforeEach(async () => {
    server = new FixtureHttpServer();
    await server.start();
    model = new OpenAiChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: API_KEY,
      model: 'gpt-4o',
    });
  });
  afterEach(() => server.stop());

  it.each(STREAMS)(
    'streams $file into whole tool calls, usage and finish reason',
    async (expected) => {
      const text = fixtureText(`${DIR}/${expected.file}`);
      server.reply(sendEvents(expected.framed ? frameChunksAsSse(text, 'openai') : text, 7));
      const chunks: ChatResponse[] = [];
      for await (const chunk of model.stream(prompt)) chunks.push(chunk);
      expectAssembled(aggregateChatResponses(chunks), expected);
      // Each call appears whole in exactly one chunk: the one that ends it.
      const callChunks = chunks.filter((chunk) => chunk.results[0]?.output.toolCalls.length);
      expect(callChunks).toHaveLength(1);
      expect(callChunks[0]?.results[0]?.metadata.finishReason).toBe('tool_calls');
      const request = server.requests[0]!;
      expect(request.url).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.body).toMatchObject({
        model: 'gpt-4o',
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: "What's the weather like in Edinburgh?" }],
        tools: [
          {
            type: 'function',
            function: { name: 'weather', parameters: weatherTool.definition.inputSchema },
          },
        ],
      });
    },
  );

  it('streams text deltas as they arrive, before the tool call', async () => {
    server.reply(sendEvents(fixtureText(`${DIR}/anthropic-fallback-tool-call.sse.txt`)));
    const texts: (string | null)[] = [];
    for await (const chunk of model.stream(prompt))
      texts.push(chunk.results[0]?.output.text ?? null);
    expect(texts.filter((text) => text !== null)).toEqual(['Reading', ' it.']);
  });

  it.each(BODIES)('parses the non-streamed body $file', async (expected) => {
    server.reply(sendJson(fixtureText(`${DIR}/${expected.file}`)));
    const response = await model.call(prompt);
    expectAssembled(response, expected);
    expect(server.requests[0]?.body).not.toHaveProperty('stream');
  });

  it('turns the recorded 400 error body into a typed, non-retryable ChatModelError', async () => {
    server.reply(sendJson(fixtureText(`${DIR}/reasoning-model-legacy-parameter-error.json`), 400));
    const error = await model.call(prompt).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ provider: 'openai', status: 400, retryable: false });
    expect((error as Error).message).toContain('max_completion_tokens');
    expect((error as Error).message).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1);
  });
});
