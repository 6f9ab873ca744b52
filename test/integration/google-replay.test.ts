import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatModelRegistry, chatClientFromConfig, loadConfig } from '../../src/config/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import {
  ChatClient,
  CONVERSATION_ID,
  HIGHEST_PRECEDENCE,
  jsonSchema,
  type Message,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  tool,
} from '../../src/index.js';
import { SqliteChatMemoryRepository } from '../../src/memory/sqlite/index.js';
import { FixtureHttpServer, sendEvents, sendJson } from './support/fixture-http-server.js';
import { fixtureText, frameChunksAsSse } from './support/provider-fixtures.js';

// GoogleChatModel in the whole ChatClient tool loop, against recorded Gemini 3 traffic served
// over real HTTP. Gemini 3 refuses a second round whose function calls come back without the
// thought signatures it gave them; what matters is on the wire: the request after the tool round
// carries each call with its signature, exactly, and the results in the calls' order.

const API_KEY = 'AIza-replay-SECRET-0123456789abcdef';
const DIR = 'google-gemini';

const stream = (file: string) =>
  sendEvents(frameChunksAsSse(fixtureText(`${DIR}/${file}`), 'data'), 7);
const body = (file: string) => JSON.parse(fixtureText(`${DIR}/${file}`)) as Record<string, unknown>;

/** The parts of the first candidate of every line of a recorded stream, in order. */
function recordedParts(file: string): Record<string, unknown>[] {
  return fixtureText(`${DIR}/${file}`)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap(
      (line) =>
        (JSON.parse(line) as { candidates: { content: { parts: Record<string, unknown>[] } }[] })
          .candidates[0]?.content.parts ?? [],
    );
}

function weatherTool() {
  const runs: unknown[] = [];
  const callback = tool({
    name: 'weather',
    description: 'The weather in a location',
    inputSchema: jsonSchema<{ location: string }>({
      type: 'object',
      properties: { location: { type: 'string' } },
      required: ['location'],
    }),
    execute: (input) => {
      runs.push(input);
      return `Sunny in ${input.location}`;
    },
  });
  return { callback, runs };
}

type Content = { role: string; parts: Record<string, unknown>[] };
const contentsOf = (request: { body: unknown } | undefined): Content[] =>
  (request?.body as { contents?: Content[] } | undefined)?.contents ?? [];

let server: FixtureHttpServer;
const directory = mkdtempSync(join(tmpdir(), 'toolloop-google-replay-'));
beforeEach(async () => {
  server = new FixtureHttpServer();
  await server.start();
});
afterEach(() => server.stop());
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('Gemini in the tool loop, over recorded traffic', () => {
  it.each([
    ['stream', 'google-tool-call-gemini3.chunks.txt'],
    ['call', 'google-tool-call-gemini3.json'],
  ] as const)(
    '%s: a Gemini 3 two-round conversation sends the thought signature back with its call',
    async (mode, file) => {
      server.reply(
        mode === 'stream' ? stream(file) : sendJson(body(file)),
        mode === 'stream'
          ? stream('google-reasoning-gemini3.chunks.txt')
          : sendJson(body('google-reasoning-gemini3.json')),
      );
      const { callback, runs } = weatherTool();
      const model = new GoogleChatModel({
        baseUrl: server.baseUrl,
        apiKey: API_KEY,
        model: 'gemini-3-pro-preview',
      });
      const spec = ChatClient.create(model).prompt('Weather in San Francisco?').tools(callback);
      let answer = '';
      if (mode === 'stream') {
        for await (const delta of spec.stream().content()) answer += delta;
      } else {
        const response = await spec.call().chatResponse();
        answer = response?.results[0]?.output.text ?? '';
        expect(response?.metadata.usage?.reasoningTokens).toBeGreaterThan(0);
      }
      expect(answer).toContain('strawberry');
      expect(runs).toEqual([{ location: 'San Francisco' }]);
      expect(server.requests).toHaveLength(2);
      const method = mode === 'stream' ? 'streamGenerateContent?alt=sse' : 'generateContent';
      for (const request of server.requests) {
        expect(request.url).toBe(`/v1beta/models/gemini-3-pro-preview:${method}`);
        expect(request.headers['x-goog-api-key']).toBe(API_KEY);
        expect(request.url).not.toContain(API_KEY);
      }

      const recorded =
        mode === 'stream'
          ? recordedParts(file).find((part) => part.functionCall)
          : (body(file) as { candidates: { content: { parts: Record<string, unknown>[] } }[] })
              .candidates[0]?.content.parts[0];
      expect(typeof recorded?.thoughtSignature).toBe('string');
      expect(contentsOf(server.requests[1])).toEqual([
        { role: 'user', parts: [{ text: 'Weather in San Francisco?' }] },
        {
          role: 'model',
          parts: [
            {
              functionCall: { name: 'weather', args: { location: 'San Francisco' } },
              thoughtSignature: recorded?.thoughtSignature,
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                name: 'weather',
                response: { output: 'Sunny in San Francisco' },
              },
            },
          ],
        },
      ]);
    },
  );

  it('four parallel calls (one without arguments): results go back in call order, the signature on the first call', async () => {
    server.reply(
      stream('google-stream-no-args-tool-call.chunks.txt'),
      stream('google-text.chunks.txt'),
    );
    const order: string[] = [];
    const readTheme = tool({
      name: 'read_theme',
      description: 'Reads the theme',
      inputSchema: { type: 'object' },
      execute: async () => {
        // Slower than the screens: completes last, is still answered first.
        await new Promise((resolve) => setTimeout(resolve, 30));
        order.push('theme');
        return 'dark';
      },
    });
    const readScreen = tool({
      name: 'read_screen',
      description: 'Reads a screen',
      inputSchema: jsonSchema<{ id: string }>({
        type: 'object',
        properties: { id: { type: 'string' } },
        required: ['id'],
      }),
      execute: (input) => {
        order.push(input.id);
        return `screen ${input.id}`;
      },
    });
    const model = new GoogleChatModel({ baseUrl: `${server.baseUrl}/v1beta`, apiKey: API_KEY });
    let answer = '';
    for await (const delta of ChatClient.create(model)
      .prompt('Read the theme, then screens A, B and C.')
      .tools(readTheme, readScreen)
      .stream()
      .content())
      answer += delta;
    expect(answer).toContain('strawberry');
    expect(order.at(-1)).toBe('theme');
    const [, modelTurn, results] = contentsOf(server.requests[1]);
    const signature = recordedParts('google-stream-no-args-tool-call.chunks.txt').find(
      (part) => part.thoughtSignature,
    )?.thoughtSignature;
    expect(modelTurn?.parts).toEqual([
      { text: expect.stringContaining('Processing User Requests'), thought: true },
      { functionCall: { name: 'read_theme', args: {} }, thoughtSignature: signature },
      { functionCall: { name: 'read_screen', args: { id: 'A' } } },
      { functionCall: { name: 'read_screen', args: { id: 'B' } } },
      { functionCall: { name: 'read_screen', args: { id: 'C' } } },
    ]);
    expect(results?.parts.map((part) => part.functionResponse)).toEqual([
      { name: 'read_theme', response: { output: 'dark' } },
      { name: 'read_screen', response: { output: 'screen A' } },
      { name: 'read_screen', response: { output: 'screen B' } },
      { name: 'read_screen', response: { output: 'screen C' } },
    ]);
  });

  it('keeps call ids and signatures through SQLite chat memory across a restart, and sends them on the next turn', async () => {
    server.reply(
      stream('google-tool-call-gemini3.chunks.txt'),
      stream('google-reasoning-gemini3.chunks.txt'),
      stream('google-text.chunks.txt'),
    );
    const file = join(directory, 'memory.db');
    const { callback } = weatherTool();
    const model = new GoogleChatModel({ baseUrl: server.baseUrl, apiKey: API_KEY });
    const clientOn = (database: Database.Database) =>
      ChatClient.create(model, {
        tools: [callback],
        advisors: [
          new MessageChatMemoryAdvisor({
            chatMemory: new MessageWindowChatMemory({
              repository: new SqliteChatMemoryRepository({ database }),
              maxMessages: 100,
            }),
            order: HIGHEST_PRECEDENCE + 400,
          }),
        ],
      });
    const conversation = (a: { param(key: string, value: unknown): unknown }) =>
      a.param(CONVERSATION_ID, 'gemini-restart');
    const drain = async (client: ChatClient, text: string) => {
      let answer = '';
      for await (const delta of client.prompt(text).advisors(conversation).stream().content())
        answer += delta;
      return answer;
    };

    const first = new Database(file);
    await drain(clientOn(first), 'Weather in San Francisco?');
    first.close();

    const second = new Database(file);
    const stored = await new SqliteChatMemoryRepository({ database: second }).findByConversationId(
      'gemini-restart',
    );
    const round = stored.find(
      (message): message is Extract<Message, { role: 'assistant' }> =>
        message.role === 'assistant' && message.toolCalls.length > 0,
    );
    const results = stored.find((message) => message.role === 'tool');
    const [call] = round?.toolCalls ?? [];
    expect(call?.id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(results?.role === 'tool' && results.responses[0]?.id).toBe(call?.id);
    const recorded = recordedParts('google-tool-call-gemini3.chunks.txt')[0]?.thoughtSignature;
    expect(call?.metadata?.thoughtSignature).toBe(recorded);
    // The final answer's signature, on the empty part it came on.
    const answer = stored.at(-1) as Extract<Message, { role: 'assistant' }>;
    expect(answer.metadata?.geminiParts).toEqual([
      { kind: 'text', length: answer.text?.length },
      { kind: 'text', length: 0, thoughtSignature: expect.any(String) },
    ]);

    await drain(clientOn(second), 'And tomorrow?');
    second.close();
    const nextTurn = contentsOf(server.requests[2]);
    expect(nextTurn[1]?.parts[0]).toEqual({
      functionCall: { name: 'weather', args: { location: 'San Francisco' } },
      thoughtSignature: recorded,
    });
    expect(nextTurn.at(-2)?.parts.at(-1)).toEqual({
      text: '',
      thoughtSignature: (
        answer.metadata?.geminiParts as { thoughtSignature?: string }[] | undefined
      )?.[1]?.thoughtSignature,
    });
    expect(nextTurn.at(-1)).toEqual({ role: 'user', parts: [{ text: 'And tomorrow?' }] });
  });

  it('is created by the registry (google:<model>) and by a Spring AI configuration (google-genai)', async () => {
    server.reply(stream('google-text.chunks.txt'), sendJson(body('google-text.json')));
    const model = await new ChatModelRegistry().create('google:gemini-3-pro-preview', {
      baseUrl: server.baseUrl,
      apiKey: API_KEY,
    });
    expect(model).toBeInstanceOf(GoogleChatModel);
    let text = '';
    for await (const delta of ChatClient.create(model).prompt('Count the r').stream().content())
      text += delta;
    expect(text).toContain('strawberry');

    const config = await loadConfig({
      env: {
        SPRING_AI_MODEL_CHAT: 'google-genai',
        SPRING_AI_GOOGLE_GENAI_API_KEY: API_KEY,
        SPRING_AI_GOOGLE_GENAI_BASE_URL: server.baseUrl,
        SPRING_AI_GOOGLE_GENAI_CHAT_OPTIONS_MODEL: 'gemini-3-pro-preview',
      },
    });
    const built = await chatClientFromConfig(config, { env: {} });
    expect(built.chatModel).toBeInstanceOf(GoogleChatModel);
    expect(await built.client.prompt('Count the r').call().content()).toContain('strawberry');
    expect(server.requests[1]?.url).toBe('/v1beta/models/gemini-3-pro-preview:generateContent');
    await built.close();
  });
});
