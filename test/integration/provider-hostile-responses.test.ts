import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { ChatModelError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { userMessage } from '../../src/messages/index.js';
import type { ChatModel, ChatResponse, Prompt } from '../../src/model/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { jsonPaths, withJsonPathReplaced } from '../support/json-paths.js';
import { FixtureHttpServer, sendEvents, sendJson } from './support/fixture-http-server.js';

// Every answer a broken or hostile server can give, in both adapters, call and stream, over real
// HTTP. The named cases come from the defect report; the generated ones replace, one at a time,
// every value of a valid answer (every field of a body, every field of every stream event) with
// each hostile value below, or delete it. Whatever the answer, the adapter either returns a
// response that is plain, well-typed JSON, or fails with a ChatModelError: never a raw TypeError,
// never "[object Object]", never the safety net's "could not be read", and a malformed answer is
// never retried.

const HOSTILE_VALUES: unknown[] = [
  undefined, // the field deleted
  null,
  42,
  -1,
  4_294_967_294,
  0.5,
  '',
  'constructor',
  '__proto__',
  true,
  {},
  [],
  [null],
  { type: 'constructor', text: {} },
];

type Provider = 'openai' | 'anthropic' | 'openai-responses' | 'google';
const PROVIDERS = ['openai', 'anthropic', 'openai-responses', 'google'] as const;
type Mode = 'call' | 'stream';

const VALID_BODY: Record<Provider, unknown> = {
  openai: {
    id: 'chatcmpl-1',
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Checking.',
          reasoning_content: 'Need the weather.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: {
      prompt_tokens: 10,
      completion_tokens: 5,
      total_tokens: 15,
      prompt_tokens_details: { cached_tokens: 2 },
    },
  },
  anthropic: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [
      { type: 'thinking', thinking: 'Need the weather.', signature: 'sig' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
    ],
    stop_reason: 'tool_use',
    usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 2 },
  },
  'openai-responses': {
    id: 'resp_1',
    object: 'response',
    model: 'gpt-test',
    status: 'completed',
    output: [
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Need the weather.' }],
        encrypted_content: 'gAAAA-sealed',
      },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Checking.' }],
      },
      {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'weather',
        arguments: '{"city":"Paris"}',
      },
    ],
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
      input_tokens_details: { cached_tokens: 2 },
      output_tokens_details: { reasoning_tokens: 3 },
    },
  },
  google: {
    candidates: [
      {
        index: 0,
        content: {
          role: 'model',
          parts: [
            { text: 'Need the weather.', thought: true },
            { text: 'Checking.' },
            { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' },
          ],
        },
        finishReason: 'STOP',
      },
    ],
    usageMetadata: {
      promptTokenCount: 10,
      candidatesTokenCount: 5,
      thoughtsTokenCount: 3,
      totalTokenCount: 18,
    },
    modelVersion: 'gemini-test',
    responseId: 'r1',
  },
};

const VALID_EVENTS: Record<Provider, Record<string, unknown>[]> = {
  openai: [
    {
      id: 'c1',
      model: 'gpt-test',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' } }],
    },
    { id: 'c1', choices: [{ index: 0, delta: { content: 'Checking.' }, finish_reason: null }] },
    {
      id: 'c1',
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'weather', arguments: '' },
              },
            ],
          },
        },
      ],
    },
    {
      id: 'c1',
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] },
        },
      ],
    },
    { id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    { id: 'c1', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
  ],
  anthropic: [
    {
      type: 'message_start',
      message: { id: 'msg_1', model: 'claude-test', usage: { input_tokens: 10, output_tokens: 1 } },
    },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Checking.' } },
    { type: 'content_block_stop', index: 0 },
    {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} },
    },
    {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' },
    },
    { type: 'content_block_stop', index: 1 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ],
  'openai-responses': [
    {
      type: 'response.created',
      response: { id: 'resp_1', model: 'gpt-test', status: 'in_progress' },
    },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { type: 'reasoning', id: 'rs_1', summary: [] },
    },
    {
      type: 'response.output_item.done',
      output_index: 0,
      item: {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Need the weather.' }],
        encrypted_content: 'gAAAA-sealed',
      },
    },
    {
      type: 'response.output_text.delta',
      output_index: 1,
      item_id: 'msg_1',
      content_index: 0,
      delta: 'Checking.',
    },
    {
      type: 'response.output_item.done',
      output_index: 1,
      item: { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text: 'Checking.' }] },
    },
    {
      type: 'response.output_item.added',
      output_index: 2,
      item: {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'weather',
        arguments: '',
      },
    },
    {
      type: 'response.function_call_arguments.delta',
      output_index: 2,
      item_id: 'fc_1',
      delta: '{"city":"Paris"}',
    },
    {
      type: 'response.output_item.done',
      output_index: 2,
      item: {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'weather',
        arguments: '{"city":"Paris"}',
      },
    },
    {
      type: 'response.completed',
      response: {
        id: 'resp_1',
        status: 'completed',
        usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      },
    },
  ],
  google: [
    {
      candidates: [{ content: { role: 'model', parts: [{ text: 'Checking.' }] } }],
      responseId: 'r1',
      modelVersion: 'gemini-test',
    },
    {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { functionCall: { name: 'weather', willContinue: true }, thoughtSignature: 'sig' },
            ],
          },
        },
      ],
    },
    {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: {
                  partialArgs: [{ jsonPath: '$.city', stringValue: 'Par', willContinue: true }],
                  willContinue: true,
                },
              },
            ],
          },
        },
      ],
    },
    {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: {
                  partialArgs: [{ jsonPath: '$.city', stringValue: 'is' }],
                  willContinue: true,
                },
              },
            ],
          },
        },
      ],
    },
    {
      candidates: [
        { content: { role: 'model', parts: [{ functionCall: {} }] }, finishReason: 'STOP' },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    },
  ],
};

function streamText(provider: Provider, events: unknown[]): string {
  const framed = events.map((event) => {
    const data = `data: ${JSON.stringify(event)}\n\n`;
    const type = (event as { type?: unknown } | null)?.type;
    return provider === 'anthropic' && typeof type === 'string' ? `event: ${type}\n${data}` : data;
  });
  return framed.join('') + (provider === 'openai' ? 'data: [DONE]\n\n' : '');
}

/** The named cases of the report, and others like them. */
const NAMED: { name: string; provider: Provider; mode: Mode; answer: string }[] = [
  ...PROVIDERS.flatMap((provider) => [
    { name: 'a null body', provider, mode: 'call' as const, answer: 'null' },
    { name: 'an array body', provider, mode: 'call' as const, answer: '[]' },
    { name: 'a string body', provider, mode: 'call' as const, answer: '"hello"' },
    { name: 'a number body', provider, mode: 'call' as const, answer: '1e999' },
    { name: 'a null stream event', provider, mode: 'stream' as const, answer: 'data: null\n\n' },
    { name: 'a number stream event', provider, mode: 'stream' as const, answer: 'data: 42\n\n' },
    { name: 'an array stream event', provider, mode: 'stream' as const, answer: 'data: [1]\n\n' },
  ]),
  {
    name: 'choices: {}',
    provider: 'openai',
    mode: 'call',
    answer: JSON.stringify({ id: 'x', choices: {} }),
  },
  {
    name: 'choices: {} in a stream',
    provider: 'openai',
    mode: 'stream',
    answer: streamText('openai', [{ id: 'x', choices: {} }]),
  },
  {
    name: 'finish_reason: 42',
    provider: 'openai',
    mode: 'call',
    answer: JSON.stringify({
      choices: [{ index: 0, message: { content: 'hi' }, finish_reason: 42 }],
    }),
  },
  {
    name: 'finish_reason: 42 in a stream',
    provider: 'openai',
    mode: 'stream',
    answer: streamText('openai', [
      { choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 42 }] },
    ]),
  },
  {
    name: 'a content part that is not text',
    provider: 'openai',
    mode: 'call',
    answer: JSON.stringify({
      choices: [
        {
          index: 0,
          message: { content: [{ type: 'image_url', image_url: {} }] },
          finish_reason: 'stop',
        },
      ],
    }),
  },
  {
    name: 'content that is an object',
    provider: 'openai',
    mode: 'stream',
    answer: streamText('openai', [
      { choices: [{ index: 0, delta: { content: { text: 'hi' } } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ]),
  },
  {
    name: 'choice index 4294967294',
    provider: 'openai',
    mode: 'stream',
    answer:
      'data: {"id":"x","choices":[{"index":4294967294,"delta":{"content":"a"},"finish_reason":null}]}\n\n',
  },
  {
    name: 'tool_calls: "x"',
    provider: 'openai',
    mode: 'call',
    answer: JSON.stringify({
      choices: [{ index: 0, message: { tool_calls: 'x' }, finish_reason: 'tool_calls' }],
    }),
  },
  {
    name: 'content: [null]',
    provider: 'anthropic',
    mode: 'call',
    answer: JSON.stringify({ type: 'message', content: [null], stop_reason: 'end_turn' }),
  },
  {
    name: 'content: {}',
    provider: 'anthropic',
    mode: 'call',
    answer: JSON.stringify({ type: 'message', content: {}, stop_reason: 'end_turn' }),
  },
  {
    name: 'stop_reason: 42',
    provider: 'anthropic',
    mode: 'call',
    answer: JSON.stringify({ type: 'message', content: [], stop_reason: 42 }),
  },
  {
    name: 'a text block whose text is an object',
    provider: 'anthropic',
    mode: 'call',
    answer: JSON.stringify({ type: 'message', content: [{ type: 'text', text: {} }] }),
  },
  {
    name: 'content block index 4294967294',
    provider: 'anthropic',
    mode: 'stream',
    answer: streamText('anthropic', [
      { type: 'message_start', message: {} },
      {
        type: 'content_block_start',
        index: 4_294_967_294,
        content_block: { type: 'text', text: '' },
      },
    ]),
  },
  {
    name: 'a text_delta whose text is an object',
    provider: 'anthropic',
    mode: 'stream',
    answer: streamText('anthropic', [
      { type: 'message_start', message: {} },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: {} } },
    ]),
  },
  {
    name: 'output_index 4294967294',
    provider: 'openai-responses',
    mode: 'stream',
    answer: streamText('openai-responses', [
      { type: 'response.output_text.delta', output_index: 4_294_967_294, delta: 'a' },
    ]),
  },
  {
    name: 'output_index -1',
    provider: 'openai-responses',
    mode: 'stream',
    answer: streamText('openai-responses', [
      {
        type: 'response.output_item.added',
        output_index: -1,
        item: { type: 'function_call', call_id: 'c', name: 'weather' },
      },
    ]),
  },
  {
    name: 'output: {}',
    provider: 'openai-responses',
    mode: 'call',
    answer: JSON.stringify({ id: 'r', status: 'completed', output: {} }),
  },
  {
    name: 'a message content part whose text is an object',
    provider: 'openai-responses',
    mode: 'call',
    answer: JSON.stringify({
      status: 'completed',
      output: [{ type: 'message', content: [{ type: 'output_text', text: {} }] }],
    }),
  },
  {
    name: 'candidate index 4294967294',
    provider: 'google',
    mode: 'stream',
    answer: streamText('google', [
      { candidates: [{ index: 4_294_967_294, content: { parts: [{ text: 'a' }] } }] },
    ]),
  },
  {
    name: 'a partialArgs path with position 4294967294',
    provider: 'google',
    mode: 'stream',
    answer: streamText('google', [
      {
        candidates: [
          {
            content: {
              parts: [
                {
                  functionCall: {
                    name: 'weather',
                    partialArgs: [{ jsonPath: '$.days[4294967294]', numberValue: 1 }],
                  },
                },
              ],
            },
          },
        ],
      },
    ]),
  },
  {
    name: 'a text part whose text is an object',
    provider: 'google',
    mode: 'call',
    answer: JSON.stringify({ candidates: [{ content: { parts: [{ text: {} }] } }] }),
  },
  {
    name: 'parts: {}',
    provider: 'google',
    mode: 'call',
    answer: JSON.stringify({ candidates: [{ content: { parts: {} }, finishReason: 'STOP' }] }),
  },
];

interface Case {
  name: string;
  provider: Provider;
  mode: Mode;
  answer: string;
}

function generated(provider: Provider, mode: Mode): Case[] {
  const cases: Case[] = [];
  if (mode === 'call') {
    const body = VALID_BODY[provider];
    for (const path of jsonPaths(body)) {
      for (const value of HOSTILE_VALUES) {
        const answer = JSON.stringify(withJsonPathReplaced(body, path, value)) ?? '';
        cases.push({
          name: `${path.join('.') || '(body)'} = ${JSON.stringify(value)}`,
          provider,
          mode,
          answer,
        });
      }
    }
  } else {
    const events = VALID_EVENTS[provider];
    events.forEach((event, position) => {
      for (const path of jsonPaths(event)) {
        for (const value of HOSTILE_VALUES) {
          const mutated = [...events];
          mutated[position] = withJsonPathReplaced(event, path, value) as Record<string, unknown>;
          cases.push({
            name: `event ${position} ${path.join('.') || '(event)'} = ${JSON.stringify(value)}`,
            provider,
            mode,
            answer: streamText(
              provider,
              mutated.filter((item) => item !== undefined),
            ),
          });
        }
      }
    });
  }
  return cases;
}

const prompt: Prompt = { messages: [userMessage('Weather in Paris?')], options: {} };
const tally = { tried: 0, succeeded: 0, refused: 0, rawErrors: 0, retriedMalformed: 0 };

/** A successful answer must be plain JSON with the documented types. */
function expectWellTyped(response: ChatResponse): void {
  expect(JSON.parse(JSON.stringify(response))).toEqual(response);
  expect(Array.isArray(response.results)).toBe(true);
  for (const generation of response.results) {
    expect(generation.output.role).toBe('assistant');
    const text = generation.output.text;
    expect(text === null || typeof text === 'string').toBe(true);
    expect(String(text)).not.toContain('[object Object]');
    const finish = generation.metadata.finishReason;
    expect(finish === null || typeof finish === 'string').toBe(true);
    for (const call of generation.output.toolCalls) {
      expect(typeof call.id).toBe('string');
      expect(call.id).not.toBe('');
      expect(typeof call.name).toBe('string');
      // Arguments a server sent as another JSON value arrive as its JSON text, marked.
      expect(typeof call.arguments).toBe('string');
    }
  }
  const usage = response.metadata.usage;
  if (usage) {
    for (const count of Object.values(usage)) expect(Number.isFinite(count)).toBe(true);
  }
}

describe('hostile provider responses', () => {
  const server = new FixtureHttpServer();
  const models: Record<Provider, ChatModel> = {} as Record<Provider, ChatModel>;

  beforeAll(async () => {
    await server.start();
    models.openai = new OpenAiChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: 'sk-hostile-0123456789',
      maxRetries: 1,
      retryDelay: { initialMs: 0 },
    });
    models.anthropic = new AnthropicChatModel({
      baseUrl: server.baseUrl,
      apiKey: 'sk-hostile-0123456789',
      maxRetries: 1,
      retryDelay: { initialMs: 0 },
    });
    models['openai-responses'] = new OpenAiResponsesChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: 'sk-hostile-0123456789',
      maxRetries: 1,
      retryDelay: { initialMs: 0 },
    });
    models.google = new GoogleChatModel({
      baseUrl: server.baseUrl,
      apiKey: 'sk-hostile-0123456789',
      maxRetries: 1,
      retryDelay: { initialMs: 0 },
    });
  });
  afterAll(() => server.stop());

  async function attempt(test: Case): Promise<unknown> {
    tally.tried++;
    server.replyAlways(
      test.mode === 'call' ? sendJson(test.answer) : sendEvents(test.answer || '\n', 1),
    );
    const before = server.requests.length;
    const model = models[test.provider];
    let outcome: unknown;
    try {
      if (test.mode === 'call') {
        outcome = await model.call(prompt);
      } else {
        const chunks: ChatResponse[] = [];
        for await (const chunk of model.stream!(prompt)) chunks.push(chunk);
        for (const chunk of chunks) expectWellTyped(chunk);
        outcome = { results: [], metadata: {} };
      }
    } catch (error) {
      outcome = error;
    }
    const requests = server.requests.length - before;
    if (!(outcome instanceof Error)) {
      tally.succeeded++;
      expectWellTyped(outcome as ChatResponse);
      return outcome;
    }
    if (!(outcome instanceof ChatModelError)) {
      tally.rawErrors++;
      expect.fail(`${test.name}: ${String(outcome)}`);
    }
    tally.refused++;
    expect(outcome.message).not.toContain('could not be read');
    expect(outcome.message).not.toContain('[object Object]');
    expect(outcome.message).not.toMatch(/connection failed/);
    expect(outcome.cause).not.toBeInstanceOf(TypeError);
    if (outcome.message.includes('malformed')) {
      if (outcome.retryable || requests !== 1) tally.retriedMalformed++;
      expect(outcome.retryable).toBe(false);
      expect(requests).toBe(1);
    }
    return outcome;
  }

  it.each(NAMED)('$provider $mode: $name is refused as malformed, once', async (test) => {
    const outcome = await attempt(test);
    expect(outcome).toBeInstanceOf(ChatModelError);
    expect((outcome as ChatModelError).message).toContain('answered with a malformed response');
  });

  it.each(['call', 'stream'] as const)(
    'anthropic %s: an error of type "constructor" reads no prototype',
    async (mode) => {
      const error = { type: 'constructor', message: 'odd' };
      const outcome = await attempt({
        name: 'error type constructor',
        provider: 'anthropic',
        mode,
        answer:
          mode === 'call'
            ? JSON.stringify({ type: 'error', error })
            : streamText('anthropic', [{ type: 'error', error }]),
      });
      expect(outcome).toBeInstanceOf(ChatModelError);
      expect(outcome).toMatchObject({ status: undefined, retryable: false });
      expect((outcome as ChatModelError).message).toContain('constructor: odd');
    },
  );

  it.each(
    PROVIDERS.flatMap((provider) => [[provider, 'call'] as const, [provider, 'stream'] as const]),
  )(
    '%s %s: every field of a valid answer replaced by each hostile value',
    {
      timeout: 60_000,
    },
    async (provider, mode) => {
      for (const test of generated(provider, mode)) await attempt(test);
    },
  );

  it('counts what was tried', () => {
    console.info(`hostile provider responses: ${JSON.stringify(tally)}`);
    expect(tally.tried).toBe(HOSTILE_CASE_COUNT);
    expect(tally.rawErrors).toBe(0);
    expect(tally.retriedMalformed).toBe(0);
    expect(tally.succeeded + tally.refused).toBe(tally.tried);
  });
});

/** Named cases plus generated ones; the README quotes this figure. */
const HOSTILE_CASE_COUNT = 4_910;
