import Anthropic from '@anthropic-ai/sdk';
import { type GenerateContentConfig, GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { ChatClient, InvalidArgumentError, tool, toolResult } from '../../src/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { FixtureHttpServer, sendJson } from './support/fixture-http-server.js';

// A screenshot tool's image, end to end: the loop runs the tool, and the next request to the
// provider (a real HTTP request to a local server) carries the image the way the API takes it.
// Each body is then sent again by the provider's official SDK to the same server: the SDK must
// send the same JSON (its request types accept it, and it changes nothing).

// A real 1x1 PNG.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const screenshot = tool({
  name: 'screenshot',
  description: 'Takes a screenshot of a web page',
  inputSchema: z.object({ url: z.string() }),
  execute: ({ url }) =>
    toolResult([
      `Screenshot of ${url}`,
      { type: 'image', mediaType: 'image/png', data: Buffer.from(PNG_BASE64, 'base64') },
    ]),
});

let server: FixtureHttpServer;
beforeEach(async () => {
  server = new FixtureHttpServer();
  await server.start();
});
afterEach(() => server.stop());

describe('a screenshot tool on the wire', () => {
  it('reaches an Anthropic model as an image block inside the tool_result', async () => {
    const toolUse = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [
        { type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: { url: 'https://a.test' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 10, output_tokens: 5 },
    };
    const answer = {
      ...toolUse,
      id: 'msg_2',
      content: [{ type: 'text', text: 'A red pixel.' }],
      stop_reason: 'end_turn',
    };
    server.reply(sendJson(toolUse), sendJson(answer), sendJson(answer));
    const model = new AnthropicChatModel({
      baseUrl: server.baseUrl,
      apiKey: 'sk-ant-wire-000',
      env: {},
      model: 'claude-test',
    });
    const text = await ChatClient.create(model)
      .prompt('What does https://a.test look like?')
      .tools(screenshot)
      .call()
      .content();
    expect(text).toBe('A red pixel.');
    const second = server.requests[1]?.body as Anthropic.MessageCreateParams;
    const results = second.messages.at(-1);
    expect(results).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: 'Screenshot of https://a.test' },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
            },
          ],
        },
      ],
    });
    const sdk = new Anthropic({
      apiKey: 'sk-ant-wire-000',
      baseURL: server.baseUrl,
      maxRetries: 0,
    });
    await sdk.messages.create(second as Anthropic.MessageCreateParamsNonStreaming);
    expect(server.requests[2]?.body).toEqual(second);
  });

  it('reaches an OpenAI Chat Completions model as a user message after the tool message', async () => {
    const toolCalls = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'screenshot', arguments: '{"url":"https://a.test"}' },
              },
            ],
          },
        },
      ],
    };
    const answer = {
      ...toolCalls,
      id: 'chatcmpl-2',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: 'A red pixel.' },
        },
      ],
    };
    server.reply(sendJson(toolCalls), sendJson(answer), sendJson(answer));
    const model = new OpenAiChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: 'sk-wire-000',
      env: {},
      model: 'gpt-test',
    });
    const text = await ChatClient.create(model)
      .prompt('What does https://a.test look like?')
      .tools(screenshot)
      .call()
      .content();
    expect(text).toBe('A red pixel.');
    const second = server.requests[1]?.body as OpenAI.ChatCompletionCreateParams;
    expect(second.messages.slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content:
          'Screenshot of https://a.test\n[image image/png, 70 B] (sent in the user message after the tool results)',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: "Content returned by tool 'screenshot' (call call_1):" },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
        ],
      },
    ]);
    const sdk = new OpenAI({
      apiKey: 'sk-wire-000',
      baseURL: `${server.baseUrl}/v1`,
      maxRetries: 0,
    });
    await sdk.chat.completions.create(second as OpenAI.ChatCompletionCreateParamsNonStreaming);
    expect(server.requests[2]?.body).toEqual(second);
  });

  it('is refused with a clear error when the OpenAI model is told not to send media', async () => {
    const toolCalls = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'screenshot', arguments: '{"url":"https://a.test"}' },
              },
            ],
          },
        },
      ],
    };
    server.reply(sendJson(toolCalls));
    const model = new OpenAiChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: 'sk-wire-000',
      env: {},
      toolResultMedia: 'error',
    });
    const failure = ChatClient.create(model).prompt('Look').tools(screenshot).call().content();
    await expect(failure).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(failure).rejects.toThrow(
      "the result of tool 'screenshot' holds [image image/png, 70 B]; Chat Completions takes only text in a tool message, and toolResultMedia is 'error'",
    );
    // The request that would have carried the image was never sent.
    expect(server.requests).toHaveLength(1);
  });

  it('reaches the Responses API as an input_image in the function_call_output', async () => {
    const call = {
      id: 'resp_1',
      object: 'response',
      status: 'completed',
      output: [
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'screenshot',
          arguments: '{"url":"https://a.test"}',
          status: 'completed',
        },
      ],
    };
    const answer = {
      id: 'resp_2',
      object: 'response',
      status: 'completed',
      output: [
        {
          type: 'message',
          id: 'msg_2',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'A red pixel.', annotations: [] }],
        },
      ],
    };
    server.reply(sendJson(call), sendJson(answer), sendJson(answer));
    const model = new OpenAiResponsesChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: 'sk-wire-000',
      env: {},
      model: 'gpt-5-mini',
    });
    const text = await ChatClient.create(model).prompt('Look').tools(screenshot).call().content();
    expect(text).toBe('A red pixel.');
    const second = server.requests[1]?.body as OpenAI.Responses.ResponseCreateParamsNonStreaming;
    const input = second.input as OpenAI.Responses.ResponseInputItem[];
    expect(input.at(-1)).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: 'Screenshot of https://a.test' },
        { type: 'input_image', image_url: `data:image/png;base64,${PNG_BASE64}`, detail: 'auto' },
      ],
    });
    const sdk = new OpenAI({
      apiKey: 'sk-wire-000',
      baseURL: `${server.baseUrl}/v1`,
      maxRetries: 0,
    });
    await sdk.responses.create(second);
    expect(server.requests[2]?.body).toEqual(second);
  });

  it('reaches Gemini as inline data in the function response parts', async () => {
    const call = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'screenshot', args: { url: 'https://a.test' } } }],
          },
          finishReason: 'STOP',
        },
      ],
    };
    const answer = {
      candidates: [
        { content: { role: 'model', parts: [{ text: 'A red pixel.' }] }, finishReason: 'STOP' },
      ],
    };
    server.reply(sendJson(call), sendJson(answer), sendJson(answer));
    const model = new GoogleChatModel({
      baseUrl: server.baseUrl,
      apiKey: 'AIza-wire-000000',
      env: {},
      model: 'gemini-3-flash-preview',
    });
    const text = await ChatClient.create(model).prompt('Look').tools(screenshot).call().content();
    expect(text).toBe('A red pixel.');
    const second = server.requests[1]?.body as {
      contents: { role: string; parts: Record<string, unknown>[] }[];
      [key: string]: unknown;
    };
    expect(second.contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'screenshot',
            response: { output: 'Screenshot of https://a.test\n[image image/png, 70 B]' },
            parts: [{ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }],
          },
        },
      ],
    });
    const sdk = new GoogleGenAI({
      apiKey: 'AIza-wire-000000',
      httpOptions: { baseUrl: server.baseUrl, apiVersion: 'v1beta' },
    });
    const config = { tools: second.tools, toolConfig: second.toolConfig } as GenerateContentConfig;
    for (const key of Object.keys(config) as (keyof GenerateContentConfig)[]) {
      if (config[key] === undefined) delete config[key];
    }
    await sdk.models.generateContent({
      model: 'gemini-3-flash-preview',
      contents: second.contents as never,
      config,
    });
    // The SDK adds an empty generationConfig; the rest is the same JSON.
    const { generationConfig, ...theirs } = server.requests[2]!.body as Record<string, unknown>;
    expect(generationConfig).toEqual({});
    expect(theirs).toEqual(second);
  });
});
