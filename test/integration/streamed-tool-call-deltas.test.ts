import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { ChatClient } from '../../src/client/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import type { ChatModel } from '../../src/model/index.js';
import type { ToolCallDeltaEvent, TurnEvent } from '../../src/observability/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { tool } from '../../src/tools/tool.js';
import { FixtureHttpServer, sendEvents } from './support/fixture-http-server.js';
import { fixtureText, frameChunksAsSse, responsesStreamsOf } from './support/provider-fixtures.js';

// `.stream().events()` of a whole ChatClient turn against recorded provider streams served over
// real HTTP: the provider's argument pieces reach the reader as tool-call-delta events, before
// the tool-call they add up to, and change nothing of what is sent back to the model.

const OPENAI_KEY = 'sk-deltas-test-0123456789abcdef';
const ANTHROPIC_KEY = 'sk-ant-deltas-test-0123456789abcdef';

interface Transcript {
  request: { body: Record<string, unknown> };
  response: { body: unknown };
}

function openAiFinalAnswer(text: string): string {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'c2', model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return `${chunk({ role: 'assistant', content: text }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`;
}

async function collect(events: AsyncIterable<TurnEvent>): Promise<TurnEvent[]> {
  const collected: TurnEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/**
 * Per complete call of the turn: its deltas are the first events naming its id, the first one
 * has its name, they all come before its tool-call event, and their text adds up to its
 * arguments. Returns the deltas per call id.
 */
function expectDeltasBeforeEachCall(
  events: readonly TurnEvent[],
): Map<string, ToolCallDeltaEvent[]> {
  const byCall = new Map<string, ToolCallDeltaEvent[]>();
  for (const event of events) {
    if (event.type !== 'tool-call-delta') continue;
    const list = byCall.get(event.toolCallId) ?? [];
    list.push(event);
    byCall.set(event.toolCallId, list);
  }
  const toolCalls = events.filter((event) => event.type === 'tool-call');
  expect(toolCalls.length).toBeGreaterThan(0);
  expect([...byCall.keys()]).toEqual(toolCalls.map((event) => event.toolCall.id));
  for (const { toolCall } of toolCalls) {
    const deltas = byCall.get(toolCall.id) ?? [];
    expect(deltas.map((delta) => delta.toolName)).toEqual([
      toolCall.name,
      ...deltas.slice(1).map(() => undefined),
    ]);
    expect(deltas.map((delta) => delta.argumentsDelta).join('')).toBe(toolCall.arguments);
    const callAt = events.findIndex(
      (event) => event.type === 'tool-call' && event.toolCall.id === toolCall.id,
    );
    expect(events.indexOf(deltas.at(-1) as TurnEvent)).toBeLessThan(callAt);
    const firstMention = events.findIndex(
      (event) =>
        ('toolCallId' in event && event.toolCallId === toolCall.id) ||
        (event.type === 'tool-call' && event.toolCall.id === toolCall.id),
    );
    expect(events[firstMention]).toBe(deltas[0]);
  }
  return byCall;
}

let server: FixtureHttpServer;
beforeEach(async () => {
  server = new FixtureHttpServer();
  await server.start();
});
afterEach(() => server.stop());

describe('.stream().events() over recorded streams', () => {
  it('OpenAI: two parallel calls arrive piece by piece, then run; the follow-up request is unchanged', async () => {
    const recorded = fixtureText(
      'openai-chat-completions/f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin.txt',
    );
    server.reply(sendEvents(recorded, 9), sendEvents(openAiFinalAnswer('Edinburgh is cold.')));
    const runs: unknown[] = [];
    const weather = tool({
      name: 'GetWeatherArgs',
      description: 'Weather of a city',
      inputSchema: z.object({ city: z.string(), country: z.string(), units: z.string() }),
      execute: (input) => {
        runs.push(input);
        return 'cold';
      },
    });
    const stock = tool({
      name: 'get_stock_price',
      description: 'Price of a stock',
      inputSchema: z.object({ ticker: z.string(), exchange: z.string() }),
      execute: (input) => {
        runs.push(input);
        return '200';
      },
    });
    const model: ChatModel = new OpenAiChatModel({
      baseUrl: `${server.baseUrl}/v1`,
      apiKey: OPENAI_KEY,
      maxRetries: 0,
    });
    const events = await collect(
      ChatClient.create(model).prompt('Weather and AAPL?').tools(weather, stock).stream().events(),
    );
    const deltas = expectDeltasBeforeEachCall(events);
    expect(deltas.size).toBe(2);
    for (const list of deltas.values()) expect(list.length).toBeGreaterThan(3);
    expect(runs).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'turn-finish', text: 'Edinburgh is cold.' });
    // What goes back to the model is the complete calls, exactly as assembled.
    const followUp = server.requests[1]?.body as { messages: Record<string, unknown>[] };
    const assistant = followUp.messages.find((message) => message.role === 'assistant');
    expect(assistant?.tool_calls).toEqual([
      {
        id: 'call_JMW1whyEaYG438VE1OIflxA2',
        type: 'function',
        function: {
          name: 'GetWeatherArgs',
          arguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}',
        },
      },
      {
        id: 'call_DNYTawLBoN8fj3KN6qU9N1Ou',
        type: 'function',
        function: {
          name: 'get_stock_price',
          arguments: '{"ticker": "AAPL", "exchange": "NASDAQ"}',
        },
      },
    ]);
  });

  it('Anthropic: the recorded streaming tool loop shows its call piece by piece; the follow-up is the recorded one', async () => {
    const transcript = JSON.parse(
      fixtureText('anthropic-messages/771c64ff-a0af-4cd9-8080-a5a539da7cb9.json'),
    ) as Transcript[];
    server.reply(...transcript.map((entry) => sendEvents(entry.response.body as string, 7)));
    const runs: unknown[] = [];
    const getWeather = tool({
      name: 'get_weather',
      description: 'Lookup the weather for a given city in either celsius or fahrenheit',
      inputSchema: {
        type: 'object',
        properties: {
          location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
          units: { type: 'string', enum: ['c', 'f'] },
        },
        required: ['location', 'units'],
      },
      execute: (input) => {
        runs.push(input);
        return '{"location": "San Francisco, CA", "temperature": "68\\u00b0F", "condition": "Sunny"}';
      },
    });
    const model = new AnthropicChatModel({
      baseUrl: server.baseUrl,
      apiKey: ANTHROPIC_KEY,
      model: 'claude-haiku-4-5',
      maxTokens: 1024,
      maxRetries: 0,
    });
    const events = await collect(
      ChatClient.create(model)
        .prompt('What is the weather in SF?')
        .tools(getWeather)
        .stream()
        .events(),
    );
    const deltas = expectDeltasBeforeEachCall(events);
    expect([...deltas.values()][0]?.length).toBeGreaterThan(1);
    expect(runs).toEqual([{ location: 'San Francisco, CA', units: 'f' }]);
    const followUp = server.requests[1]?.body as { messages: unknown };
    const recordedFollowUp = JSON.parse(
      JSON.stringify(transcript[1]?.request.body.messages),
      (key, value) => (key === 'caller' ? undefined : value),
    );
    expect(followUp.messages).toEqual(recordedFollowUp);
  });
});

describe('.stream().events() over hostile streams', () => {
  function deleteFiles() {
    const runs: unknown[] = [];
    const deleteTool = tool({
      name: 'delete_files',
      description: 'Deletes files',
      inputSchema: z.object({ path: z.string().optional() }),
      execute: (input) => {
        runs.push(input);
        return 'deleted';
      },
    });
    return { deleteTool, runs };
  }

  const anthropicEvents = (payloads: { type: string; [key: string]: unknown }[]) =>
    payloads
      .map((payload) => `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`)
      .join('');

  const cutOff: [string, () => ChatModel, string, string][] = [
    [
      'OpenAI: [DONE] inside the arguments',
      () =>
        new OpenAiChatModel({ baseUrl: `${server.baseUrl}/v1`, apiKey: OPENAI_KEY, maxRetries: 0 }),
      `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_a', function: { name: 'delete_files', arguments: '{"pa' } }] }, finish_reason: null }] })}\n\ndata: [DONE]\n\n`,
      openAiFinalAnswer('Nothing was deleted.'),
    ],
    [
      'Anthropic: message_stop while the tool_use block is open',
      () =>
        new AnthropicChatModel({ baseUrl: server.baseUrl, apiKey: ANTHROPIC_KEY, maxRetries: 0 }),
      anthropicEvents([
        { type: 'message_start', message: { id: 'm1', model: 'c', usage: {} } },
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 'toolu_a', name: 'delete_files', input: {} },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: '{"pa' },
        },
        { type: 'message_stop' },
      ]),
      anthropicEvents([
        { type: 'message_start', message: { id: 'm2', model: 'c', usage: {} } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'Nothing was deleted.' },
        },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } },
        { type: 'message_stop' },
      ]),
    ],
  ];

  it.each(cutOff)(
    '%s: the deltas are shown, the cut-off call never runs',
    async (_name, model, first, second) => {
      server.reply(sendEvents(first), sendEvents(second));
      const { deleteTool, runs } = deleteFiles();
      const events = await collect(
        ChatClient.create(model()).prompt('Clean up').tools(deleteTool).stream().events(),
      );
      const deltas = events.filter((event) => event.type === 'tool-call-delta');
      expect(deltas.map((event) => event.argumentsDelta).join('')).toBe('{"pa');
      expect(deltas[0]?.toolName).toBe('delete_files');
      const id = deltas[0]?.toolCallId;
      expect(events.some((event) => event.type === 'tool-execution-start')).toBe(false);
      expect(
        events.find((event) => event.type === 'tool-result' && event.toolCallId === id),
      ).toMatchObject({ outcome: 'not-executed' });
      expect(runs).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: 'turn-finish', text: 'Nothing was deleted.' });
    },
  );

  it('Responses: the calculator call of a reasoning model arrives in its 13 recorded pieces, then runs', async () => {
    const steps = responsesStreamsOf(
      fixtureText('openai-responses/azure-reasoning-encrypted-content.1.chunks.txt'),
    ).map((lines) => sendEvents(frameChunksAsSse(lines, 'data'), 9));
    server.reply(...steps);
    const runs: unknown[] = [];
    const calculator = tool({
      name: 'calculator',
      description: 'Basic arithmetic',
      inputSchema: z.object({ a: z.number(), b: z.number(), op: z.string() }),
      execute: ({ a, b, op }) => {
        runs.push({ a, b, op });
        return op === 'add' ? a + b : a * b;
      },
    });
    const model = new OpenAiResponsesChatModel({
      baseUrl: `${server.baseUrl}/openai/v1`,
      apiKey: OPENAI_KEY,
      maxRetries: 0,
    });
    const events = await collect(
      ChatClient.create(model).prompt('(12 + 7) * 3 * 10?').tools(calculator).stream().events(),
    );
    const deltas = expectDeltasBeforeEachCall(events);
    expect(deltas.size).toBe(3);
    expect([...deltas.values()][0]?.length).toBe(1 + 13);
    expect(runs).toHaveLength(3);
  });

  it('Gemini: four parallel calls, one streamed in pieces by Vertex AI each, arrive before they run', async () => {
    server.reply(
      sendEvents(
        frameChunksAsSse(
          fixtureText('google-gemini/google-stream-no-args-tool-call.chunks.txt'),
          'data',
        ),
      ),
      sendEvents(frameChunksAsSse(fixtureText('google-gemini/google-text.chunks.txt'), 'data')),
    );
    const runs: string[] = [];
    const readTheme = tool({
      name: 'read_theme',
      description: 'Reads the theme',
      inputSchema: z.object({}),
      execute: () => {
        runs.push('theme');
        return 'dark';
      },
    });
    const readScreen = tool({
      name: 'read_screen',
      description: 'Reads a screen',
      inputSchema: z.object({ id: z.string() }),
      execute: ({ id }) => {
        runs.push(id);
        return `screen ${id}`;
      },
    });
    const model = new GoogleChatModel({
      baseUrl: server.baseUrl,
      apiKey: OPENAI_KEY,
      maxRetries: 0,
    });
    const events = await collect(
      ChatClient.create(model)
        .prompt('Theme, then A, B, C')
        .tools(readTheme, readScreen)
        .stream()
        .events(),
    );
    const deltas = expectDeltasBeforeEachCall(events);
    expect(deltas.size).toBe(4);
    expect(runs.sort()).toEqual(['A', 'B', 'C', 'theme']);
  });
});
