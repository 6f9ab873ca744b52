import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { ChatClient } from '../../src/client/index.js';
import { tool } from '../../src/tools/tool.js';
import {
  FixtureHttpServer,
  type FixtureReply,
  sendEvents,
  sendJson,
} from './support/fixture-http-server.js';
import { fixtureText } from './support/provider-fixtures.js';

// The whole ChatClient tool loop against real recorded provider traffic: the recorded
// anthropic-sdk-python tool-runner transcripts (two HTTP calls each) are served over HTTP, the
// auto-registered ToolCallingAdvisor executes the tool, and the request that carries the tool
// result must be exactly the recorded one.

interface Transcript {
  request: { body: Record<string, unknown> };
  response: { status_code: number; body: unknown };
}

function replay(entry: Transcript): FixtureReply {
  const { body, status_code: status } = entry.response;
  return typeof body === 'string' ? sendEvents(body, 7) : sendJson(body, status);
}

/** The recorded messages without `caller`, a field only the recording SDK adds. */
function recordedMessages(entry: Transcript | undefined): unknown {
  return JSON.parse(JSON.stringify(entry?.request.body.messages), (key, value) =>
    key === 'caller' ? undefined : value,
  );
}

const WEATHER_JSON =
  '{"location": "San Francisco, CA", "temperature": "68\\u00b0F", "condition": "Sunny"}';

describe('ChatClient tool loop over recorded Anthropic traffic', () => {
  let server: FixtureHttpServer;

  beforeEach(async () => {
    server = new FixtureHttpServer();
    await server.start();
  });
  afterEach(() => server.stop());

  it.each([
    ['b38bbf6c-9a76-40ca-b09d-7a3911776e0f.json', 'call'],
    ['771c64ff-a0af-4cd9-8080-a5a539da7cb9.json', 'stream'],
  ] as const)(
    '%s (%s): 2 HTTP calls, the tool executed once, the recorded follow-up request',
    async (file, mode) => {
      const transcript = JSON.parse(fixtureText(`anthropic-messages/${file}`)) as Transcript[];
      server.reply(...transcript.map(replay));
      const calls: unknown[] = [];
      const getWeather = tool({
        name: 'get_weather',
        description: 'Lookup the weather for a given city in either celsius or fahrenheit',
        inputSchema: {
          type: 'object',
          properties: {
            location: {
              type: 'string',
              description: 'The city and state, e.g. San Francisco, CA',
            },
            units: { type: 'string', enum: ['c', 'f'] },
          },
          required: ['location', 'units'],
        },
        execute: (input) => {
          calls.push(input);
          return WEATHER_JSON;
        },
      });
      const model = new AnthropicChatModel({
        baseUrl: server.baseUrl,
        apiKey: 'sk-ant-replay-test-key-0123456789',
        model: 'claude-haiku-4-5',
        maxTokens: 1024,
      });
      const spec = ChatClient.create(model).prompt('What is the weather in SF?').tools(getWeather);

      let answer = '';
      if (mode === 'call') {
        const response = await spec.call().chatResponse();
        answer = response?.results[0]?.output.text ?? '';
        // Usage is summed over both rounds.
        const usage = response?.metadata.usage;
        expect(usage?.promptTokens).toBeGreaterThan(656);
      } else {
        for await (const delta of spec.stream().content()) answer += delta;
      }

      expect(answer).toMatch(/68°F/);
      expect(calls).toEqual([{ location: 'San Francisco, CA', units: 'f' }]);
      expect(server.requests).toHaveLength(2);
      const followUp = server.requests[1]?.body as { messages: unknown };
      expect(followUp.messages).toEqual(recordedMessages(transcript[1]));
    },
  );
});
