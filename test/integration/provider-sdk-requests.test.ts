import { type GenerateContentConfig, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoogleChatModel } from '../../src/google/index.js';
import type { Message, Prompt } from '../../src/index.js';
import { OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { FixtureHttpServer, sendEvents, sendJson } from './support/fixture-http-server.js';

// The requests the adapters build, checked at run time against the official SDKs: each SDK is
// handed the same request and sends it to the same local server, and the two bodies must be the
// same JSON. (The type-level check against the SDKs' published types is in the unit tests.)

const weather = {
  definition: {
    name: 'weather',
    description: 'The weather in a city',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer' } },
      required: ['city'],
    },
  },
  metadata: {},
  call: async () => '',
};

const conversation: Message[] = [
  { role: 'system', text: 'Be brief.' },
  {
    role: 'user',
    text: 'Weather in Paris?',
    media: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
  },
  {
    role: 'assistant',
    text: 'Checking.',
    toolCalls: [
      {
        id: 'call_1',
        name: 'weather',
        arguments: '{"city":"Paris"}',
        metadata: { thoughtSignature: 'SIG-1', itemId: 'fc_1' },
      },
    ],
    metadata: {
      reasoningContent: 'Look it up.',
      geminiParts: [
        { kind: 'thought', length: 11 },
        { kind: 'text', length: 9, thoughtSignature: 'SIG-0' },
        { kind: 'functionCall' },
      ],
      responseItems: [
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA-x' },
        { type: 'message', id: 'msg_1', textLength: 9 },
        { type: 'function_call', call_id: 'call_1' },
      ],
    },
  },
  { role: 'tool', responses: [{ id: 'call_1', name: 'weather', responseData: '"sunny"' }] },
];

const prompts: Prompt[] = [
  { messages: [{ role: 'user', text: 'Hi' }], options: {} },
  {
    messages: conversation,
    options: { toolCallbacks: [weather], toolChoice: 'required', temperature: 0.5, maxTokens: 200 },
  },
  {
    messages: conversation,
    options: {
      toolCallbacks: [weather],
      toolChoice: { type: 'tool', name: 'weather' },
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
    },
  },
];

let server: FixtureHttpServer;
beforeEach(async () => {
  server = new FixtureHttpServer();
  await server.start();
});
afterEach(() => server.stop());

describe('requests the official SDKs send the same way', () => {
  it.each(prompts.map((prompt, index) => [index, prompt] as const))(
    'Gemini request %i: @google/genai sends the same body to the same URL',
    async (_index, prompt) => {
      const answer = {
        candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
      };
      server.reply(sendJson(answer), sendJson(answer));
      const model = new GoogleChatModel({
        baseUrl: server.baseUrl,
        apiKey: 'AIza-sdk-check-000000',
        model: 'gemini-3-flash-preview',
        thinkingLevel: 'low',
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
      });
      await model.call(prompt);
      const ours = server.requests[0]!;
      const body = ours.body as Record<string, unknown>;
      const sdk = new GoogleGenAI({
        apiKey: 'AIza-sdk-check-000000',
        httpOptions: { baseUrl: server.baseUrl, apiVersion: 'v1beta' },
      });
      const config = {
        ...(body.generationConfig as object),
        systemInstruction: body.systemInstruction,
        tools: body.tools,
        toolConfig: body.toolConfig,
        safetySettings: body.safetySettings,
      } as GenerateContentConfig;
      for (const key of Object.keys(config) as (keyof GenerateContentConfig)[]) {
        if (config[key] === undefined) delete config[key];
      }
      await sdk.models.generateContent({
        model: 'gemini-3-flash-preview',
        contents: body.contents as never,
        config,
      });
      const theirs = server.requests[1]!;
      expect(theirs.url).toBe(ours.url);
      expect(theirs.headers['x-goog-api-key']).toBe(ours.headers['x-goog-api-key']);
      expect(theirs.body).toEqual(ours.body);
    },
  );

  it.each(prompts.map((prompt, index) => [index, prompt] as const))(
    'Responses request %i: the openai SDK sends the same body to the same URL',
    async (_index, prompt) => {
      const answer = {
        id: 'resp_1',
        object: 'response',
        status: 'completed',
        output: [
          {
            type: 'message',
            id: 'msg_2',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'ok', annotations: [] }],
          },
        ],
      };
      server.reply(sendJson(answer), sendJson(answer));
      const model = new OpenAiResponsesChatModel({
        baseUrl: `${server.baseUrl}/v1`,
        apiKey: 'sk-sdk-check-000000',
        model: 'gpt-5-mini',
        reasoningEffort: 'low',
      });
      await model.call(prompt);
      const ours = server.requests[0]!;
      const client = new OpenAI({
        apiKey: 'sk-sdk-check-000000',
        baseURL: `${server.baseUrl}/v1`,
        maxRetries: 0,
      });
      await client.responses.create(ours.body as OpenAI.Responses.ResponseCreateParamsNonStreaming);
      const theirs = server.requests[1]!;
      expect(theirs.url).toBe(ours.url);
      expect(theirs.body).toEqual(ours.body);
    },
  );

  it('the openai SDK reads our streamed request back as a stream (stream: true)', async () => {
    const events = [
      { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } },
      { type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [] } },
    ]
      .map((event) => `data: ${JSON.stringify(event)}\n\n`)
      .join('');
    server.reply(sendEvents(events), sendEvents(events));
    const model = new OpenAiResponsesChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: 'sk-sdk-check-000000',
    });
    for await (const _chunk of model.stream(prompts[1]!));
    const client = new OpenAI({
      apiKey: 'sk-sdk-check-000000',
      baseURL: `${server.baseUrl}/v1`,
      maxRetries: 0,
    });
    const stream = await client.responses.create(
      server.requests[0]!.body as OpenAI.Responses.ResponseCreateParamsStreaming,
    );
    for await (const _event of stream);
    expect(server.requests[1]!.body).toEqual(server.requests[0]!.body);
  });
});
