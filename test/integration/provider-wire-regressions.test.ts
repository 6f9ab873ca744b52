import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { AbortError, ChatModelError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import {
  ChatClient,
  CONVERSATION_ID,
  InMemoryChatMemoryRepository,
  jsonSchema,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  tool,
} from '../../src/index.js';
import { type AssistantMessage, userMessage } from '../../src/messages/index.js';
import { aggregateChatResponses, type ChatResponse, type Prompt } from '../../src/model/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import {
  FixtureHttpServer,
  type FixtureReply,
  sendBody,
  sendEvents,
  sendJson,
} from './support/fixture-http-server.js';
import { fixtureText, frameChunksAsSse } from './support/provider-fixtures.js';

// One focused test per defect the wire fuzz suite (provider-wire-fuzz.test.ts) found, over real
// HTTP with the recorded transcripts, so each stays fixed whatever the fuzz seed reaches.

const API_KEY = 'sk-regression-0123456789abcdef';
const PROMPT: Prompt = { messages: [userMessage('What is the weather in Paris?')], options: {} };

const server = new FixtureHttpServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

async function streamed(model: { stream(prompt: Prompt): AsyncIterable<ChatResponse> }) {
  const chunks: ChatResponse[] = [];
  for await (const chunk of model.stream(PROMPT)) chunks.push(chunk);
  return aggregateChatResponses(chunks);
}

describe('a stream written with CR line ends (as the SSE standard allows) is read whole', () => {
  const cr = (text: string) => text.replace(/\r?\n/g, '\r');

  it('Gemini: the last event, which carries the finish reason, is not lost', async () => {
    const sse = frameChunksAsSse(fixtureText('google-gemini/google-text.chunks.txt'), 'data');
    server.reply(sendEvents(sse), sendEvents(cr(sse)));
    const model = new GoogleChatModel({ baseUrl: server.baseUrl, apiKey: API_KEY, maxRetries: 0 });
    const expected = await streamed(model);
    const response = await streamed(model);
    expect(response.results[0]?.metadata.finishReason).toBe('stop');
    expect(response.results[0]?.output.text).toBe(expected.results[0]?.output.text);
  });

  it('Anthropic: message_stop is not lost, so the tool call is whole, not marked truncated', async () => {
    const sse = frameChunksAsSse(
      fixtureText('anthropic-messages/anthropic-json-tool.1.chunks.txt'),
      'anthropic',
    );
    server.reply(sendEvents(sse), sendEvents(cr(sse)));
    const model = new AnthropicChatModel({
      baseUrl: server.baseUrl,
      apiKey: API_KEY,
      maxRetries: 0,
    });
    const expected = await streamed(model);
    const response = await streamed(model);
    const calls = response.results[0]?.output.toolCalls ?? [];
    expect(calls).toHaveLength(1);
    expect(calls[0]?.metadata?.truncated).toBeUndefined();
    expect(calls[0]?.arguments).toBe(expected.results[0]?.output.toolCalls[0]?.arguments);
  });
});

describe('an HTTP failure whose error body stalls', () => {
  /** A 429 whose body starts and never ends; the connection stays open. */
  const stalled429: FixtureReply = (_request, response) => {
    response.writeHead(429, { 'content-type': 'application/json' });
    response.write('{"error":{"message":"Rate limit reached, retry in');
  };

  it.each(['call', 'stream'] as const)(
    '%s: fails at the idle limit (not the call deadline) with its status, 429',
    async (mode) => {
      server.replyAlways(stalled429);
      const model = new OpenAiChatModel({
        baseUrl: `${server.baseUrl}/v1`,
        apiKey: API_KEY,
        maxRetries: 0,
        idleTimeoutMs: 200,
        timeoutMs: 10_000,
      });
      const started = performance.now();
      const error = await (mode === 'call' ? model.call(PROMPT) : streamed(model)).catch(
        (caught: unknown) => caught,
      );
      server.replyAlways(undefined);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(error).toBeInstanceOf(ChatModelError);
      expect(error).toMatchObject({ status: 429, retryable: true });
      expect((error as ChatModelError).message).toMatch(/^openai request failed with HTTP 429 /);
    },
  );

  it('a caller abort while the error body stalls is still an AbortError', async () => {
    server.replyAlways(stalled429);
    const model = new OpenAiChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: API_KEY,
      maxRetries: 0,
      idleTimeoutMs: 5_000,
    });
    const error = await model
      .call(PROMPT, { signal: AbortSignal.timeout(100) })
      .catch((caught: unknown) => caught);
    server.replyAlways(undefined);
    expect(error).toBeInstanceOf(AbortError);
  });
});

/** OpenAI-style SSE: one `data:` event per payload, then `[DONE]`. */
function openAiSse(payloads: unknown[]): string {
  return `${payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** Anthropic-style SSE: each payload named by its type. */
function anthropicSse(payloads: { type: string }[]): string {
  return payloads
    .map((payload) => `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`)
    .join('');
}

describe('tool-call arguments a server sent as an object, with chat memory inside the tool loop', () => {
  const object = { path: '/' };
  const final = 'Nothing was deleted.';
  const openAiBody = (message: Record<string, unknown>, finish: string) => ({
    id: 'c',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
  });
  const openAiCall = { id: 'call_a', function: { name: 'delete_files', arguments: object } };
  const anthropicText = (text: string) => [
    { type: 'message_start', message: { id: 'msg_2', usage: { input_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
    { type: 'message_stop' },
  ];
  type Model = OpenAiChatModel | OpenAiResponsesChatModel | AnthropicChatModel;
  const cases: [string, () => Model, FixtureReply, FixtureReply, 'call' | 'stream'][] = [
    [
      'OpenAI call',
      () => new OpenAiChatModel({ baseUrl: `${server.baseUrl}/v1`, apiKey: API_KEY }),
      sendJson(openAiBody({ tool_calls: [{ type: 'function', ...openAiCall }] }, 'tool_calls')),
      sendJson(openAiBody({ content: final }, 'stop')),
      'call',
    ],
    [
      'OpenAI stream',
      () => new OpenAiChatModel({ baseUrl: `${server.baseUrl}/v1`, apiKey: API_KEY }),
      sendEvents(
        openAiSse([
          { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, ...openAiCall }] } }] },
          { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        ]),
      ),
      sendEvents(
        openAiSse([{ choices: [{ index: 0, delta: { content: final }, finish_reason: 'stop' }] }]),
      ),
      'stream',
    ],
    [
      'Responses call',
      () => new OpenAiResponsesChatModel({ baseUrl: `${server.baseUrl}/v1`, apiKey: API_KEY }),
      sendJson({
        id: 'resp_1',
        status: 'completed',
        output: [
          {
            type: 'function_call',
            id: 'fc_a',
            call_id: 'call_a',
            name: 'delete_files',
            arguments: object,
          },
        ],
      }),
      sendJson({
        id: 'resp_2',
        status: 'completed',
        output: [{ type: 'message', id: 'msg_2', content: [{ type: 'output_text', text: final }] }],
      }),
      'call',
    ],
    [
      'Anthropic stream',
      () => new AnthropicChatModel({ baseUrl: server.baseUrl, apiKey: API_KEY }),
      sendEvents(
        anthropicSse([
          { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 1 } } },
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_a', name: 'delete_files', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: object },
          },
          { type: 'content_block_stop', index: 0 },
          { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: {} },
          { type: 'message_stop' },
        ] as { type: string }[]),
      ),
      sendEvents(anthropicSse(anthropicText(final))),
      'stream',
    ],
  ];

  it.each(cases)(
    '%s: the call is refused, never run, and the turn is stored with text arguments',
    async (_name, model, first, second, mode) => {
      server.reply(first, second);
      const runs: unknown[] = [];
      const deleteFiles = tool({
        name: 'delete_files',
        description: 'Deletes files',
        inputSchema: jsonSchema<{ path: string }>({
          type: 'object',
          properties: { path: { type: 'string' } },
        }),
        execute: (input) => {
          runs.push(input);
          return 'deleted';
        },
      });
      const memory = new MessageWindowChatMemory({
        repository: new InMemoryChatMemoryRepository(),
      });
      // An order after the tool advisor's: memory sits inside the loop and stores every round.
      const client = ChatClient.create(model(), {
        advisors: [new MessageChatMemoryAdvisor({ chatMemory: memory, order: 0 })],
      });
      const spec = client
        .prompt('Clean up')
        .tools(deleteFiles)
        .advisors((advisors) => advisors.param(CONVERSATION_ID, 'c-1'));
      let answer = '';
      if (mode === 'call') answer = (await spec.call().content()) ?? '';
      else for await (const text of spec.stream().content()) answer += text;
      expect(answer).toBe(final);
      expect(runs).toEqual([]);
      const stored = await memory.get('c-1');
      const assistant = stored.find((message) => message.role === 'assistant') as AssistantMessage;
      expect(assistant.toolCalls[0]).toMatchObject({
        arguments: '{"path":"/"}',
        metadata: { nonTextArguments: true },
      });
      const result = stored.find((message) => message.role === 'tool');
      expect(JSON.stringify(result)).toContain('arguments must be JSON text');
    },
  );
});

describe('a stream request answered with HTTP 200 and no event at all', () => {
  const portal =
    '<!DOCTYPE html><html><head><title>Sign in to the guest network</title></head><body></body></html>';
  const model = () =>
    new GoogleChatModel({
      baseUrl: server.baseUrl,
      apiKey: API_KEY,
      maxRetries: 2,
      retryDelay: { initialMs: 1 },
    });

  it('an HTML page: says so, once, instead of "the stream ended early" after retries', async () => {
    server.replyAlways(sendBody(portal, { headers: { 'content-type': 'text/html' } }));
    const before = server.requests.length;
    const error = await streamed(model()).catch((caught: unknown) => caught);
    server.replyAlways(undefined);
    expect(server.requests.length - before).toBe(1);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ status: 200, retryable: false });
    expect((error as ChatModelError).message).toMatch(
      /^google answered without any server-sent event \(HTTP 200, content-type text\/html, POST .*\): the server answered with an HTML page \("Sign in to the guest network"\)$/,
    );
  });

  it('an empty body: says so', async () => {
    server.reply(sendBody(''));
    const error = await streamed(model()).catch((caught: unknown) => caught);
    expect((error as ChatModelError).message).toMatch(
      /^google answered without any server-sent event \(HTTP 200, an empty body, POST /,
    );
  });

  it('events under another content type are still read', async () => {
    const sse = frameChunksAsSse(fixtureText('google-gemini/google-text.chunks.txt'), 'data');
    server.reply(sendBody(sse, { headers: { 'content-type': 'text/plain' } }));
    const response = await streamed(model());
    expect(response.results[0]?.metadata.finishReason).toBe('stop');
  });

  it('call(): an HTML page is named as one', async () => {
    server.reply(sendBody(portal, { headers: { 'content-type': 'text/html' } }));
    await expect(model().call(PROMPT)).rejects.toThrow(
      'google answered with a malformed response: the body is an HTML page ("Sign in to the guest network"), not JSON',
    );
  });
});

describe('two tool calls of one response that share an id', () => {
  const weather = (runs: unknown[]) =>
    tool({
      name: 'weather',
      description: 'The weather in a city',
      inputSchema: jsonSchema<{ city: string }>({
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      }),
      execute: (input) => {
        runs.push(input);
        return `Sunny in ${input.city}`;
      },
    });
  const toolUse = (city: string) => ({
    type: 'tool_use',
    id: 'toolu_same',
    name: 'weather',
    input: { city },
  });

  it('Anthropic: both run, and the next request has one tool_use and one tool_result per id', async () => {
    server.reply(
      sendJson({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [toolUse('Paris'), toolUse('Rome')],
        stop_reason: 'tool_use',
      }),
      sendJson({
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'Sunny in both.' }],
        stop_reason: 'end_turn',
      }),
    );
    const runs: unknown[] = [];
    const before = server.requests.length;
    const model = new AnthropicChatModel({ baseUrl: server.baseUrl, apiKey: API_KEY });
    const answer = await ChatClient.create(model)
      .prompt('Weather in Paris and Rome?')
      .tools(weather(runs))
      .call()
      .content();
    expect(answer).toBe('Sunny in both.');
    expect(runs).toEqual([{ city: 'Paris' }, { city: 'Rome' }]);
    type Block = { type: string; id?: string; tool_use_id?: string };
    const sent = server.requests[before + 1]?.body as { messages: { content: Block[] }[] };
    const messages = sent.messages;
    const uses = messages
      .flatMap((message) => message.content)
      .filter((b) => b.type === 'tool_use');
    const results = messages
      .flatMap((message) => message.content)
      .filter((block) => block.type === 'tool_result');
    expect(uses.map((block) => block.id)[0]).toBe('toolu_same');
    expect(new Set(uses.map((block) => block.id)).size).toBe(2);
    expect(results.map((block) => block.tool_use_id)).toEqual(uses.map((block) => block.id));
  });

  it.each(['call', 'stream'] as const)(
    'OpenAI and Responses %s: the second call gets a fresh id',
    async (mode) => {
      const openAiCall = (index: number, city: string) => ({
        index,
        id: 'call_same',
        type: 'function',
        function: { name: 'weather', arguments: JSON.stringify({ city }) },
      });
      const functionCall = (index: number, city: string) => ({
        type: 'function_call',
        id: `fc_${index}`,
        call_id: 'call_same',
        name: 'weather',
        arguments: JSON.stringify({ city }),
      });
      const responses = {
        id: 'resp_1',
        status: 'completed',
        output: [functionCall(0, 'Paris'), functionCall(1, 'Rome')],
      };
      if (mode === 'call') {
        server.reply(
          sendJson({
            choices: [
              {
                index: 0,
                message: { tool_calls: [openAiCall(0, 'Paris'), openAiCall(1, 'Rome')] },
                finish_reason: 'tool_calls',
              },
            ],
          }),
          sendJson(responses),
        );
      } else {
        server.reply(
          sendEvents(
            openAiSse([
              { choices: [{ index: 0, delta: { tool_calls: [openAiCall(0, 'Paris')] } }] },
              { choices: [{ index: 0, delta: { tool_calls: [openAiCall(1, 'Rome')] } }] },
              { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
            ]),
          ),
          sendEvents(
            [
              { type: 'response.created', response: { id: 'resp_1' } },
              ...responses.output.map((item, index) => ({
                type: 'response.output_item.done',
                output_index: index,
                item,
              })),
              { type: 'response.completed', response: responses },
            ]
              .map((event) => `data: ${JSON.stringify(event)}\n\n`)
              .join(''),
          ),
        );
      }
      const chat = new OpenAiChatModel({ baseUrl: `${server.baseUrl}/v1`, apiKey: API_KEY });
      const responsesModel = new OpenAiResponsesChatModel({
        baseUrl: `${server.baseUrl}/v1`,
        apiKey: API_KEY,
      });
      for (const model of [chat, responsesModel]) {
        const response = mode === 'call' ? await model.call(PROMPT) : await streamed(model);
        const ids = response.results[0]?.output.toolCalls.map((call) => call.id) ?? [];
        expect(ids).toHaveLength(2);
        expect(ids[0]).toBe('call_same');
        expect(ids[1]).not.toBe('call_same');
      }
    },
  );
});

describe('negative token counts', () => {
  it.each(['call', 'stream'] as const)(
    'Anthropic and OpenAI %s: a negative count is absent, never subtracted from the others',
    async (mode) => {
      const anthropicUsage = { input_tokens: 10, output_tokens: -5, cache_read_input_tokens: -1 };
      const openAiUsage = {
        prompt_tokens: -3,
        completion_tokens: 4,
        total_tokens: -1,
        prompt_tokens_details: { cached_tokens: -2 },
      };
      const anthropicEvents = [
        { type: 'message_start', message: { id: 'msg_1', usage: anthropicUsage } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Hi' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: anthropicUsage },
        { type: 'message_stop' },
      ];
      const openAiAnswer = {
        choices: [{ index: 0, message: { content: 'Hi' }, finish_reason: 'stop' }],
        usage: openAiUsage,
      };
      if (mode === 'call') {
        server.reply(
          sendJson({
            id: 'msg_1',
            type: 'message',
            content: [{ type: 'text', text: 'Hi' }],
            stop_reason: 'end_turn',
            usage: anthropicUsage,
          }),
          sendJson(openAiAnswer),
        );
      } else {
        server.reply(
          sendEvents(anthropicSse(anthropicEvents)),
          sendEvents(
            openAiSse([
              { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] },
              { choices: [], usage: openAiUsage },
            ]),
          ),
        );
      }
      const anthropic = new AnthropicChatModel({ baseUrl: server.baseUrl, apiKey: API_KEY });
      const openai = new OpenAiChatModel({ baseUrl: `${server.baseUrl}/v1`, apiKey: API_KEY });
      const usages = [];
      for (const model of [anthropic, openai]) {
        const response = mode === 'call' ? await model.call(PROMPT) : await streamed(model);
        usages.push(response.metadata.usage);
      }
      expect(usages).toEqual([
        { promptTokens: 10, completionTokens: 0, totalTokens: 10 },
        { promptTokens: 0, completionTokens: 4, totalTokens: 4 },
      ]);
    },
  );
});
