import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { InvalidArgumentError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import type { Message } from '../../src/messages/index.js';
import type { ChatModel } from '../../src/model/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { FixtureHttpServer } from './support/fixture-http-server.js';

// A ChatModel used directly (no ChatClient in front of it) may be handed messages that are not
// Messages: built by hand, read from an old store, parsed from a request body. The adapters must
// refuse them with a typed error that names the message and the problem, and send nothing:
// never a raw TypeError from deep inside the converter, never a request the API would reject.

const API_KEY = 'sk-malformed-test-0123456789abcdef';
const CALL = { id: 'call_1', name: 'lookup', arguments: '{}' };

const malformed: [string, unknown[], RegExp][] = [
  [
    'an assistant message without toolCalls',
    [
      { role: 'user', text: 'Hi' },
      { role: 'assistant', text: 'Hello' },
    ],
    /messages\[1\].*toolCalls is not an array/,
  ],
  [
    'a tool message without responses',
    [
      { role: 'user', text: 'Hi' },
      { role: 'assistant', text: null, toolCalls: [CALL] },
      { role: 'tool' },
    ],
    /messages\[2\].*responses is not an array/,
  ],
  ['a user message with a null text', [{ role: 'user', text: null }], /messages\[0\].*text/],
  ['a system message with a number as text', [{ role: 'system', text: 42 }], /messages\[0\].*text/],
  ['a null message', [{ role: 'user', text: 'Hi' }, null], /messages\[1\].*not an object/],
  ['a message of an unknown role', [{ role: 'developer', text: 'x' }], /messages\[0\].*role/],
  [
    'a tool call that is null',
    [{ role: 'assistant', text: null, toolCalls: [null] }],
    /messages\[0\].*toolCalls\[0\] is not an object/,
  ],
  [
    'a tool call without an id',
    [{ role: 'assistant', text: null, toolCalls: [{ name: 'lookup', arguments: '{}' }] }],
    /messages\[0\].*toolCalls\[0\]\.id/,
  ],
  [
    'a tool response with an object as responseData',
    [
      { role: 'assistant', text: null, toolCalls: [CALL] },
      { role: 'tool', responses: [{ id: 'call_1', name: 'lookup', responseData: { a: 1 } }] },
    ],
    /messages\[1\].*responses\[0\]\.responseData/,
  ],
  [
    'a user message whose media is not a list',
    [{ role: 'user', text: 'look', media: 'x.png' }],
    /messages\[0\].*media/,
  ],
];

let server: FixtureHttpServer;
beforeEach(async () => {
  server = new FixtureHttpServer();
  await server.start();
});
afterEach(() => server.stop());

/** Every adapter: its label, the provider name its errors start with, the model. */
function models(): [string, string, ChatModel][] {
  return [
    [
      'openai chat completions',
      'openai',
      new OpenAiChatModel({ baseUrl: `${server.baseUrl}/v1`, apiKey: API_KEY, maxRetries: 0 }),
    ],
    [
      'openai responses',
      'openai',
      new OpenAiResponsesChatModel({
        baseUrl: `${server.baseUrl}/v1`,
        apiKey: API_KEY,
        maxRetries: 0,
      }),
    ],
    [
      'anthropic',
      'anthropic',
      new AnthropicChatModel({ baseUrl: server.baseUrl, apiKey: API_KEY, maxRetries: 0 }),
    ],
    [
      'google',
      'google',
      new GoogleChatModel({ baseUrl: server.baseUrl, apiKey: API_KEY, maxRetries: 0 }),
    ],
  ];
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/**
 * Every adapter, in call and in stream mode, refuses `messages` with an InvalidArgumentError that
 * matches `problem` and names the provider, and no request reaches the server.
 */
async function expectRefusedByEveryAdapter(messages: unknown, problem: RegExp): Promise<void> {
  for (const [label, provider, model] of models()) {
    const prompt = { messages: messages as Message[], options: {} };
    const called = await failure(() => model.call(prompt));
    const streamed = await failure(async () => {
      for await (const _chunk of model.stream!(prompt)) {
        // drains the stream
      }
    });
    for (const error of [called, streamed]) {
      expect(error, label).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message, label).toMatch(problem);
      expect((error as Error).message, label).toContain(provider);
    }
  }
  expect(server.requests).toHaveLength(0);
}

describe('provider adapters refuse malformed messages handed to them directly', () => {
  it.each(malformed)(
    '%s: an InvalidArgumentError naming it, and no request',
    async (_name, messages, problem) => {
      await expectRefusedByEveryAdapter(messages, problem);
    },
  );

  it('refuses messages that are not a list', async () => {
    for (const [label, , model] of models()) {
      const error = await failure(() =>
        model.call({ messages: undefined as unknown as Message[], options: {} }),
      );
      expect(error, label).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message).toMatch(/messages must be an array/);
    }
    expect(server.requests).toHaveLength(0);
  });
});

// Every provider API answers a transcript whose tool calls and tool responses do not pair with a
// 400 (OpenAI: "tool_call_ids did not have response messages", Anthropic: "tool_use ids were
// found without tool_result blocks immediately after", Gemini: "the number of function response
// parts is equal to the number of function call parts"), and the Anthropic converter would fold an
// orphan tool result into the next user message. A transcript built by hand or kept from a turn
// that died mid-round must be refused here, naming the message and the ids.
const OTHER = { id: 'call_2', name: 'lookup', arguments: '{}' };
const answer = (...ids: string[]) => ({
  role: 'tool',
  responses: ids.map((id) => ({ id, name: 'lookup', responseData: 'ok' })),
});

const unpaired: [string, unknown[], RegExp][] = [
  [
    'a transcript ending on a tool call',
    [
      { role: 'user', text: 'Hi' },
      { role: 'assistant', text: null, toolCalls: [CALL] },
    ],
    /messages\[1\] \(assistant\).*no tool response.*call_1/,
  ],
  [
    'a tool call followed by a user message',
    [
      { role: 'user', text: 'Hi' },
      { role: 'assistant', text: null, toolCalls: [CALL] },
      { role: 'user', text: 'And?' },
      answer('call_1'),
    ],
    /messages\[1\] \(assistant\).*no tool response.*call_1/,
  ],
  [
    'a batch answered in part',
    [
      { role: 'user', text: 'Hi' },
      { role: 'assistant', text: null, toolCalls: [CALL, OTHER] },
      answer('call_1'),
      { role: 'user', text: 'And?' },
    ],
    /messages\[1\] \(assistant\).*no tool response.*call_2/,
  ],
  [
    'a tool response after a user message',
    [{ role: 'user', text: 'Hi' }, answer('call_1')],
    /messages\[1\] \(tool\).*call_1.*answers no tool call/,
  ],
  [
    'a tool response for an id the assistant message did not issue',
    [
      { role: 'user', text: 'Hi' },
      { role: 'assistant', text: null, toolCalls: [CALL] },
      answer('call_1', 'call_9'),
    ],
    /messages\[2\] \(tool\).*call_9.*answers no tool call/,
  ],
];

describe('provider adapters refuse tool calls and tool responses that do not pair', () => {
  it.each(unpaired)(
    '%s: an InvalidArgumentError naming the message and the id, and no request',
    async (_name, messages, problem) => {
      await expectRefusedByEveryAdapter(messages, problem);
    },
  );

  it('builds requests for transcripts that pair: a batch answered over two tool messages, calls answered in any order', () => {
    const messages = [
      { role: 'user', text: 'Hi' },
      { role: 'assistant', text: null, toolCalls: [CALL, OTHER] },
      answer('call_2'),
      answer('call_1'),
      { role: 'assistant', text: 'Done', toolCalls: [] },
      { role: 'user', text: 'Thanks' },
    ] as Message[];
    for (const [label, , model] of models()) {
      const request = (model as unknown as { request(prompt: unknown, stream: boolean): unknown })
        .request;
      expect(() => request.call(model, { messages, options: {} }, false), label).not.toThrow();
    }
  });

  it('lets the Responses API continue an explicit stored response with the results of its calls', () => {
    const model = new OpenAiResponsesChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: API_KEY,
    });
    const body = model.request(
      { messages: [answer('call_1')] as Message[], options: { previousResponseId: 'resp_1' } },
      false,
    );
    expect(body.previous_response_id).toBe('resp_1');
    expect(() =>
      model.request(
        { messages: [answer('call_1')] as Message[], options: { previousResponseId: 'auto' } },
        false,
      ),
    ).toThrow(/answers no tool call/);
  });
});
