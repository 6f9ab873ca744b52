import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPlainRoundTripDemo } from '../../src/demo/plain-round-trip-demo.js';
import { realModelFromEnvironment } from '../../src/demo/run-demo.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { FixtureHttpServer, sendJson } from '../integration/support/fixture-http-server.js';

// `npm start` and `toolloop demo` use a real model when the environment names one, and the
// scripted one otherwise. With a Gemini key the plain scenario runs against the Gemini wire
// format (a local server plays Gemini 3: a signed function call, then the answer).

let server: FixtureHttpServer;
beforeEach(async () => {
  server = new FixtureHttpServer();
  await server.start();
});
afterEach(() => server.stop());

function logger() {
  const lines: string[] = [];
  return { lines, log: (line: string) => lines.push(line) };
}

describe('the demo with a real model from the environment', () => {
  it('without a key: the scripted model, and says how to get a real one', async () => {
    const { lines, log } = logger();
    expect(await realModelFromEnvironment({}, log)).toBeUndefined();
    expect(lines[0]).toMatch(/^Using ScriptedChatModel \(set .*GEMINI_API_KEY.*TOOLLOOP_MODEL/);
  });

  it('GEMINI_API_KEY: Gemini runs the plain round trip, its signature sent back with the call', async () => {
    server.reply(
      sendJson({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                {
                  functionCall: { name: 'current_weather', args: { city: 'Boston' } },
                  thoughtSignature: 'c2lnbmF0dXJlLW9mLXRoZS1jYWxs',
                },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        responseId: 'demo-1',
      }),
      sendJson({
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'It is 14.5 °C and overcast in Boston.' }] },
            finishReason: 'STOP',
          },
        ],
        responseId: 'demo-2',
      }),
    );
    const { lines, log } = logger();
    const real = await realModelFromEnvironment(
      { GEMINI_API_KEY: 'AIza-demo-0123456789', GOOGLE_GEMINI_BASE_URL: server.baseUrl },
      log,
    );
    expect(real).toBeInstanceOf(GoogleChatModel);
    expect(lines[0]).toBe('Using the real model gemini-2.5-flash of the Gemini API\n');
    const result = await runPlainRoundTripDemo(real, log);
    expect(result.answer).toBe('It is 14.5 °C and overcast in Boston.');
    expect(result.modelCalls).toBe(2);
    const second = server.requests[1]?.body as { contents: { parts: Record<string, unknown>[] }[] };
    expect(second.contents[1]?.parts[0]).toEqual({
      functionCall: { name: 'current_weather', args: { city: 'Boston' } },
      thoughtSignature: 'c2lnbmF0dXJlLW9mLXRoZS1jYWxs',
    });
  });

  it('TOOLLOOP_MODEL names any provider (the Responses API here); OPENAI_* alone is Chat Completions', async () => {
    const { log } = logger();
    const env = { OPENAI_API_KEY: 'sk-demo-0123456789', OPENAI_BASE_URL: `${server.baseUrl}/v1` };
    expect(
      await realModelFromEnvironment(
        { ...env, TOOLLOOP_MODEL: 'openai-responses:gpt-5-mini' },
        log,
      ),
    ).toBeInstanceOf(OpenAiResponsesChatModel);
    expect(await realModelFromEnvironment(env, log)).toBeInstanceOf(OpenAiChatModel);
  });
});
