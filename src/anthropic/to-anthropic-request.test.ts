import type Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { transcriptArbitrary } from '../../test/support/transcript-arbitrary.js';
import type { Message } from '../messages/index.js';
import { AnthropicChatModel } from './anthropic-chat-model.js';
import type { AnthropicContentBlockParam, AnthropicMessagesRequest } from './anthropic-wire.js';
import { toAnthropicMessages } from './to-anthropic-request.js';

const weatherTool = {
  definition: {
    name: 'weather',
    description: 'Weather of a city',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
    },
  },
  metadata: {},
  call: async () => '',
};

function blocks(content: string | AnthropicContentBlockParam[]): AnthropicContentBlockParam[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

describe('toAnthropicMessages', () => {
  it('builds only requests the official SDK types accept (checked by tsc)', () => {
    expectTypeOf<AnthropicMessagesRequest>().toExtend<Anthropic.MessageCreateParams>();
    expectTypeOf<AnthropicContentBlockParam>().toExtend<Anthropic.ContentBlockParam>();
    expectTypeOf<AnthropicMessagesRequest['tools']>().toExtend<
      Anthropic.MessageCreateParams['tools']
    >();
  });

  it('alternates roles, answers every tool_use in the next user message, ids one to one (property)', () => {
    fc.assert(
      fc.property(transcriptArbitrary, (messages: Message[]) => {
        const { system, messages: converted } = toAnthropicMessages(messages);
        const systemInput = messages.find((message) => message.role === 'system');
        expect(system).toBe(systemInput?.text);
        expect(converted[0]?.role).toBe('user');
        converted.forEach((message, index) => {
          if (index > 0) expect(message.role).not.toBe(converted[index - 1]?.role);
          const content = blocks(message.content);
          expect(content.length).toBeGreaterThan(0);
          for (const block of content) {
            if (block.type === 'text') expect(block.text).not.toBe('');
            if (block.type === 'tool_use') expect(typeof block.input).toBe('object');
          }
          if (message.role === 'user') {
            // tool_result blocks come first in their message.
            const firstOther = content.findIndex((block) => block.type !== 'tool_result');
            const lastResult = content.map((block) => block.type).lastIndexOf('tool_result');
            if (firstOther !== -1 && lastResult !== -1) expect(lastResult).toBeLessThan(firstOther);
          }
          const uses = content.filter((block) => block.type === 'tool_use');
          if (uses.length > 0) {
            const answers = blocks(converted[index + 1]?.content ?? []).filter(
              (block) => block.type === 'tool_result',
            );
            expect(answers.map((block) => block.tool_use_id)).toEqual(
              uses.map((block) => block.id),
            );
          }
        });
        const inputCalls = messages.flatMap((message) =>
          message.role === 'assistant' ? message.toolCalls : [],
        );
        const inputResponses = messages.flatMap((message) =>
          message.role === 'tool' ? message.responses : [],
        );
        const all = converted.flatMap((message) => blocks(message.content));
        const uses = all.filter((block) => block.type === 'tool_use');
        const results = all.filter((block) => block.type === 'tool_result');
        expect(uses.map((block) => block.id)).toEqual(inputCalls.map((call) => call.id));
        expect(uses.map((block) => block.name)).toEqual(inputCalls.map((call) => call.name));
        expect(
          results.map((block) => [block.tool_use_id, block.content, block.is_error ?? false]),
        ).toEqual(
          inputResponses.map((response) => [
            response.id,
            response.responseData,
            response.isError ?? false,
          ]),
        );
        uses.forEach((block, index) => {
          const original = inputCalls[index]!.arguments;
          let expected: unknown = {};
          try {
            const parsed: unknown = JSON.parse(original);
            if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
              expected = parsed;
          } catch {
            expected = {};
          }
          expect(block.input).toEqual(expected);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('puts the thinking blocks of an assistant message first, then its text and calls', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', text: 'Go' },
      {
        role: 'assistant',
        text: 'Calling',
        toolCalls: [{ id: 't1', name: 'weather', arguments: '{"city":"Paris"}' }],
        metadata: {
          thinking: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }, { type: 'bogus' }],
        },
      },
      { role: 'tool', responses: [{ id: 't1', name: 'weather', responseData: 'Sunny' }] },
      { role: 'user', text: 'And tomorrow?' },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'text', text: 'Calling' },
          { type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'Sunny' },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
    ]);
  });

  it('converts media to image and document blocks', () => {
    const { messages } = toAnthropicMessages([
      {
        role: 'user',
        text: 'Look',
        media: [
          { mimeType: 'image/png', data: 'AAAA' },
          { mimeType: 'image/jpeg', data: 'https://example.com/a.jpg' },
          { mimeType: 'application/pdf', data: 'data:application/pdf;base64,JVBE' },
        ],
      },
    ]);
    expect(messages[0]?.content).toEqual([
      { type: 'text', text: 'Look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
    ]);
  });
});

describe('AnthropicChatModel request bodies', () => {
  it('extracts the system prompt, defaults max_tokens and maps tool choice, parallelism and extras', () => {
    const model = new AnthropicChatModel({ apiKey: 'k', model: 'claude-test' });
    const request = model.request(
      {
        messages: [
          { role: 'system', text: 'Be brief.' },
          { role: 'user', text: 'Hi' },
        ],
        options: {
          toolCallbacks: [weatherTool],
          toolChoice: 'required',
          parallelToolCalls: false,
          temperature: 0,
          extraBody: { top_k: 5 },
          responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
          // A model never receives the context; given by mistake, it is not sent.
          // @ts-expect-error toolContext is not a model option
          toolContext: { tenant: 'secret-tenant' },
        },
      },
      true,
    ) satisfies Anthropic.MessageCreateParams;
    expect(request).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [
        {
          name: 'weather',
          description: 'Weather of a city',
          input_schema: weatherTool.definition.inputSchema,
        },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      temperature: 0,
      top_k: 5,
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
      stream: true,
    });
    expect(JSON.stringify(request)).not.toContain('secret-tenant');
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    [
      { type: 'tool', name: 'weather' },
      { type: 'tool', name: 'weather' },
    ],
  ] as const)('maps toolChoice %j', (choice, expected) => {
    const model = new AnthropicChatModel({ apiKey: 'k' });
    const request = model.request(
      { messages: [], options: { toolCallbacks: [weatherTool], toolChoice: choice } },
      false,
    );
    expect(request.tool_choice).toEqual(expected);
  });

  it('compiles strict tools and reports the adaptation once', () => {
    const reports: unknown[] = [];
    const model = new AnthropicChatModel({
      apiKey: 'k',
      strictTools: true,
      onSchemaAdaptation: (adaptation) => reports.push(adaptation),
    });
    const { tools, adaptations } = model.compileTools([weatherTool]);
    expect(tools[0]).toEqual({
      name: 'weather',
      description: 'Weather of a city',
      strict: true,
      input_schema: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' } },
        required: ['city'],
        additionalProperties: false,
      },
    });
    expect(adaptations[0]?.changes).toEqual([
      'removed unsupported keyword "minLength" at /properties/city',
      'removed unsupported keyword "minimum" at /properties/days',
      'additionalProperties set to false at /',
    ]);
    model.request({ messages: [], options: { toolCallbacks: [weatherTool] } }, false);
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
    const sent = toAnthropicMessages(messages).messages;
    expect(sent[1]?.content).toEqual([
      { type: 'tool_use', id: 'c1', name: 'delete_files', input: { path: 5 } },
    ]);
  });
});
