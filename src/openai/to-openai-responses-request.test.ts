import fc from 'fast-check';
import type OpenAI from 'openai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { transcriptArbitrary } from '../../test/support/transcript-arbitrary.js';
import { InvalidArgumentError } from '../errors/index.js';
import type { AssistantMessage, Message } from '../messages/index.js';
import { OpenAiResponsesChatModel } from './openai-responses-chat-model.js';
import type { ResponsesInputItem, ResponsesRequest } from './openai-responses-wire.js';
import { toOpenAiResponsesInput } from './to-openai-responses-request.js';

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

const model = (options: ConstructorParameters<typeof OpenAiResponsesChatModel>[0] = {}) =>
  new OpenAiResponsesChatModel({ apiKey: 'sk-test-000000', env: {}, ...options });

/** Runtime shape checks mirroring the SDK's input item types. */
function checkItemShape(item: OpenAI.Responses.ResponseInputItem): void {
  if ('role' in item && item.type !== 'message') {
    expect(['system', 'user', 'assistant', 'developer']).toContain(item.role);
    if (typeof item.content !== 'string') {
      for (const part of item.content) {
        expect(['input_text', 'input_image', 'input_file']).toContain(part.type);
        if (part.type === 'input_image') expect(part.detail).toBe('auto');
      }
    }
    return;
  }
  switch (item.type) {
    case 'message':
      expect(item.role).toBe('assistant');
      expect(typeof (item as { id?: unknown }).id).toBe('string');
      break;
    case 'function_call':
      expect(typeof item.call_id).toBe('string');
      expect(typeof item.name).toBe('string');
      expect(typeof item.arguments).toBe('string');
      break;
    case 'function_call_output':
      expect(typeof item.call_id).toBe('string');
      expect(typeof item.output).toBe('string');
      break;
    case 'reasoning':
      expect(typeof item.id).toBe('string');
      expect(Array.isArray(item.summary)).toBe(true);
      break;
    default:
      throw new Error(`unexpected item type ${String(item.type)}`);
  }
}

/** An assistant message as the adapter leaves it after a reasoning model called a tool. */
const reasoningRound: AssistantMessage = {
  role: 'assistant',
  text: 'Let me check.',
  toolCalls: [
    { id: 'call_a', name: 'weather', arguments: '{"city":"Paris"}', metadata: { itemId: 'fc_a' } },
    { id: 'call_b', name: 'weather', arguments: '{"city":"Rome"}', metadata: { itemId: 'fc_b' } },
  ],
  metadata: {
    responseId: 'resp_1',
    responseItems: [
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Two cities.' }],
        encrypted_content: 'gAAAA-sealed',
      },
      { type: 'message', id: 'msg_1', textLength: 13, phase: 'commentary' },
      { type: 'function_call', call_id: 'call_a' },
      { type: 'function_call', call_id: 'call_b' },
    ],
  },
};

const conversation: Message[] = [
  { role: 'system', text: 'Be brief.' },
  { role: 'user', text: 'Weather in Paris and Rome?' },
  reasoningRound,
  {
    role: 'tool',
    responses: [
      { id: 'call_a', name: 'weather', responseData: 'sunny' },
      { id: 'call_b', name: 'weather', responseData: 'rain' },
    ],
  },
];

describe('toOpenAiResponsesInput', () => {
  it('builds only requests the official SDK types accept (checked by tsc)', () => {
    expectTypeOf<ResponsesRequest>().toExtend<OpenAI.Responses.ResponseCreateParams>();
    expectTypeOf<ResponsesInputItem>().toExtend<OpenAI.Responses.ResponseInputItem>();
    expectTypeOf<
      NonNullable<ResponsesRequest['tools']>[number]
    >().toExtend<OpenAI.Responses.FunctionTool>();
    const body = model().request(
      { messages: conversation, options: { toolCallbacks: [weatherTool], toolChoice: 'auto' } },
      true,
    ) satisfies OpenAI.Responses.ResponseCreateParams;
    for (const item of body.input) checkItemShape(item);
  });

  it('sends a reasoning round back as its items, in order: reasoning (encrypted), message, calls, then the outputs', () => {
    expect(toOpenAiResponsesInput(conversation)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Two cities.' }],
        encrypted_content: 'gAAAA-sealed',
      },
      {
        type: 'message',
        role: 'assistant',
        id: 'msg_1',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Let me check.', annotations: [] }],
        phase: 'commentary',
      },
      {
        type: 'function_call',
        call_id: 'call_a',
        name: 'weather',
        arguments: '{"city":"Paris"}',
        id: 'fc_a',
      },
      {
        type: 'function_call',
        call_id: 'call_b',
        name: 'weather',
        arguments: '{"city":"Rome"}',
        id: 'fc_b',
      },
      { type: 'function_call_output', call_id: 'call_a', output: 'sunny' },
      { type: 'function_call_output', call_id: 'call_b', output: 'rain' },
    ]);
  });

  it('survives a JSON round trip of the message (a memory store) unchanged', () => {
    const stored = JSON.parse(JSON.stringify(conversation)) as Message[];
    expect(toOpenAiResponsesInput(stored)).toEqual(toOpenAiResponsesInput(conversation));
  });

  it('falls back to text and calls, reasoning first, when the record no longer matches the message', () => {
    const edited: AssistantMessage = { ...reasoningRound, text: 'Edited text' };
    const items = toOpenAiResponsesInput([edited]);
    expect(items.map((item) => ('type' in item ? item.type : item.role))).toEqual([
      'reasoning',
      'assistant',
      'function_call',
      'function_call',
    ]);
    const foreign: AssistantMessage = {
      role: 'assistant',
      text: null,
      toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: '' }],
    };
    expect(toOpenAiResponsesInput([foreign])).toEqual([
      { type: 'function_call', call_id: 'toolu_1', name: 'weather', arguments: '{}' },
    ]);
  });

  it('keeps every call id one to one and answers each call after it (property)', () => {
    fc.assert(
      fc.property(transcriptArbitrary, (messages: Message[]) => {
        const items = toOpenAiResponsesInput(messages);
        for (const item of items) checkItemShape(item);
        const calls = items.flatMap((item) =>
          'type' in item && item.type === 'function_call' ? [item.call_id] : [],
        );
        const outputs = items.flatMap((item) =>
          'type' in item && item.type === 'function_call_output' ? [item.call_id] : [],
        );
        expect(calls).toEqual(
          messages.flatMap((message) =>
            message.role === 'assistant' ? message.toolCalls.map((call) => call.id) : [],
          ),
        );
        expect(outputs).toEqual(calls);
        for (const id of outputs) {
          const callAt = items.findIndex(
            (item) => 'type' in item && item.type === 'function_call' && item.call_id === id,
          );
          const outputAt = items.findIndex(
            (item) => 'type' in item && item.type === 'function_call_output' && item.call_id === id,
          );
          expect(callAt).toBeLessThan(outputAt);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('OpenAiResponsesChatModel.request', () => {
  it('sends store: false and asks for encrypted reasoning for a reasoning model, not for others', () => {
    const reasoning = model({ model: 'gpt-5-mini' }).request({ messages: [], options: {} }, false);
    expect(reasoning).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    const plain = model({ model: 'gpt-4.1-mini' }).request({ messages: [], options: {} }, false);
    expect(plain.store).toBe(false);
    expect(plain.include).toBeUndefined();
    const stored = model({ model: 'o4-mini', store: true }).request(
      { messages: [], options: {} },
      false,
    );
    expect(stored).toMatchObject({ store: true });
    expect(stored.include).toBeUndefined();
    const asked = model({ model: 'my-azure-deployment', reasoningEffort: 'high' }).request(
      { messages: [], options: { reasoningSummary: 'auto' } },
      true,
    );
    expect(asked).toMatchObject({
      reasoning: { effort: 'high', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
  });

  it('maps the common options and the tools, strict on request', () => {
    const body = model({ strictTools: true }).request(
      {
        messages: [{ role: 'user', text: 'Hi' }],
        options: {
          toolCallbacks: [weatherTool],
          toolChoice: { type: 'tool', name: 'weather' },
          parallelToolCalls: false,
          maxTokens: 300,
          temperature: 0.2,
          verbosity: 'low',
          responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
        },
      },
      false,
    );
    expect(body).toMatchObject({
      tool_choice: { type: 'function', name: 'weather' },
      parallel_tool_calls: false,
      max_output_tokens: 300,
      temperature: 0.2,
      text: {
        format: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
        verbosity: 'low',
      },
    });
    expect(body.tools?.[0]).toMatchObject({ type: 'function', name: 'weather', strict: true });
    expect(body.tools?.[0]?.parameters).toMatchObject({ additionalProperties: false });
  });

  it("continues a stored response: 'auto' sends only the messages after the last answered one", () => {
    const body = model({ store: true, previousResponseId: 'auto' }).request(
      { messages: conversation, options: {} },
      false,
    );
    expect(body.previous_response_id).toBe('resp_1');
    expect(body.input).toEqual([
      { type: 'function_call_output', call_id: 'call_a', output: 'sunny' },
      { type: 'function_call_output', call_id: 'call_b', output: 'rain' },
    ]);
    const first = model({ store: true, previousResponseId: 'auto' }).request(
      { messages: conversation.slice(0, 2), options: {} },
      false,
    );
    expect(first.previous_response_id).toBeUndefined();
    expect(first.input).toHaveLength(2);
  });

  it('refuses option values the API would refuse, with a typed error', () => {
    for (const options of [
      { reasoningEffort: 'extreme' },
      { reasoningSummary: true },
      { previousResponseId: 42 },
      { verbosity: 'loud' },
    ]) {
      // Values plain JavaScript may pass; the types refuse them.
      expect(() => model().request({ messages: [], options: options as never }, false)).toThrow(
        InvalidArgumentError,
      );
    }
  });
});
