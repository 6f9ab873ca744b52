import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { ChatModelError } from '../../src/errors/index.js';
import { type Message, toolResponseMessage, userMessage } from '../../src/messages/index.js';
import { aggregateChatResponses, type ChatResponse, type Prompt } from '../../src/model/index.js';
import type { ToolCallback } from '../../src/tools/tool-callback.js';
import {
  FixtureHttpServer,
  type FixtureReply,
  sendEvents,
  sendJson,
} from './support/fixture-http-server.js';
import { fixtureText, frameChunksAsSse } from './support/provider-fixtures.js';

const DIR = 'anthropic-messages';
const API_KEY = 'sk-ant-replay-test-key-0123456789';

/** The tool of the recorded anthropic-sdk-python tool-runner transcripts, as they sent it. */
const getWeather: ToolCallback = {
  definition: {
    name: 'get_weather',
    description: 'Lookup the weather for a given city in either celsius or fahrenheit',
    inputSchema: {
      additionalProperties: false,
      properties: {
        location: {
          description: 'The city and state, e.g. San Francisco, CA',
          title: 'Location',
          type: 'string',
        },
        units: {
          description: "Unit for the output, either 'c' for celsius or 'f' for fahrenheit",
          enum: ['c', 'f'],
          title: 'Units',
          type: 'string',
        },
      },
      required: ['location', 'units'],
      type: 'object',
    },
  },
  metadata: {},
  call: async () => '',
};

const simplePrompt: Prompt = {
  messages: [userMessage('Go')],
  options: { toolCallbacks: [getWeather] },
};

interface Transcript {
  request: { body: Record<string, unknown> };
  response: { status_code: number; headers: Record<string, string>; body: unknown };
}

function readTranscript(file: string): Transcript[] {
  return JSON.parse(fixtureText(`${DIR}/${file}`)) as Transcript[];
}

/** Serves a recorded HTTP response: its status, its content type and its body bytes. */
function replay(entry: Transcript): FixtureReply {
  const { body, status_code: status, headers } = entry.response;
  if (typeof body === 'string') return sendEvents(body, 9);
  const kept: Record<string, string> = {};
  for (const name of ['x-should-retry', 'request-id']) {
    if (headers[name] !== undefined) kept[name] = headers[name];
  }
  return sendJson(body, status, kept);
}

/** A recorded request body with the fields only the recording SDK adds (`caller`) removed. */
function recordedMessages(entry: Transcript): unknown {
  return JSON.parse(JSON.stringify(entry.request.body.messages), (key, value) =>
    key === 'caller' ? undefined : value,
  );
}

async function collect(stream: AsyncIterable<ChatResponse>): Promise<ChatResponse[]> {
  const chunks: ChatResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** Splits a VAI multi-message chunk file at each `message_start` that follows a `message_stop`. */
function splitMessages(text: string): string[] {
  const messages: string[][] = [];
  let stopped = true;
  for (const line of text.split('\n').filter((entry) => entry.trim() !== '')) {
    const type = (JSON.parse(line) as { type: string }).type;
    if (type === 'message_start' && stopped) messages.push([]);
    if (type === 'message_start') stopped = false;
    if (type === 'message_stop') stopped = true;
    messages[messages.length - 1]?.push(line);
  }
  return messages.map((lines) => lines.join('\n'));
}

describe('Anthropic Messages replay over HTTP', () => {
  let server: FixtureHttpServer;
  let model: AnthropicChatModel;

  beforeEach(async () => {
    server = new FixtureHttpServer();
    await server.start();
    model = new AnthropicChatModel({
      baseUrl: server.baseUrl,
      apiKey: API_KEY,
      model: 'claude-haiku-4-5',
      maxTokens: 1024,
    });
  });
  afterEach(() => server.stop());

  it.each([
    ['b38bbf6c-9a76-40ca-b09d-7a3911776e0f.json', false],
    ['771c64ff-a0af-4cd9-8080-a5a539da7cb9.json', true],
    ['10e53c1d-51be-4c64-b5bf-99adb3fa4719.json', false],
  ])(
    'runs the recorded two-call tool loop %s and sends exactly the recorded requests',
    async (file, stream) => {
      const transcript = readTranscript(file);
      server.reply(...transcript.map(replay));
      const isError = file.startsWith('10e53c1d');
      const toolResult = isError
        ? "RuntimeError('Unexpected error, try again')"
        : '{"location": "San Francisco, CA", "temperature": "68\\u00b0F", "condition": "Sunny"}';
      const messages: Message[] = [userMessage('What is the weather in SF?')];
      const send = async (): Promise<ChatResponse> =>
        stream
          ? aggregateChatResponses(
              await collect(model.stream({ messages, options: { toolCallbacks: [getWeather] } })),
            )
          : model.call({ messages, options: { toolCallbacks: [getWeather] } });

      const first = await send();
      const assistant = first.results[0]!.output;
      expect(first.results[0]!.metadata.finishReason).toBe('tool_calls');
      expect(assistant.toolCalls).toHaveLength(1);
      const call = assistant.toolCalls[0]!;
      expect(call.name).toBe('get_weather');
      expect(JSON.parse(call.arguments)).toEqual({ location: 'San Francisco, CA', units: 'f' });
      expect(first.metadata.usage).toEqual({
        promptTokens: 656,
        completionTokens: 74,
        totalTokens: 730,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      });
      messages.push(
        assistant,
        toolResponseMessage([
          {
            id: call.id,
            name: call.name,
            responseData: toolResult,
            ...(isError ? { isError: true } : {}),
          },
        ]),
      );
      const second = await send();
      expect(second.results[0]!.metadata.finishReason).toBe('stop');
      expect(second.results[0]!.output.toolCalls).toEqual([]);
      expect(second.results[0]!.output.text).toMatch(isError ? /error/ : /68°F/);

      expect(server.requests).toHaveLength(2);
      transcript.forEach((entry, index) => {
        const sent = server.requests[index]!;
        expect(sent.url).toBe('/v1/messages');
        expect(sent.headers['x-api-key']).toBe(API_KEY);
        expect(sent.headers['anthropic-version']).toBe('2023-06-01');
        const body = sent.body as Record<string, unknown>;
        expect(body.messages).toEqual(recordedMessages(entry));
        expect(body.tools).toEqual(entry.request.body.tools);
        expect(body.max_tokens).toBe(entry.request.body.max_tokens);
        expect(body.model).toBe(entry.request.body.model);
        expect(body.stream).toBe(entry.request.body.stream);
      });
    },
  );

  it('turns the recorded HTTP 400 (orphan tool_result) into a non-retryable ChatModelError', async () => {
    const transcript = readTranscript('f59a9391-643b-422c-96dc-1f28bc7ea4d7.json');
    server.reply(replay(transcript[1]!), replay(transcript[1]!));
    const error = await model.call(simplePrompt).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChatModelError);
    expect(error).toMatchObject({ provider: 'anthropic', status: 400, retryable: false });
    expect((error as Error).message).toContain(
      'unexpected `tool_use_id` found in `tool_result` blocks',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('streams tool_use_response.txt: text deltas, then the whole fragmented call', async () => {
    // The SDK's fixture file ends without the blank line that ends its last event (message_stop)
    // on the wire; it is served as the API sends it.
    server.reply(sendEvents(`${fixtureText(`${DIR}/tool_use_response.txt`)}\n\n`, 11));
    const chunks = await collect(model.stream(simplePrompt));
    const texts = chunks
      .map((chunk) => chunk.results[0]?.output.text)
      .filter((text) => text != null);
    expect(texts).toEqual(['I', "'ll check the current weather in Paris for you."]);
    const response = aggregateChatResponses(chunks);
    expect(response.results[0]!.output.toolCalls).toEqual([
      {
        id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn',
        name: 'get_weather',
        arguments: '{"location":"Paris"}',
      },
    ]);
    expect(response.results[0]!.metadata.finishReason).toBe('tool_calls');
    expect(response.metadata).toEqual({
      id: 'msg_019Q1hrJbZG26Fb9BQhrkHEr',
      model: 'claude-sonnet-4-20250514',
      usage: {
        promptTokens: 377,
        completionTokens: 65,
        totalTokens: 442,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      },
    });
  });

  it('takes tool_use_response.txt served as stored, whose last event (message_stop) has no blank line after it', async () => {
    server.reply(sendEvents(fixtureText(`${DIR}/tool_use_response.txt`), 11));
    const response = aggregateChatResponses(await collect(model.stream(simplePrompt)));
    expect(response.results[0]!.output.toolCalls).toEqual([
      {
        id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn',
        name: 'get_weather',
        arguments: '{"location":"Paris"}',
      },
    ]);
    expect(response.results[0]!.metadata.finishReason).toBe('tool_calls');
  });

  it('runs no call of tool_use_response.txt cut inside its last event', async () => {
    const text = fixtureText(`${DIR}/tool_use_response.txt`);
    // Cut within message_stop's JSON: the answer never said it was complete.
    server.reply(sendEvents(text.slice(0, text.length - 5), 11));
    const response = aggregateChatResponses(await collect(model.stream(simplePrompt)));
    expect(response.results[0]!.output.toolCalls[0]?.metadata).toEqual({ truncated: true });
  });

  it('marks the call cut off by max_tokens as truncated (incomplete_partial_json_response.txt)', async () => {
    server.reply(sendEvents(fixtureText(`${DIR}/incomplete_partial_json_response.txt`)));
    const response = aggregateChatResponses(await collect(model.stream(simplePrompt)));
    const generation = response.results[0]!;
    expect(generation.metadata.finishReason).toBe('length');
    expect(generation.output.text).toBe(
      "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called taxes.txt. Let me do that for you now.",
    );
    expect(generation.output.toolCalls).toHaveLength(1);
    const call = generation.output.toolCalls[0]!;
    expect(call).toMatchObject({
      id: 'toolu_01EKqbqmZrGRXy18eN7m9kvY',
      name: 'make_file',
      metadata: { truncated: true },
    });
    expect(call.arguments.startsWith('{"filename": "taxes.txt", "lines_of_text": [')).toBe(true);
    expect(() => JSON.parse(call.arguments)).toThrow();
    expect(response.metadata.usage).toMatchObject({ promptTokens: 450, completionTokens: 124 });
  });

  it('streams a no-argument call (input_json_delta "") as "{}" beside text, ignoring pings', async () => {
    server.reply(
      sendEvents(
        frameChunksAsSse(fixtureText(`${DIR}/anthropic-tool-no-args.chunks.txt`), 'anthropic'),
      ),
    );
    const response = aggregateChatResponses(await collect(model.stream(simplePrompt)));
    expect(response.results[0]!.output).toEqual({
      role: 'assistant',
      text: "I'll update the issue list for you.",
      toolCalls: [
        { id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: '{}' },
      ],
    });
    expect(response.metadata.usage).toEqual({
      promptTokens: 565,
      completionTokens: 48,
      totalTokens: 613,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('streams nested-array input split in three deltas (anthropic-json-tool.1)', async () => {
    server.reply(
      sendEvents(
        frameChunksAsSse(fixtureText(`${DIR}/anthropic-json-tool.1.chunks.txt`), 'anthropic'),
      ),
    );
    const response = aggregateChatResponses(await collect(model.stream(simplePrompt)));
    const call = response.results[0]!.output.toolCalls[0]!;
    expect(call.name).toBe('json');
    expect(JSON.parse(call.arguments)).toEqual({
      elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }],
    });
  });

  it('keeps MCP connector blocks as server blocks, never as calls to execute (anthropic-mcp.1)', async () => {
    server.reply(
      sendEvents(frameChunksAsSse(fixtureText(`${DIR}/anthropic-mcp.1.chunks.txt`), 'anthropic')),
    );
    const response = aggregateChatResponses(await collect(model.stream(simplePrompt)));
    const output = response.results[0]!.output;
    expect(output.toolCalls).toEqual([]);
    expect(response.results[0]!.metadata.finishReason).toBe('stop');
    expect(output.text).toBe(
      'The echo tool responded back with: **hello world**\n\nIt simply echoed back the exact message that was sent to it.',
    );
    expect(output.metadata?.serverToolBlocks).toEqual([
      {
        type: 'mcp_tool_use',
        id: 'mcptoolu_017CuqaJcXe5ZHJjaz3KS1AT',
        name: 'echo',
        input: { message: 'hello world' },
        server_name: 'echo',
      },
      {
        type: 'mcp_tool_result',
        tool_use_id: 'mcptoolu_017CuqaJcXe5ZHJjaz3KS1AT',
        is_error: false,
        content: [{ type: 'text', text: 'Tool echo: hello world' }],
      },
    ]);
  });

  it('restarts on a spliced second message_start: only the second message counts', async () => {
    server.reply(
      sendEvents(
        frameChunksAsSse(fixtureText(`${DIR}/spliced-message-start.chunks.txt`), 'anthropic'),
      ),
    );
    const chunks = await collect(model.stream(simplePrompt));
    const response = aggregateChatResponses(chunks);
    expect(response.results[0]!.output.toolCalls).toEqual([
      { id: 'toolu_second', name: 'test-tool', arguments: '{"value":"Sparkle Day"}' },
    ]);
    expect(response.results[0]!.output.metadata?.thinking).toEqual([
      { type: 'thinking', thinking: 'Let me call the tool.', signature: 'sig-second' },
    ]);
    expect(response.metadata.id).toBe('msg_second');
    const allCalls = chunks.flatMap((chunk) => chunk.results[0]?.output.toolCalls ?? []);
    expect(allCalls.map((call) => call.id)).toEqual(['toolu_second']);
  });

  it('replays the three-message tool-search run, one HTTP response per step', async () => {
    const steps = splitMessages(
      fixtureText(`${DIR}/anthropic-tool-search-deferred-bm25.chunks.txt`),
    );
    expect(steps).toHaveLength(3);
    server.reply(...steps.map((step) => sendEvents(frameChunksAsSse(step, 'anthropic'))));
    const responses: ChatResponse[] = [];
    for (let step = 0; step < 3; step++) {
      responses.push(aggregateChatResponses(await collect(model.stream(simplePrompt))));
    }
    const [first, second, third] = responses.map((response) => response.results[0]!);
    expect(first!.metadata.finishReason).toBe('tool_calls');
    expect(first!.output.toolCalls.map((call) => call.name)).toEqual(['readNoteTree']);
    expect(first!.output.metadata?.serverToolBlocks).toMatchObject([
      {
        type: 'server_tool_use',
        name: 'tool_search_tool_bm25',
        input: { query: 'add bullet point insert text editor', limit: 5 },
      },
    ]);
    expect(second!.metadata.finishReason).toBe('tool_calls');
    expect(second!.output.toolCalls.map((call) => call.name)).toEqual(['executeEditorOperation']);
    expect(second!.output.metadata?.serverToolBlocks).toMatchObject([
      { type: 'tool_search_tool_result' },
    ]);
    expect(third!.metadata.finishReason).toBe('stop');
    expect(third!.output.toolCalls).toEqual([]);
    expect(third!.output.text).toContain('The operation was successful!');
  });

  it.each([
    ['anthropic-tool-no-args.json', 'updateIssueList', {}],
    ['anthropic-json-tool.1.json', 'json', undefined],
    ['anthropic-tool-search-deferred-bm25.2.json', 'executeEditorOperation', undefined],
  ])('parses the non-streamed body %s', async (file, name, input) => {
    const body = JSON.parse(fixtureText(`${DIR}/${file}`)) as {
      content: { type: string; input?: unknown; id?: string }[];
    };
    server.reply(sendJson(body));
    const response = await model.call(simplePrompt);
    const generation = response.results[0]!;
    expect(generation.metadata.finishReason).toBe('tool_calls');
    const recorded = body.content.filter((block) => block.type === 'tool_use');
    expect(generation.output.toolCalls).toEqual(
      recorded.map((block) => ({ id: block.id, name, arguments: JSON.stringify(block.input) })),
    );
    if (input) expect(JSON.parse(generation.output.toolCalls[0]!.arguments)).toEqual(input);
    expect(server.requests[0]?.body).not.toHaveProperty('stream');
  });

  it('parses the non-streamed MCP body without client calls', async () => {
    server.reply(sendJson(fixtureText(`${DIR}/anthropic-mcp.1.json`)));
    const response = await model.call(simplePrompt);
    expect(response.results[0]!.output.toolCalls).toEqual([]);
    expect(response.results[0]!.output.metadata?.serverToolBlocks).toHaveLength(2);
    expect(response.metadata.usage).toMatchObject({ promptTokens: 1250, completionTokens: 88 });
  });
});
