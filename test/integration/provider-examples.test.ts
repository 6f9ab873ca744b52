import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAnthropicExample } from '../../examples/anthropic.js';
import { runOpenAiExample } from '../../examples/openai.js';
import { FixtureHttpServer, sendEvents, sendJson } from './support/fixture-http-server.js';

const ENV_KEYS = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_MODEL',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_MODEL',
];

function sseOf(payloads: unknown[], framing: 'openai' | 'anthropic'): string {
  return (
    payloads
      .map((payload) =>
        framing === 'openai'
          ? `data: ${JSON.stringify(payload)}\n\n`
          : `event: ${(payload as { type: string }).type}\ndata: ${JSON.stringify(payload)}\n\n`,
      )
      .join('') + (framing === 'openai' ? 'data: [DONE]\n\n' : '')
  );
}

/** The tool results the loop sent back, by call id, from a recorded request body. */
function sentResults(body: unknown): Record<string, unknown> {
  const results: Record<string, unknown> = {};
  const messages = (
    body as { messages: { role: string; content: unknown; tool_call_id?: string }[] }
  ).messages;
  for (const message of messages) {
    if (message.role === 'tool' && message.tool_call_id)
      results[message.tool_call_id] = JSON.parse(String(message.content));
    if (message.role === 'user' && Array.isArray(message.content)) {
      for (const block of message.content as {
        type: string;
        tool_use_id?: string;
        content?: string;
      }[]) {
        if (block.type === 'tool_result' && block.tool_use_id)
          results[block.tool_use_id] = JSON.parse(String(block.content));
      }
    }
  }
  return results;
}

const AMSTERDAM = { city: 'Amsterdam', temperatureCelsius: 11, conditions: 'Rain' };
const PARIS = { city: 'Paris', temperatureCelsius: 17, conditions: 'Sunny' };

describe('examples/openai.ts and examples/anthropic.ts against a local provider', () => {
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
    expect(await runOpenAiExample((line) => lines.push(line))).toBe(false);
    expect(await runAnthropicExample((line) => lines.push(line))).toBe(false);
    expect(lines).toEqual([
      'skipped: set OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server) to run this example',
      'skipped: set ANTHROPIC_API_KEY to run this example',
    ]);
  });

  it('OpenAI: two parallel calls run by the loop, results sent back by id, call and stream', async () => {
    process.env.OPENAI_BASE_URL = `${server.baseUrl}/v1`;
    process.env.OPENAI_MODEL = 'local-model';
    const toolCalls = [
      {
        index: 0,
        id: 'call_a',
        type: 'function',
        function: { name: 'current_weather', arguments: '{"city":"Amsterdam"}' },
      },
      {
        index: 1,
        id: 'call_p',
        type: 'function',
        function: { name: 'current_weather', arguments: '{"city":"Paris"}' },
      },
    ];
    server.reply(
      sendJson({
        id: 'r1',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: null, tool_calls: toolCalls },
            finish_reason: 'tool_calls',
          },
        ],
      }),
      sendJson({
        id: 'r2',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Rain in Amsterdam, sun in Paris.' },
            finish_reason: 'stop',
          },
        ],
      }),
      sendEvents(
        sseOf(
          [
            { id: 's1', choices: [{ index: 0, delta: { tool_calls: [toolCalls[0]] } }] },
            { id: 's1', choices: [{ index: 0, delta: { tool_calls: [toolCalls[1]] } }] },
            { id: 's1', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
          ],
          'openai',
        ),
      ),
      sendEvents(
        sseOf(
          [
            { id: 's2', choices: [{ index: 0, delta: { content: 'Rain in Amsterdam, ' } }] },
            { id: 's2', choices: [{ index: 0, delta: { content: 'sun in Paris.' } }] },
            { id: 's2', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
          ],
          'openai',
        ),
      ),
    );
    const lines: string[] = [];
    expect(await runOpenAiExample((line) => lines.push(line))).toBe(true);
    expect(lines).toEqual([
      'call(): Rain in Amsterdam, sun in Paris.',
      'stream(): Rain in Amsterdam, sun in Paris.',
    ]);
    expect(server.requests.map((request) => (request.body as { model: string }).model)).toEqual(
      Array(4).fill('local-model'),
    );
    for (const index of [1, 3]) {
      expect(sentResults(server.requests[index]?.body)).toEqual({
        call_a: AMSTERDAM,
        call_p: PARIS,
      });
    }
  });

  it('Anthropic: two tool_use blocks run by the loop, tool_result blocks sent back in one message', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-local';
    process.env.ANTHROPIC_BASE_URL = server.baseUrl;
    const uses = [
      { type: 'tool_use', id: 'toolu_a', name: 'current_weather', input: { city: 'Amsterdam' } },
      { type: 'tool_use', id: 'toolu_p', name: 'current_weather', input: { city: 'Paris' } },
    ];
    const message = (content: unknown[], stop: string) => ({
      id: 'msg',
      type: 'message',
      role: 'assistant',
      model: 'claude-local',
      content,
      stop_reason: stop,
      usage: { input_tokens: 10, output_tokens: 5 },
    });
    const streamed = (events: unknown[]) => sendEvents(sseOf(events, 'anthropic'));
    server.reply(
      sendJson(message(uses, 'tool_use')),
      sendJson(message([{ type: 'text', text: 'Rain in Amsterdam, sun in Paris.' }], 'end_turn')),
      streamed([
        {
          type: 'message_start',
          message: { id: 'm1', model: 'claude-local', usage: { input_tokens: 10 } },
        },
        ...uses.flatMap((use, index) => [
          { type: 'content_block_start', index, content_block: { ...use, input: {} } },
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(use.input) },
          },
          { type: 'content_block_stop', index },
        ]),
        { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
        { type: 'message_stop' },
      ]),
      streamed([
        {
          type: 'message_start',
          message: { id: 'm2', model: 'claude-local', usage: { input_tokens: 10 } },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'Rain in Amsterdam, ' },
        },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: 'sun in Paris.' },
        },
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
        { type: 'message_stop' },
      ]),
    );
    const lines: string[] = [];
    expect(await runAnthropicExample((line) => lines.push(line))).toBe(true);
    expect(lines).toEqual([
      'call(): Rain in Amsterdam, sun in Paris.',
      'stream(): Rain in Amsterdam, sun in Paris.',
    ]);
    for (const index of [1, 3]) {
      const body = server.requests[index]?.body as {
        messages: { role: string; content: unknown }[];
      };
      expect(body.messages.map((entry) => entry.role)).toEqual(['user', 'assistant', 'user']);
      expect(sentResults(body)).toEqual({ toolu_a: AMSTERDAM, toolu_p: PARIS });
      expect(server.requests[index]?.headers['x-api-key']).toBe('sk-ant-local');
    }
  });
});
