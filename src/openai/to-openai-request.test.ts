import fc from 'fast-check';
import type OpenAI from 'openai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { transcriptArbitrary } from '../../test/support/transcript-arbitrary.js';
import type { Message } from '../messages/index.js';
import { OpenAiChatModel } from './openai-chat-model.js';
import type { OpenAiChatRequest } from './openai-wire.js';
import { toOpenAiMessages } from './to-openai-request.js';

const weatherTool = {
  definition: {
    name: 'weather',
    description: 'Weather of a city',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
    },
  },
  metadata: {},
  call: async () => '',
};

/** Runtime shape checks mirroring the SDK's message param types. */
function checkMessageShape(message: OpenAI.ChatCompletionMessageParam): void {
  switch (message.role) {
    case 'system':
      expect(typeof message.content).toBe('string');
      break;
    case 'user':
      if (typeof message.content !== 'string') {
        for (const part of message.content)
          expect(['text', 'image_url', 'input_audio', 'file']).toContain(part.type);
      }
      break;
    case 'assistant':
      expect(message.content === null || typeof message.content === 'string').toBe(true);
      for (const call of message.tool_calls ?? []) {
        expect(call.type).toBe('function');
        if (call.type === 'function') expect(typeof call.function.arguments).toBe('string');
      }
      break;
    case 'tool':
      expect(typeof message.tool_call_id).toBe('string');
      expect(typeof message.content).toBe('string');
      break;
    default:
      throw new Error(`unexpected role ${message.role}`);
  }
}

describe('toOpenAiMessages', () => {
  it('builds only requests the official SDK types accept (checked by tsc)', () => {
    expectTypeOf<OpenAiChatRequest>().toExtend<OpenAI.ChatCompletionCreateParams>();
    expectTypeOf<
      OpenAiChatRequest['messages'][number]
    >().toExtend<OpenAI.ChatCompletionMessageParam>();
    expectTypeOf<
      NonNullable<OpenAiChatRequest['tools']>[number]
    >().toExtend<OpenAI.ChatCompletionTool>();
  });

  it('keeps every message, every tool call id one to one, and answers each call right after it (property)', () => {
    fc.assert(
      fc.property(transcriptArbitrary, (messages: Message[]) => {
        const converted = toOpenAiMessages(messages);
        for (const message of converted) checkMessageShape(message);
        const inputCalls = messages.flatMap((message) =>
          message.role === 'assistant' ? message.toolCalls : [],
        );
        const inputResponses = messages.flatMap((message) =>
          message.role === 'tool' ? message.responses : [],
        );
        const sentCalls = converted.flatMap((message) =>
          message.role === 'assistant' ? (message.tool_calls ?? []) : [],
        );
        const sentResults = converted.filter((message) => message.role === 'tool');
        expect(sentCalls.map((call) => call.id)).toEqual(inputCalls.map((call) => call.id));
        expect(sentResults.map((message) => message.tool_call_id)).toEqual(
          inputResponses.map((response) => response.id),
        );
        expect(sentResults.map((message) => message.content)).toEqual(
          inputResponses.map((response) => response.responseData),
        );
        // Each assistant message with calls is followed by exactly its results, in call order.
        converted.forEach((message, index) => {
          if (message.role !== 'assistant' || !message.tool_calls) return;
          const following = converted.slice(index + 1, index + 1 + message.tool_calls.length);
          expect(
            following.map((next) => (next.role === 'tool' ? next.tool_call_id : null)),
          ).toEqual(message.tool_calls.map((call) => call.id));
        });
        // Arguments are never sent empty; otherwise they are sent exactly as the model wrote them.
        sentCalls.forEach((call, index) => {
          const original = inputCalls[index]!.arguments;
          expect(call.function.arguments).toBe(original === '' ? '{}' : original);
        });
        expect(converted.filter((message) => message.role !== 'tool')).toHaveLength(
          messages.filter((message) => message.role !== 'tool').length,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('converts media to image, file parts and keeps the text', () => {
    const converted = toOpenAiMessages([
      {
        role: 'user',
        text: 'Look',
        media: [
          { mimeType: 'image/png', data: 'AAAA' },
          { mimeType: 'image/jpeg', data: 'https://example.com/a.jpg' },
          { mimeType: 'application/pdf', data: 'JVBE' },
          { mimeType: 'audio/wav', data: 'UklG' },
        ],
      },
    ]);
    expect(converted).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE' } },
          { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
        ],
      },
    ]);
  });
});

describe('OpenAiChatModel request bodies', () => {
  const model = new OpenAiChatModel({ apiKey: 'k', model: 'gpt-test', temperature: 0.2 });

  it('maps the options: tools, tool choice, parallel calls, limits, response format and extras', () => {
    const request = model.request(
      {
        messages: [{ role: 'user', text: 'Hi' }],
        options: {
          toolCallbacks: [weatherTool],
          toolChoice: { type: 'tool', name: 'weather' },
          parallelToolCalls: false,
          maxTokens: 100,
          responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
          extraBody: { reasoning_effort: 'low', seed: 7 },
          // A model never receives the context; given by mistake, it is not sent.
          // @ts-expect-error toolContext is not a model option
          toolContext: { tenant: 'secret-tenant' },
        },
      },
      false,
    ) satisfies OpenAI.ChatCompletionCreateParams;
    expect(request).toEqual({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Weather of a city',
            parameters: weatherTool.definition.inputSchema,
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      parallel_tool_calls: false,
      temperature: 0.2,
      max_completion_tokens: 100,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object' } },
      },
      reasoning_effort: 'low',
      seed: 7,
    });
    expect(JSON.stringify(request)).not.toContain('secret-tenant');
  });

  it('sends reasoning_content back only when asked (DeepSeek thinking mode)', () => {
    const messages = [
      { role: 'user' as const, text: 'Hi' },
      {
        role: 'assistant' as const,
        text: null,
        toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' }],
        metadata: { reasoningContent: 'The user wants the weather.' },
      },
      { role: 'tool' as const, responses: [{ id: 'c1', name: 'weather', responseData: 'Sunny' }] },
    ];
    const plain = new OpenAiChatModel({ apiKey: 'k' }).request({ messages, options: {} }, false);
    expect(plain.messages[1]).not.toHaveProperty('reasoning_content');
    const deepseek = new OpenAiChatModel({ apiKey: 'k', sendReasoningContent: true }).request(
      { messages, options: {} },
      false,
    );
    expect(deepseek.messages[1]).toMatchObject({
      role: 'assistant',
      reasoning_content: 'The user wants the weather.',
    });
  });

  it('uses max_tokens for compatible servers and asks for stream usage', () => {
    const local = new OpenAiChatModel({
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3',
      maxTokens: 50,
    });
    const request = local.request(
      { messages: [{ role: 'user', text: 'Hi' }], options: { toolChoice: 'required' } },
      true,
    );
    expect(request).toEqual({
      model: 'llama3',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 50,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends strict tools with compiled schemas and reports the adaptation once, at registration', () => {
    const reports: unknown[] = [];
    const strict = new OpenAiChatModel({
      apiKey: 'k',
      strictTools: true,
      onSchemaAdaptation: (adaptation) => reports.push(adaptation),
    });
    const compiled = strict.compileTools([weatherTool]);
    expect(compiled.tools[0]?.function).toEqual({
      name: 'weather',
      description: 'Weather of a city',
      strict: true,
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: ['integer', 'null'], minimum: 1 } },
        required: ['city', 'days'],
        additionalProperties: false,
      },
    });
    expect(compiled.adaptations).toEqual([
      {
        toolName: 'weather',
        provider: 'openai',
        strict: true,
        changes: [
          'additionalProperties set to false at /',
          'optional property made required and nullable at /properties/days',
        ],
      },
    ]);
    strict.request({ messages: [], options: { toolCallbacks: [weatherTool] } }, false);
    strict.request({ messages: [], options: { toolCallbacks: [weatherTool] } }, true);
    // A source that rebuilds the same definition per request (MCP listings) is reported once too.
    const rebuilt = { ...weatherTool, definition: structuredClone(weatherTool.definition) };
    strict.request({ messages: [], options: { toolCallbacks: [rebuilt] } }, false);
    expect(reports).toHaveLength(1);
  });

  it('sends arguments a server gave as an object (a refused call) back as the API expects', () => {
    const messages: Message[] = [
      { role: 'user', text: 'Clean up' },
      {
        role: 'assistant',
        text: null,
        toolCalls: [
          { id: 'c1', name: 'delete_files', arguments: { path: 5 } as unknown as string },
        ],
      },
      {
        role: 'tool',
        responses: [
          {
            id: 'c1',
            name: 'delete_files',
            responseData: 'arguments must be JSON text',
            isError: true,
          },
        ],
      },
    ];
    const sent = toOpenAiMessages(messages);
    expect(sent[1]).toMatchObject({
      tool_calls: [{ id: 'c1', function: { arguments: '{"path":5}' } }],
    });
  });
});
