import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGoogleExample } from '../../examples/google.js';
import { runOpenAiResponsesExample } from '../../examples/openai-responses.js';
import { FixtureHttpServer, sendEvents, sendJson } from './support/fixture-http-server.js';

// examples/openai-responses.ts and examples/google.ts against a local server speaking each API's
// wire format: two parallel calls the loop runs, then the answer, with call() and with stream().

const ENV_KEYS = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GEMINI_BASE_URL',
];
const AMSTERDAM = { city: 'Amsterdam', temperatureCelsius: 11, conditions: 'Rain' };
const PARIS = { city: 'Paris', temperatureCelsius: 17, conditions: 'Sunny' };
const ANSWER = 'Rain in Amsterdam, sun in Paris.';
const data = (events: unknown[]) =>
  events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');

describe('the Responses and Gemini examples against a local provider', () => {
  let server: FixtureHttpServer;
  const saved: Record<string, string | undefined> = {};
  beforeEach(async () => {
    for (const key of ENV_KEYS) {
      saved[key] = process.env[key];
      delete process.env[key];
    }
    server = new FixtureHttpServer();
    await server.start();
  });
  afterEach(async () => {
    for (const key of ENV_KEYS) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    await server.stop();
  });

  it('say they are skipped without keys', async () => {
    const lines: string[] = [];
    expect(await runOpenAiResponsesExample((line) => lines.push(line))).toBe(false);
    expect(await runGoogleExample((line) => lines.push(line))).toBe(false);
    expect(lines).toEqual([
      'skipped: set OPENAI_API_KEY to run this example',
      'skipped: set GEMINI_API_KEY to run this example',
    ]);
  });

  it('Responses: the reasoning item goes back with both results, call and stream', async () => {
    process.env.OPENAI_API_KEY = 'sk-local-0123456789';
    process.env.OPENAI_BASE_URL = `${server.baseUrl}/v1`;
    const reasoning = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Both cities at once.' }],
      encrypted_content: 'gAAAA-local',
    };
    const calls = [
      {
        type: 'function_call',
        id: 'fc_a',
        call_id: 'call_a',
        name: 'current_weather',
        arguments: '{"city":"Amsterdam"}',
      },
      {
        type: 'function_call',
        id: 'fc_p',
        call_id: 'call_p',
        name: 'current_weather',
        arguments: '{"city":"Paris"}',
      },
    ];
    const usage = {
      input_tokens: 20,
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 24 },
    };
    const message = {
      type: 'message',
      id: 'msg_1',
      content: [{ type: 'output_text', text: ANSWER }],
    };
    const completed = (output: unknown[]) => ({
      type: 'response.completed',
      response: { id: 'resp_s', status: 'completed', output, usage },
    });
    server.reply(
      sendJson({ id: 'resp_1', status: 'completed', output: [reasoning, ...calls], usage }),
      sendJson({ id: 'resp_2', status: 'completed', output: [message], usage }),
      sendEvents(
        data([
          { type: 'response.created', response: { id: 'resp_s' } },
          ...[reasoning, ...calls].map((item, index) => ({
            type: 'response.output_item.done',
            output_index: index,
            item,
          })),
          completed([]),
        ]),
      ),
      sendEvents(
        data([
          { type: 'response.created', response: { id: 'resp_t' } },
          { type: 'response.output_text.delta', output_index: 0, delta: 'Rain in Amsterdam, ' },
          { type: 'response.output_text.delta', output_index: 0, delta: 'sun in Paris.' },
          completed([message]),
        ]),
      ),
    );
    const lines: string[] = [];
    expect(await runOpenAiResponsesExample((line) => lines.push(line))).toBe(true);
    expect(lines).toEqual([
      `call(): ${ANSWER}`,
      'tokens: 60 out, 48 of them reasoning',
      `stream(): ${ANSWER}`,
    ]);
    for (const index of [1, 3]) {
      const input = (server.requests[index]!.body as { input: Record<string, unknown>[] }).input;
      expect(input[1]).toEqual(reasoning);
      const results = input.filter((item) => item.type === 'function_call_output');
      expect(results.map((item) => [item.call_id, JSON.parse(String(item.output))])).toEqual([
        ['call_a', AMSTERDAM],
        ['call_p', PARIS],
      ]);
    }
  });

  it('Gemini: the signed first call goes back with its signature, results in call order, call and stream', async () => {
    process.env.GEMINI_API_KEY = 'AIza-local-0123456789';
    process.env.GOOGLE_GEMINI_BASE_URL = server.baseUrl;
    const calls = [
      {
        functionCall: { name: 'current_weather', args: { city: 'Amsterdam' } },
        thoughtSignature: 'U0lHLTE=',
      },
      { functionCall: { name: 'current_weather', args: { city: 'Paris' } } },
    ];
    const candidate = (parts: unknown[], finishReason?: string) => ({
      candidates: [
        { content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) },
      ],
      responseId: `r-${finishReason ?? 'part'}`,
    });
    server.reply(
      sendJson(candidate(calls, 'STOP')),
      sendJson(candidate([{ text: ANSWER }], 'STOP')),
      sendEvents(data([candidate(calls.slice(0, 1)), candidate(calls.slice(1), 'STOP')])),
      sendEvents(
        data([
          candidate([{ text: 'Rain in Amsterdam, ' }]),
          candidate([{ text: 'sun in Paris.' }], 'STOP'),
        ]),
      ),
    );
    const lines: string[] = [];
    expect(await runGoogleExample((line) => lines.push(line))).toBe(true);
    expect(lines.filter((line) => !line.startsWith('schema of'))).toEqual([
      `call(): ${ANSWER}`,
      `stream(): ${ANSWER}`,
    ]);
    expect(server.requests[0]?.url).toBe('/v1beta/models/gemini-3-flash-preview:generateContent');
    for (const index of [1, 3]) {
      const contents = (
        server.requests[index]!.body as {
          contents: { role: string; parts: Record<string, unknown>[] }[];
        }
      ).contents;
      expect(contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
      expect(contents[1]?.parts).toEqual(calls);
      expect(contents[2]?.parts.map((part) => part.functionResponse)).toEqual([
        { name: 'current_weather', response: { output: AMSTERDAM } },
        { name: 'current_weather', response: { output: PARIS } },
      ]);
    }
  });
});
