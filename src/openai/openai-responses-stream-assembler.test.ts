import { describe, expect, it } from 'vitest';
import {
  fixtureText,
  frameChunksAsSse,
  responsesStreamsOf,
} from '../../test/integration/support/provider-fixtures.js';
import { assembleSse } from '../../test/support/assemble-sse.js';
import { expectDeltasMatchCalls } from '../../test/support/streamed-tool-calls.js';
import { ChatModelError } from '../errors/index.js';
import type { ChatResponse } from '../model/index.js';
import { fromOpenAiResponsesResponse } from './from-openai-responses-response.js';
import { OpenAiResponsesStreamAssembler } from './openai-responses-stream-assembler.js';

const encoder = new TextEncoder();

/** The recorded responses of a `*.chunks.txt` file, one stream per step, framed as sent. */
function recordedSteps(file: string): Uint8Array[] {
  return responsesStreamsOf(fixtureText(`openai-responses/${file}`)).map((lines) =>
    encoder.encode(frameChunksAsSse(lines, 'data')),
  );
}

function sse(events: unknown[]): Uint8Array {
  return encoder.encode(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''));
}

/** The types of the output items the first generation keeps, in order. */
function itemTypes(response: ChatResponse): string[] {
  const items = response.results[0]?.output.metadata?.responseItems;
  return ((items ?? []) as { type: string }[]).map((item) => item.type);
}

async function assemble(bytes: Uint8Array) {
  return assembleSse([bytes], new OpenAiResponsesStreamAssembler());
}

async function failure(bytes: Uint8Array): Promise<ChatModelError> {
  const error = await assemble(bytes).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChatModelError);
  return error as ChatModelError;
}

const created = { type: 'response.created', response: { id: 'resp_1', model: 'gpt-5-mini' } };
const callAdded = (name = 'weather') => ({
  type: 'response.output_item.added',
  output_index: 0,
  item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name, arguments: '' },
});
const argumentsDelta = (delta: string) => ({
  type: 'response.function_call_arguments.delta',
  output_index: 0,
  item_id: 'fc_1',
  delta,
});

describe('OpenAiResponsesStreamAssembler over recorded streams', () => {
  it('keeps the reasoning item, encrypted, with the call it led to, and counts reasoning tokens (OpenAI, gpt-5.1-codex-max)', async () => {
    const [first, , , last] = recordedSteps('openai-reasoning-encrypted-content.1.chunks.txt');
    const { response, chunks } = await assemble(first!);
    expectDeltasMatchCalls(chunks, response);
    const [generation] = response.results;
    expect(generation?.metadata.finishReason).toBe('tool_calls');
    expect(generation?.output.toolCalls).toEqual([
      {
        id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
        name: 'calculator',
        arguments: '{"a":12,"b":7,"op":"add"}',
        metadata: { itemId: 'fc_01830d662ab3856501693c32151234819091cfca267e98cc5f' },
      },
    ]);
    const items = generation?.output.metadata?.responseItems as Record<string, unknown>[];
    expect(items.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(items[0]).toMatchObject({
      id: 'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
      encrypted_content: expect.stringMatching(/^gAAAAA/),
      summary: [{ type: 'summary_text', text: expect.stringContaining('calculator') }],
    });
    expect(items[1]).toEqual({ type: 'function_call', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn' });
    expect(generation?.output.metadata?.reasoningContent).toContain('12 plus 7');
    expect(generation?.output.metadata?.responseId).toBe(response.metadata.id);
    expect(response.metadata.usage).toMatchObject({ reasoningTokens: expect.any(Number) });
    expect(JSON.parse(JSON.stringify(response))).toEqual(response);

    const answer = (await assemble(last!)).response;
    expect(answer.results[0]?.output.text).toBe('The final result is **570**.');
    expect(answer.results[0]?.metadata.finishReason).toBe('stop');
    expect(answer.results[0]?.output.metadata?.responseItems).toEqual([
      { type: 'message', id: expect.stringMatching(/^msg_/), textLength: 28 },
    ]);
  });

  it('assembles the Azure streams the same way (arguments in 13 deltas)', async () => {
    for (const step of recordedSteps('azure-reasoning-encrypted-content.1.chunks.txt')) {
      const { response, chunks } = await assemble(step);
      expectDeltasMatchCalls(chunks, response);
      expect(response.results[0]?.metadata.finishReason).toMatch(/^(tool_calls|stop)$/);
    }
    const [call] = recordedSteps('azure-tool-call.1.chunks.txt');
    const { response } = await assemble(call!);
    expect(response.results[0]?.output.toolCalls[0]).toMatchObject({
      name: 'weather',
      arguments: '{"location":"San Francisco"}',
    });
  });

  it('reads arguments sent only with function_call_arguments.done, and plain reasoning text (LM Studio)', async () => {
    const [stream] = recordedSteps('lmstudio-tool-call.1.chunks.txt');
    const { response, chunks } = await assemble(stream!);
    const [call] = expectDeltasMatchCalls(chunks, response);
    expect(call?.name).toBe('weather');
    expect(JSON.parse(call?.text ?? '')).toHaveProperty('location');
    expect(response.results[0]?.output.metadata?.reasoningContent).toContain('weather');
  });

  it('keeps hosted items it does not know (a program, tool search, MCP) in order, and never makes them tool calls', async () => {
    for (const file of [
      'programmatic-tool-calling.1.chunks.txt',
      'openai-tool-search.1.chunks.txt',
      'openai-mcp-tool-approval.4.chunks.txt',
      'openai-custom-tool.1.chunks.txt',
    ]) {
      for (const step of recordedSteps(file)) {
        const { response } = await assemble(step);
        const generation = response.results[0]!;
        const types = itemTypes(response);
        expect(types.filter((type) => type === 'function_call')).toHaveLength(
          generation.output.toolCalls.length,
        );
        expect(JSON.parse(JSON.stringify(response))).toEqual(response);
      }
    }
    const [program] = recordedSteps('programmatic-tool-calling.1.chunks.txt');
    const { response } = await assemble(program!);
    expect(itemTypes(response)).toEqual(['reasoning', 'program', 'function_call']);
  });

  it('fails with the reported error of an error event (insufficient_quota: not retried)', async () => {
    const [stream] = recordedSteps('openai-error.1.chunks.txt');
    const error = await failure(stream!);
    expect(error.message).toContain('insufficient_quota');
    expect(error.retryable).toBe(false);
  });

  it('refuses the hand-built wrapper stream whose events are not JSON', async () => {
    const [stream] = recordedSteps('parallel-tool-call-wrapper.1.chunks.txt');
    const error = await failure(stream!);
    expect(error.message).toContain('malformed');
  });

  it('agrees with the non-streamed body of the same step (the recorded final answer)', async () => {
    const body = JSON.parse(
      fixtureText('openai-responses/openai-reasoning-encrypted-content.1.json'),
    );
    const response = fromOpenAiResponsesResponse(body);
    const generation = response.results[0]!;
    expect(generation.output.text).toBe(
      (body.output as { type: string; content?: { text: string }[] }[]).find(
        (item) => item.type === 'message',
      )?.content?.[0]?.text,
    );
    const items = generation.output.metadata?.responseItems as Record<string, unknown>[];
    expect(items[0]).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) });
    expect(response.metadata.usage?.reasoningTokens).toBe(
      body.usage.output_tokens_details.reasoning_tokens,
    );
  });
});

describe('OpenAiResponsesStreamAssembler on broken streams', () => {
  it('emits a call still open when the response ends incomplete as truncated', async () => {
    const { response } = await assemble(
      sse([
        created,
        callAdded(),
        argumentsDelta('{"city":"Par'),
        {
          type: 'response.incomplete',
          response: {
            id: 'resp_1',
            status: 'incomplete',
            incomplete_details: { reason: 'max_output_tokens' },
          },
        },
      ]),
    );
    const [generation] = response.results;
    expect(generation?.metadata.finishReason).toBe('length');
    expect(generation?.output.toolCalls).toEqual([
      { id: 'call_1', name: 'weather', arguments: '{"city":"Par', metadata: { truncated: true } },
    ]);
  });

  it('fails, retryably, when the stream ends before its terminal event, even after a finished call', async () => {
    const error = await failure(
      sse([
        created,
        callAdded(),
        argumentsDelta('{}'),
        {
          type: 'response.output_item.done',
          output_index: 0,
          item: {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_1',
            name: 'weather',
            arguments: '{}',
          },
        },
      ]),
    );
    expect(error.message).toContain('ended before the response finished');
    expect(error.retryable).toBe(true);
  });

  it('refuses a call whose name changes between its announcement and its end', async () => {
    const error = await failure(
      sse([
        created,
        callAdded('weather'),
        {
          type: 'response.output_item.done',
          output_index: 0,
          item: {
            type: 'function_call',
            id: 'fc_1',
            call_id: 'call_1',
            name: 'delete_files',
            arguments: '{}',
          },
        },
        { type: 'response.completed', response: { id: 'resp_1', status: 'completed' } },
      ]),
    );
    expect(error.message).toContain('changed its name');
    expect(error.retryable).toBe(false);
  });

  it.each([
    ['a huge output index', 4_294_967_294],
    ['a negative output index', -1],
  ])('refuses %s as malformed', async (_name, index) => {
    const error = await failure(sse([created, { ...callAdded(), output_index: index }]));
    expect(error.message).toMatch(/malformed.*output_index/);
  });

  it('skips events and items of types it does not know', async () => {
    const { response } = await assemble(
      sse([
        created,
        { type: 'response.future_event', output_index: 0 },
        {
          type: 'response.output_item.done',
          output_index: 0,
          item: { type: 'hologram', id: 'h_1', payload: { x: 1 } },
        },
        { type: 'response.completed', response: { id: 'resp_1', status: 'completed' } },
      ]),
    );
    expect(response.results[0]?.output.toolCalls).toEqual([]);
    expect(response.results[0]?.output.metadata?.responseItems).toEqual([
      { type: 'hologram', id: 'h_1', payload: { x: 1 } },
    ]);
  });

  it('takes items from response.completed when the server sent no item events', async () => {
    const { response } = await assemble(
      sse([
        created,
        {
          type: 'response.completed',
          response: {
            id: 'resp_1',
            status: 'completed',
            output: [
              { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text: 'Hi' }] },
              { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' },
            ],
            usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
          },
        },
      ]),
    );
    const [generation] = response.results;
    expect(generation?.output.text).toBe('Hi');
    expect(generation?.output.toolCalls.map((call) => call.id)).toEqual(['call_1']);
    expect(response.metadata.usage).toEqual({
      promptTokens: 3,
      completionTokens: 2,
      totalTokens: 5,
    });
  });

  it('keeps no chunk besides what the events carried (every chunk is plain JSON)', async () => {
    const [stream] = recordedSteps('azure-tool-call.1.chunks.txt');
    const { chunks } = await assemble(stream!);
    for (const chunk of chunks as ChatResponse[]) {
      expect(JSON.parse(JSON.stringify(chunk))).toEqual(chunk);
    }
  });
});
