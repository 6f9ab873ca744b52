import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PARALLEL_CALLS, scriptedCalls, TOOL_RESULT } from '../workload.js';
import { listenForLoad } from './child-rpc.js';
import { PROVIDER_ROUNDS, type RoundEvents, type WireFormat } from './provider-wire.js';

/**
 * The fake provider of the end-to-end benchmark, run in its own process (forked by
 * end-to-end-http.ts) so that its cost never lands on the measured server. `POST
 * /openai/chat/completions` speaks OpenAI Chat Completions SSE, `POST /anthropic/v1/messages`
 * Anthropic Messages SSE. A request whose last message carries the tool results gets the text
 * round, any other the tool round; the events are pre-serialised buffers written one per
 * event-loop turn (as a provider streams tokens). Every request is checked (streaming asked for,
 * the three tools sent, the three results returned under the calls' ids): a request that fails
 * a check is answered 400 and counted, and the benchmark fails.
 *
 * When gated, a text round stops after half of its text and waits for `release`: the benchmark
 * parks all conversations mid-stream that way and measures the server's memory meanwhile.
 */

let gated = false;
let parked: (() => void)[] = [];
let requests = 0;
let connections = 0;
let failures: string[] = [];
const CALL_IDS = scriptedCalls(PARALLEL_CALLS).map((call) => call.id);

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

type Body = Record<string, unknown> & { messages?: unknown[]; tools?: unknown[] };

/** Which round a request asks for, or why it is wrong. */
function round(format: WireFormat, body: Body): 'tools' | 'text' | string {
  if (body.stream !== true) return 'not a streaming request';
  const messages = Array.isArray(body.messages) ? body.messages : [];
  if (!Array.isArray(body.tools) || body.tools.length !== PARALLEL_CALLS) {
    return `expected ${PARALLEL_CALLS} tools, got ${Array.isArray(body.tools) ? body.tools.length : 'none'}`;
  }
  if (format === 'openai') {
    const results = messages.filter(
      (m): m is { role: string; tool_call_id: string; content: unknown } =>
        (m as { role?: string }).role === 'tool',
    );
    if (results.length === 0) return 'tools';
    const ids = results.map((m) => m.tool_call_id).sort();
    const contents = results.map((m) => JSON.stringify(m.content));
    if (ids.join() !== CALL_IDS.join() || !contents.every((c) => c.includes(TOOL_RESULT))) {
      return `tool results ${ids.join()} do not answer ${CALL_IDS.join()}`;
    }
    return 'text';
  }
  const last = messages[messages.length - 1] as { content?: unknown } | undefined;
  const blocks = Array.isArray(last?.content) ? (last.content as Record<string, unknown>[]) : [];
  const results = blocks.filter((block) => block.type === 'tool_result');
  if (results.length === 0) return 'tools';
  const ids = results.map((block) => String(block.tool_use_id)).sort();
  if (ids.join() !== CALL_IDS.join()) {
    return `tool results ${ids.join()} do not answer ${CALL_IDS.join()}`;
  }
  return 'text';
}

async function stream(response: ServerResponse, round: RoundEvents): Promise<void> {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
  });
  const { events, middle } = round;
  for (let i = 0; i < events.length; i++) {
    if (i === middle && gated) await new Promise<void>((resolve) => parked.push(resolve));
    if (response.destroyed) return;
    if (!response.write(events[i])) {
      await new Promise((resolve) => response.once('drain', resolve));
    }
    await nextTurn();
  }
  response.end();
}

const server = createServer(async (request, response) => {
  requests++;
  const format: WireFormat | undefined =
    request.url === '/openai/chat/completions'
      ? 'openai'
      : request.url === '/anthropic/v1/messages'
        ? 'anthropic'
        : undefined;
  const text = await readBody(request);
  let body: Body;
  try {
    body = JSON.parse(text) as Body;
  } catch {
    body = {};
  }
  const which = format === undefined ? `unknown path ${request.url}` : round(format, body);
  if (format === undefined || (which !== 'tools' && which !== 'text')) {
    if (failures.length < 10) failures.push(`${request.url}: ${which}`);
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: which, type: 'invalid_request_error' } }));
    return;
  }
  await stream(response, PROVIDER_ROUNDS[format][which]);
});
server.on('connection', () => connections++);
listenForLoad(server, {
  stats: () => ({ parked: parked.length, requests, connections, failures }),
  gate: (on) => {
    gated = on === true;
    return gated;
  },
  release: () => {
    const waiting = parked;
    parked = [];
    gated = false;
    for (const resolve of waiting) resolve();
    return waiting.length;
  },
  reset: () => {
    requests = 0;
    connections = 0;
    failures = [];
    return true;
  },
});
