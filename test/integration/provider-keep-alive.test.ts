import { createServer, type Server, type ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { userMessage } from '../../src/messages/index.js';
import type { ChatModel, Prompt } from '../../src/model/index.js';
import { OpenAiChatModel } from '../../src/openai/index.js';

// A provider ends its response right after the event that completes the answer (OpenAI's
// `[DONE]`, Anthropic's `message_stop`), usually in a packet of its own. The adapters stop
// reading at that event; they must still let the response end, so that its keep-alive
// connection serves the next request (a new connection to a real provider is a new TLS
// handshake). A server that holds the response open after the answer is cut off shortly after,
// and the caller never waits for it.

const prompt: Prompt = { messages: [userMessage('Hi')], options: {} };

const openAiEvents = [
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }] })}\n\n`,
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
  'data: [DONE]\n\n',
];
const anthropicEvent = (data: Record<string, unknown>) =>
  `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
const anthropicEvents = [
  anthropicEvent({
    type: 'message_start',
    message: { id: 'msg_1', role: 'assistant', content: [], usage: { input_tokens: 1 } },
  }),
  anthropicEvent({
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  }),
  anthropicEvent({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: 'Hello' },
  }),
  anthropicEvent({ type: 'content_block_stop', index: 0 }),
  anthropicEvent({
    type: 'message_delta',
    delta: { stop_reason: 'end_turn' },
    usage: { output_tokens: 1 },
  }),
  anthropicEvent({ type: 'message_stop' }),
];

const PROVIDERS = {
  openai: {
    events: openAiEvents,
    create: (baseUrl: string): ChatModel =>
      new OpenAiChatModel({
        baseUrl: `${baseUrl}/v1`,
        apiKey: 'test-key',
        model: 'm',
        maxRetries: 0,
      }),
  },
  anthropic: {
    events: anthropicEvents,
    create: (baseUrl: string): ChatModel =>
      new AnthropicChatModel({ baseUrl, apiKey: 'test-key', model: 'm', maxRetries: 0 }),
  },
};

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A provider writing each event in its own turn; `end` says what it does after the last one. */
async function provider(events: string[], end: 'end' | 'hold') {
  const state = { connections: 0, closed: [] as Promise<void>[] };
  server = createServer(async (request, response: ServerResponse) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    state.closed.push(new Promise((resolve) => response.on('close', () => resolve())));
    for (const event of events) {
      response.write(event);
      await nextTurn();
    }
    if (end === 'end') response.end();
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}`, state };
}

async function text(model: ChatModel): Promise<string> {
  let streamed = '';
  for await (const chunk of model.stream!(prompt)) streamed += chunk.results[0]?.output.text ?? '';
  return streamed;
}

describe.each(['openai', 'anthropic'] as const)(
  '%s stream and the keep-alive connection',
  (name) => {
    it('does not open a new connection per stream when the server ends the response after the answer', async () => {
      const { baseUrl, state } = await provider(PROVIDERS[name].events, 'end');
      const model = PROVIDERS[name].create(baseUrl);
      for (let i = 0; i < 8; i++) expect(await text(model)).toBe('Hello');
      // A request sent back to back may find the previous connection still reading the response's
      // end and open a second one; from then on the two take turns (before: one per stream).
      expect(state.connections).toBeLessThanOrEqual(2);
    });

    it('does not wait for a server that holds the response open after the answer, and cuts it off', async () => {
      const { baseUrl, state } = await provider(PROVIDERS[name].events, 'hold');
      const started = performance.now();
      expect(await text(PROVIDERS[name].create(baseUrl))).toBe('Hello');
      // Generous: the point is that the caller does not wait for the grace period to end.
      expect(performance.now() - started).toBeLessThan(900);
      await state.closed[0];
    });
  },
);
