import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { ChatClient } from '../../src/client/index.js';
import { ChatModelError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { userMessage } from '../../src/messages/index.js';
import type { ChatModel, ChatResponse, Prompt } from '../../src/model/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { tool } from '../../src/tools/tool.js';
import {
  FixtureHttpServer,
  type FixtureReply,
  sendEvents,
  sendJson,
} from './support/fixture-http-server.js';

// The whole loop (ChatClient, the adapter, a real HTTP server): a tool call that a stream cut
// off, or whose arguments came as something other than text, never runs, and the model is told
// why. The tool accepts `{}`, so any adapter or manager that guessed empty arguments would run it.

const API_KEY = 'sk-safety-test-0123456789abcdef';

/** Tool runs on calls that were cut off or invalid: must stay 0. */
const tally = { scenarios: 0, toolRunsOnBadCalls: 0 };

function deleteFilesTool() {
  const runs: unknown[] = [];
  const deleteFiles = tool({
    name: 'delete_files',
    description: 'Deletes the files under a path (all files when no path is given).',
    inputSchema: z.object({ path: z.string().optional() }),
    execute: (input) => {
      runs.push(input);
      return 'deleted';
    },
  });
  return { deleteFiles, runs };
}

function openAiEvents(payloads: unknown[], end: '[DONE]' | 'eof'): string {
  const events = payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`).join('');
  return end === '[DONE]' ? `${events}data: [DONE]\n\n` : events;
}

function openAiDelta(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: 'c1',
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function anthropicEvents(payloads: { type: string; [key: string]: unknown }[]): string {
  return payloads
    .map((payload) => `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`)
    .join('');
}

const ANTHROPIC_START = { type: 'message_start', message: { id: 'm1', model: 'c', usage: {} } };

function anthropicToolUse(id: string, partialJson: unknown[]) {
  return [
    {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id, name: 'delete_files', input: {} },
    },
    ...partialJson.map((piece) => ({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'input_json_delta', partial_json: piece },
    })),
  ];
}

type Provider = 'openai' | 'anthropic' | 'openai-responses' | 'google';

/** Server-sent events with `data:` lines only (the Responses API, Gemini). */
function dataEvents(payloads: unknown[]): string {
  return payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`).join('');
}

const RESPONSES_START = { type: 'response.created', response: { id: 'resp_1', model: 'gpt-test' } };

function responsesCall(callId: string, deltas: string[]) {
  return [
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: {
        type: 'function_call',
        id: `fc_${callId}`,
        call_id: callId,
        name: 'delete_files',
        arguments: '',
      },
    },
    ...deltas.map((delta) => ({
      type: 'response.function_call_arguments.delta',
      output_index: 0,
      delta,
    })),
  ];
}

function responsesCallDone(callId: string, args: unknown) {
  return {
    type: 'response.output_item.done',
    output_index: 0,
    item: {
      type: 'function_call',
      id: `fc_${callId}`,
      call_id: callId,
      name: 'delete_files',
      arguments: args,
    },
  };
}

const RESPONSES_COMPLETED = {
  type: 'response.completed',
  response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 1, output_tokens: 1 } },
};

/** A Gemini stream event with the given parts of candidate 0. */
function googleParts(parts: unknown[], finishReason?: string) {
  return {
    candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }],
  };
}

const FINAL = {
  openai: sendEvents(
    openAiEvents(
      [openAiDelta({ content: 'Nothing was deleted.' }), openAiDelta({}, 'stop')],
      '[DONE]',
    ),
  ),
  anthropic: sendEvents(
    anthropicEvents([
      ANTHROPIC_START,
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
  ),
  'openai-responses': sendEvents(
    dataEvents([
      RESPONSES_START,
      { type: 'response.output_text.delta', output_index: 0, delta: 'Nothing was deleted.' },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: {
          type: 'message',
          id: 'msg_1',
          content: [{ type: 'output_text', text: 'Nothing was deleted.' }],
        },
      },
      RESPONSES_COMPLETED,
    ]),
  ),
  google: sendEvents(dataEvents([googleParts([{ text: 'Nothing was deleted.' }], 'STOP')])),
};

function model(provider: Provider, baseUrl: string): ChatModel {
  switch (provider) {
    case 'openai':
      return new OpenAiChatModel({ baseUrl: `${baseUrl}/v1`, apiKey: API_KEY, maxRetries: 0 });
    case 'anthropic':
      return new AnthropicChatModel({ baseUrl, apiKey: API_KEY, maxRetries: 0 });
    case 'openai-responses':
      return new OpenAiResponsesChatModel({
        baseUrl: `${baseUrl}/v1`,
        apiKey: API_KEY,
        maxRetries: 0,
      });
    case 'google':
      return new GoogleChatModel({ baseUrl, apiKey: API_KEY, maxRetries: 0 });
  }
}

async function runStream(client: ChatClient, text: string, tools: unknown[]): Promise<string> {
  let answer = '';
  for await (const delta of client
    .prompt(text)
    .tools(...(tools as never[]))
    .stream()
    .content())
    answer += delta;
  return answer;
}

/** The tool results the second request carried back to the model, whatever the provider. */
function toolResultsSent(body: unknown): string[] {
  const text = JSON.stringify(body);
  const results: string[] = [];
  const request = body as {
    messages?: Record<string, unknown>[];
    input?: Record<string, unknown>[];
    contents?: { parts: Record<string, unknown>[] }[];
  };
  for (const item of request.input ?? []) {
    if (item.type === 'function_call_output') results.push(String(item.output));
  }
  for (const content of request.contents ?? []) {
    for (const part of content.parts) {
      const response = (part.functionResponse as { response?: Record<string, unknown> } | undefined)
        ?.response;
      if (response) results.push(String(response.error ?? response.output));
    }
  }
  for (const message of request.messages ?? []) {
    if (message.role === 'tool') results.push(String(message.content));
    if (Array.isArray(message.content)) {
      for (const block of message.content as Record<string, unknown>[]) {
        if (block.type === 'tool_result') results.push(String(block.content));
      }
    }
  }
  expect(text).not.toContain('deleted"');
  return results;
}

let server: FixtureHttpServer;
beforeEach(async () => {
  server = new FixtureHttpServer();
  await server.start();
});
afterEach(() => server.stop());

describe('tool calls cut off by the end of a stream never run', () => {
  const cutOff: [string, Provider, FixtureReply][] = [
    [
      'OpenAI: [DONE] right after the call name, no finish_reason',
      'openai',
      sendEvents(
        openAiEvents(
          [
            openAiDelta({
              role: 'assistant',
              tool_calls: [
                {
                  index: 0,
                  id: 'call_a',
                  type: 'function',
                  function: { name: 'delete_files', arguments: '' },
                },
              ],
            }),
          ],
          '[DONE]',
        ),
      ),
    ],
    [
      'OpenAI: [DONE] inside the arguments, no finish_reason',
      'openai',
      sendEvents(
        openAiEvents(
          [
            openAiDelta({
              tool_calls: [
                { index: 0, id: 'call_a', function: { name: 'delete_files', arguments: '{"pa' } },
              ],
            }),
          ],
          '[DONE]',
        ),
      ),
    ],
    [
      'OpenAI: [DONE] with a complete-looking call but no finish_reason',
      'openai',
      sendEvents(
        openAiEvents(
          [
            openAiDelta({
              tool_calls: [
                { index: 0, id: 'call_a', function: { name: 'delete_files', arguments: '{}' } },
              ],
            }),
          ],
          '[DONE]',
        ),
      ),
    ],
    [
      'Anthropic: message_stop while the tool_use block is open',
      'anthropic',
      sendEvents(
        anthropicEvents([
          ANTHROPIC_START,
          ...anthropicToolUse('toolu_a', ['{"pa']),
          { type: 'message_stop' },
        ]),
      ),
    ],
    [
      'Responses: the response ends incomplete while the call is still open',
      'openai-responses',
      sendEvents(
        dataEvents([
          RESPONSES_START,
          ...responsesCall('call_a', ['{"pa']),
          {
            type: 'response.incomplete',
            response: {
              id: 'resp_1',
              status: 'incomplete',
              incomplete_details: { reason: 'max_output_tokens' },
            },
          },
        ]),
      ),
    ],
    [
      'Responses: the call ends incomplete (status incomplete on the done item)',
      'openai-responses',
      sendEvents(
        dataEvents([
          RESPONSES_START,
          ...responsesCall('call_a', ['{}']),
          {
            ...responsesCallDone('call_a', '{}'),
            item: { ...responsesCallDone('call_a', '{}').item, status: 'incomplete' },
          },
          RESPONSES_COMPLETED,
        ]),
      ),
    ],
    [
      'Gemini: the output limit stops the candidate while streamed arguments are open',
      'google',
      sendEvents(
        dataEvents([
          googleParts([{ functionCall: { name: 'delete_files', willContinue: true } }]),
          googleParts([
            {
              functionCall: {
                partialArgs: [{ jsonPath: '$.path', stringValue: '/ho', willContinue: true }],
                willContinue: true,
              },
            },
          ]),
          googleParts([], 'MAX_TOKENS'),
        ]),
      ),
    ],
    [
      'Gemini: the call is closed while its string value is still open',
      'google',
      sendEvents(
        dataEvents([
          googleParts([
            {
              functionCall: {
                name: 'delete_files',
                partialArgs: [{ jsonPath: '$.path', stringValue: '/', willContinue: true }],
                willContinue: true,
              },
            },
          ]),
          googleParts([{ functionCall: {} }], 'STOP'),
        ]),
      ),
    ],
    [
      'Anthropic: input_json_delta before its content_block_start (the call would run with {})',
      'anthropic',
      sendEvents(
        anthropicEvents([
          ANTHROPIC_START,
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"path":"/"}' },
          },
          ...anthropicToolUse('toolu_a', []),
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use' },
            usage: { output_tokens: 9 },
          },
          { type: 'message_stop' },
        ]),
      ),
    ],
    [
      'Anthropic: stop_reason tool_use, then the connection ends without message_stop',
      'anthropic',
      sendEvents(
        anthropicEvents([
          ANTHROPIC_START,
          ...anthropicToolUse('toolu_a', ['{"path":"/tmp"}']),
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use' },
            usage: { output_tokens: 9 },
          },
        ]),
      ),
    ],
  ];

  it.each(cutOff)(
    '%s: the model is told the call was truncated',
    async (_name, provider, reply) => {
      tally.scenarios++;
      server.reply(reply, FINAL[provider]);
      const { deleteFiles, runs } = deleteFilesTool();
      const answer = await runStream(
        ChatClient.create(model(provider, server.baseUrl)),
        'Clean up',
        [deleteFiles],
      );
      tally.toolRunsOnBadCalls += runs.length;
      expect(runs).toEqual([]);
      expect(answer).toBe('Nothing was deleted.');
      const results = toolResultsSent(server.requests[1]?.body);
      expect(results).toHaveLength(1);
      expect(results[0]).toContain('truncated');
    },
  );

  const failed: [string, Provider, FixtureReply][] = [
    [
      'OpenAI: the connection ends after the call, no [DONE] and no finish_reason',
      'openai',
      sendEvents(
        openAiEvents(
          [
            openAiDelta({
              tool_calls: [
                { index: 0, id: 'call_a', function: { name: 'delete_files', arguments: '{}' } },
              ],
            }),
          ],
          'eof',
        ),
      ),
    ],
    [
      'Anthropic: the connection ends after a closed tool_use block, no stop_reason and no message_stop',
      'anthropic',
      sendEvents(
        anthropicEvents([
          ANTHROPIC_START,
          ...anthropicToolUse('toolu_a', ['{}']),
          { type: 'content_block_stop', index: 0 },
        ]),
      ),
    ],
    [
      'Anthropic: [DONE] after a closed tool_use block, no stop_reason and no message_stop',
      'anthropic',
      sendEvents(
        `${anthropicEvents([ANTHROPIC_START, ...anthropicToolUse('toolu_a', ['{}']), { type: 'content_block_stop', index: 0 }])}data: [DONE]\n\n`,
      ),
    ],
    [
      'Responses: the connection ends after a finished call, no response.completed',
      'openai-responses',
      sendEvents(
        dataEvents([
          RESPONSES_START,
          ...responsesCall('call_a', ['{}']),
          responsesCallDone('call_a', '{}'),
        ]),
      ),
    ],
    [
      'Gemini: the connection ends after a whole call, no finish reason',
      'google',
      sendEvents(dataEvents([googleParts([{ functionCall: { name: 'delete_files', args: {} } }])])),
    ],
  ];

  it.each(failed)('%s: the request fails and nothing runs', async (_name, provider, reply) => {
    tally.scenarios++;
    server.reply(reply, FINAL[provider]);
    const { deleteFiles, runs } = deleteFilesTool();
    const outcome = await runStream(
      ChatClient.create(model(provider, server.baseUrl)),
      'Clean up',
      [deleteFiles],
    ).catch((error: unknown) => error);
    tally.toolRunsOnBadCalls += runs.length;
    expect(outcome).toBeInstanceOf(ChatModelError);
    expect((outcome as ChatModelError).message).toMatch(/ended before/);
    expect(runs).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('tool-call arguments that are not text never run', () => {
  const nonText: [string, Provider, 'call' | 'stream', FixtureReply][] = [
    [
      'OpenAI body with arguments as an object',
      'openai',
      'call',
      sendJson({
        id: 'c1',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_a',
                  type: 'function',
                  function: { name: 'delete_files', arguments: { path: 5 } },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      }),
    ],
    [
      'OpenAI stream with arguments as an object',
      'openai',
      'stream',
      sendEvents(
        openAiEvents(
          [
            openAiDelta({
              tool_calls: [
                {
                  index: 0,
                  id: 'call_a',
                  function: { name: 'delete_files', arguments: { path: 5 } },
                },
              ],
            }),
            openAiDelta({}, 'tool_calls'),
          ],
          '[DONE]',
        ),
      ),
    ],
    [
      'Anthropic stream with partial_json as an object',
      'anthropic',
      'stream',
      sendEvents(
        anthropicEvents([
          ANTHROPIC_START,
          ...anthropicToolUse('toolu_a', [{ path: 5 }]),
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use' },
            usage: { output_tokens: 9 },
          },
          { type: 'message_stop' },
        ]),
      ),
    ],
    [
      'Responses body with arguments as an object',
      'openai-responses',
      'call',
      sendJson({
        id: 'resp_1',
        status: 'completed',
        output: [
          {
            type: 'function_call',
            id: 'fc_a',
            call_id: 'call_a',
            name: 'delete_files',
            arguments: { path: 5 },
          },
        ],
      }),
    ],
    [
      'Responses stream with arguments as an object',
      'openai-responses',
      'stream',
      sendEvents(
        dataEvents([
          RESPONSES_START,
          ...responsesCall('call_a', []),
          responsesCallDone('call_a', { path: 5 }),
          RESPONSES_COMPLETED,
        ]),
      ),
    ],
  ];

  it.each(nonText)('%s: "arguments must be JSON text"', async (_name, provider, mode, reply) => {
    tally.scenarios++;
    const final =
      mode === 'call' && provider === 'openai'
        ? sendJson({
            id: 'c2',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: 'Nothing was deleted.' },
                finish_reason: 'stop',
              },
            ],
          })
        : mode === 'call' && provider === 'openai-responses'
          ? sendJson({
              id: 'resp_2',
              status: 'completed',
              output: [
                {
                  type: 'message',
                  id: 'msg_2',
                  content: [{ type: 'output_text', text: 'Nothing was deleted.' }],
                },
              ],
            })
          : FINAL[provider];
    server.reply(reply, final);
    const { deleteFiles, runs } = deleteFilesTool();
    const client = ChatClient.create(model(provider, server.baseUrl));
    const answer =
      mode === 'call'
        ? await client.prompt('Clean up').tools(deleteFiles).call().content()
        : await runStream(client, 'Clean up', [deleteFiles]);
    tally.toolRunsOnBadCalls += runs.length;
    expect(runs).toEqual([]);
    expect(answer).toBe('Nothing was deleted.');
    const results = toolResultsSent(server.requests[1]?.body);
    expect(results).toHaveLength(1);
    expect(results[0]).toContain('arguments must be JSON text');
  });
});

describe('Gemini function calls whose args are not an object never run', () => {
  it.each([
    ['a string that looks like arguments', '{"path":"/"}'],
    ['a number', 5],
    ['a list', [{ path: '/' }]],
  ])('%s: "arguments must be a JSON object"', async (_name, args) => {
    tally.scenarios++;
    server.reply(
      sendJson({
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'delete_files', args } }] },
            finishReason: 'STOP',
          },
        ],
      }),
      sendJson({
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'Nothing was deleted.' }] },
            finishReason: 'STOP',
          },
        ],
      }),
    );
    const { deleteFiles, runs } = deleteFilesTool();
    const answer = await ChatClient.create(model('google', server.baseUrl))
      .prompt('Clean up')
      .tools(deleteFiles)
      .call()
      .content();
    tally.toolRunsOnBadCalls += runs.length;
    expect(runs).toEqual([]);
    expect(answer).toBe('Nothing was deleted.');
    const results = toolResultsSent(server.requests[1]?.body);
    expect(results).toHaveLength(1);
    expect(results[0]).toContain('arguments must be a JSON object');
  });
});

describe('tool calls of a response stopped by a content filter or a refusal never run', () => {
  const filtered: [string, 'openai' | 'anthropic', 'call' | 'stream', FixtureReply][] = [
    [
      'OpenAI body, finish_reason content_filter',
      'openai',
      'call',
      sendJson({
        id: 'c1',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_a',
                  type: 'function',
                  function: { name: 'delete_files', arguments: '{"path":"/"}' },
                },
              ],
            },
            finish_reason: 'content_filter',
          },
        ],
      }),
    ],
    [
      'OpenAI stream, finish_reason content_filter',
      'openai',
      'stream',
      sendEvents(
        openAiEvents(
          [
            openAiDelta({
              tool_calls: [
                {
                  index: 0,
                  id: 'call_a',
                  function: { name: 'delete_files', arguments: '{"path":"/"}' },
                },
              ],
            }),
            openAiDelta({}, 'content_filter'),
          ],
          '[DONE]',
        ),
      ),
    ],
    [
      'Anthropic body, stop_reason refusal',
      'anthropic',
      'call',
      sendJson({
        id: 'm1',
        type: 'message',
        role: 'assistant',
        model: 'c',
        content: [{ type: 'tool_use', id: 'toolu_a', name: 'delete_files', input: { path: '/' } }],
        stop_reason: 'refusal',
        usage: { input_tokens: 5, output_tokens: 5 },
      }),
    ],
    [
      'Anthropic stream, stop_reason refusal',
      'anthropic',
      'stream',
      sendEvents(
        anthropicEvents([
          ANTHROPIC_START,
          ...anthropicToolUse('toolu_a', ['{"path":"/"}']),
          { type: 'content_block_stop', index: 0 },
          { type: 'message_delta', delta: { stop_reason: 'refusal' }, usage: { output_tokens: 9 } },
          { type: 'message_stop' },
        ]),
      ),
    ],
  ];

  it.each(filtered)('%s: the model is told why', async (_name, provider, mode, reply) => {
    tally.scenarios++;
    const final =
      mode === 'call'
        ? provider === 'openai'
          ? sendJson({
              id: 'c2',
              choices: [
                {
                  index: 0,
                  message: { role: 'assistant', content: 'Nothing was deleted.' },
                  finish_reason: 'stop',
                },
              ],
            })
          : sendJson({
              id: 'm2',
              type: 'message',
              role: 'assistant',
              model: 'c',
              content: [{ type: 'text', text: 'Nothing was deleted.' }],
              stop_reason: 'end_turn',
              usage: { input_tokens: 5, output_tokens: 5 },
            })
        : FINAL[provider];
    server.reply(reply, final);
    const { deleteFiles, runs } = deleteFilesTool();
    const client = ChatClient.create(model(provider, server.baseUrl));
    const answer =
      mode === 'call'
        ? await client.prompt('Clean up').tools(deleteFiles).call().content()
        : await runStream(client, 'Clean up', [deleteFiles]);
    tally.toolRunsOnBadCalls += runs.length;
    expect(runs).toEqual([]);
    expect(answer).toBe('Nothing was deleted.');
    const results = toolResultsSent(server.requests[1]?.body);
    expect(results).toHaveLength(1);
    expect(results[0]).toContain('content filter');
  });
});

describe('tool calls without an id get unique ids', () => {
  const prompt: Prompt = { messages: [userMessage('Hi')], options: {} };
  const CONCURRENT = 20;

  const idless = {
    openai: {
      call: () =>
        sendJson({
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                tool_calls: [
                  { type: 'function', function: { name: 'a', arguments: '{}' } },
                  { id: '', type: 'function', function: { name: 'b', arguments: '{}' } },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
        }),
      stream: () =>
        sendEvents(
          openAiEvents(
            [
              openAiDelta({
                tool_calls: [
                  { index: 0, function: { name: 'a', arguments: '{}' } },
                  { index: 1, id: '', function: { name: 'b', arguments: '{}' } },
                ],
              }),
              openAiDelta({}, 'tool_calls'),
            ],
            '[DONE]',
          ),
        ),
    },
    anthropic: {
      call: () =>
        sendJson({
          type: 'message',
          content: [
            { type: 'tool_use', name: 'a', input: {} },
            { type: 'tool_use', id: '', name: 'b', input: {} },
          ],
          stop_reason: 'tool_use',
        }),
      stream: () =>
        sendEvents(
          anthropicEvents([
            ANTHROPIC_START,
            {
              type: 'content_block_start',
              index: 0,
              content_block: { type: 'tool_use', name: 'a', input: {} },
            },
            { type: 'content_block_stop', index: 0 },
            {
              type: 'content_block_start',
              index: 1,
              content_block: { type: 'tool_use', id: '', name: 'b', input: {} },
            },
            { type: 'content_block_stop', index: 1 },
            { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: {} },
            { type: 'message_stop' },
          ]),
        ),
    },
    'openai-responses': {
      call: () =>
        sendJson({
          status: 'completed',
          output: [
            { type: 'function_call', name: 'a', arguments: '{}' },
            { type: 'function_call', call_id: '', name: 'b', arguments: '{}' },
          ],
        }),
      stream: () =>
        sendEvents(
          dataEvents([
            { type: 'response.created', response: {} },
            {
              type: 'response.output_item.added',
              output_index: 0,
              item: { type: 'function_call', name: 'a', arguments: '' },
            },
            {
              type: 'response.output_item.done',
              output_index: 0,
              item: { type: 'function_call', name: 'a', arguments: '{}' },
            },
            {
              type: 'response.output_item.done',
              output_index: 1,
              item: { type: 'function_call', call_id: '', name: 'b', arguments: '{}' },
            },
            { type: 'response.completed', response: { status: 'completed' } },
          ]),
        ),
    },
    // Gemini never gives ids; a response without a responseId still gets distinct ones.
    google: {
      call: () =>
        sendJson(
          googleParts(
            [{ functionCall: { name: 'a', args: {} } }, { functionCall: { name: 'b', args: {} } }],
            'STOP',
          ),
        ),
      stream: () =>
        sendEvents(
          dataEvents([
            googleParts([{ functionCall: { name: 'a', args: {} } }]),
            googleParts([{ functionCall: { name: 'b', willContinue: true } }]),
            googleParts([{ functionCall: {} }], 'STOP'),
          ]),
        ),
    },
  };

  it.each(
    (['openai', 'anthropic', 'openai-responses', 'google'] as const).flatMap((provider) => [
      [provider, 'call'] as const,
      [provider, 'stream'] as const,
    ]),
  )('%s %s: 20 concurrent responses, every id distinct', async (provider, mode) => {
    for (let index = 0; index < CONCURRENT; index++) server.reply(idless[provider][mode]());
    const chatModel = model(provider, server.baseUrl);
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        if (mode === 'call') return chatModel.call(prompt);
        const chunks: ChatResponse[] = [];
        for await (const chunk of chatModel.stream!(prompt)) chunks.push(chunk);
        return { results: chunks.flatMap((chunk) => chunk.results), metadata: {} };
      }),
    );
    const ids = responses.flatMap((response) =>
      response.results.flatMap((generation) => generation.output.toolCalls.map((call) => call.id)),
    );
    expect(ids).toHaveLength(CONCURRENT * 2);
    expect(new Set(ids).size).toBe(ids.length);
    const prefix =
      provider === 'anthropic'
        ? /^toolu_[0-9a-f]{32}$/
        : provider === 'google'
          ? /^call_[0-9a-f]{24}$/
          : /^call_[0-9a-f]{32}$/;
    for (const id of ids) expect(id).toMatch(prefix);
  });
});

describe('tool-call safety figures', () => {
  it('ran no tool on a cut-off or invalid call', () => {
    // 8 + 5 cut-off streams, 2 + 1 Anthropic out-of-order or unterminated streams, 5 non-text
    // argument cases, 3 Gemini args that are no object, 4 filtered responses.
    expect(tally.scenarios).toBe(27);
    expect(tally.toolRunsOnBadCalls).toBe(0);
  });
});
