import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicChatModel } from '../../src/anthropic/index.js';
import { AbortError, ChatModelError, ToolloopError } from '../../src/errors/index.js';
import { GoogleChatModel } from '../../src/google/index.js';
import { jsonSchema, type Message, type ToolCallback, tool, userMessage } from '../../src/index.js';
import { assertMessages } from '../../src/memory/conversation-id.js';
import {
  aggregateChatResponses,
  type ChatResponse,
  type Prompt,
  type ToolCallingChatOptions,
} from '../../src/model/index.js';
import { OpenAiChatModel, OpenAiResponsesChatModel } from '../../src/openai/index.js';
import { createToolCallingManager } from '../../src/tool-calling/index.js';
import { type JsonPath, jsonPaths, withJsonPathReplaced } from '../support/json-paths.js';
import { SeededRandom } from '../support/seeded-random.js';
import { FixtureHttpServer } from './support/fixture-http-server.js';
import { fixtureText, frameChunksAsSse, responsesStreamsOf } from './support/provider-fixtures.js';

// Hostile-input fuzzing of the four provider adapters over real HTTP. Every recorded wire
// transcript (streams and JSON bodies, tool-call rounds included) is served mutated by a local
// server: cut at many points (mid-event, mid-JSON, mid-UTF-8 character, before the final event),
// with a clean end or a reset; events dropped, duplicated, reordered; garbage, comments, empty
// `data:` lines, CRLF, CR and a BOM; fields given wrong types, removed, made huge; tool-call
// arguments that are not JSON or not an object, ids missing or shared, unknown finish reasons and
// event types; 4xx/5xx/429 statuses with malformed or HTML bodies, wrong content types, bodies
// that stall. Each case ends, within a bound, either in a response whose messages are well formed
// (string ids and names, text arguments, a transcript the tool loop can answer, store and send
// again) or in a ChatModelError naming the provider and the cause; a caller's abort in an
// AbortError. No unhandled rejection, no connection left open. The seed is fixed, so CI runs the
// same ~1,500 cases every time (in about 15 s); a failure names its case number.
//
// Deeper runs: FUZZ_SEED=<n> (other cases), FUZZ_ROUNDS=<n> (n times the random cases per
// sample), FUZZ_CASE=<n> (case n alone, to replay a failure), FUZZ_MESSAGES=1 (list every
// distinct error message, to read them for clarity).

/** `FUZZ_SEED=<n>` explores other cases than CI's. */
const SEED = Number(process.env.FUZZ_SEED ?? 0x70_01_10_0f);
const API_KEY = 'sk-fuzz-SECRET-0123456789abcdef';
/** The adapter's limits in a case whose body stalls: it must end there, at the idle limit. */
const STALL_LIMITS = { idleTimeoutMs: 300, timeoutMs: 4_000 };
/**
 * The limits of every other case: a loaded CI machine never reaches them, so a case that does
 * (a "stalled" or "timed out" error) is an adapter that waited for nothing.
 */
const LIMITS = { idleTimeoutMs: 3_000, timeoutMs: 6_000 };
/** When the caller of an `abort` case aborts. */
const ABORT_AFTER_MS = 60;
/** Longer than every limit of the adapter: a case still running then is a hang. */
const CASE_BOUND_MS = 10_000;
const CONCURRENCY = 24;

type Provider = 'openai' | 'openai-responses' | 'anthropic' | 'google';
const PROVIDERS: readonly Provider[] = ['openai', 'openai-responses', 'anthropic', 'google'];
/** The `provider` of the errors of each adapter. */
const ERROR_PROVIDER: Record<Provider, string> = {
  openai: 'openai',
  'openai-responses': 'openai',
  anthropic: 'anthropic',
  google: 'google',
};
type Mode = 'call' | 'stream';

// ---------------------------------------------------------------------------------------------
// The corpus: every recorded stream and body, as the provider served it.

interface Sample {
  provider: Provider;
  name: string;
  kind: 'stream' | 'json';
  status: number;
  body: string;
}

function loadCorpus(): Sample[] {
  const samples: Sample[] = [];
  const add = (
    provider: Provider,
    name: string,
    kind: Sample['kind'],
    body: string,
    status = 200,
  ) => samples.push({ provider, name, kind, status, body });
  const openai = 'openai-chat-completions';
  for (const file of [
    '2018feb66ae13fcf5333d61b95849decc68d3f63bd38172889367e1afb1e04f7.bin.txt',
    'a247c49c5fcd492bfb7a02a3306ad615ed8d8f649888ebfddfbc3ee151f44d46.bin.txt',
    'c6aa7e397b7123c3501f25df3a05d4daf7e8ad6d61ffa406ab5361fe36a8d5b1.bin.txt',
    'f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin.txt',
    'anthropic-fallback-tool-call.sse.txt',
  ]) {
    add('openai', file, 'stream', fixtureText(`${openai}/${file}`));
  }
  for (const vendor of ['alibaba', 'deepseek', 'groq', 'xai']) {
    const chunks = fixtureText(`${openai}/${vendor}-tool-call.chunks.txt`);
    add('openai', `${vendor}-tool-call.chunks.txt`, 'stream', frameChunksAsSse(chunks, 'openai'));
    add(
      'openai',
      `${vendor}-tool-call.json`,
      'json',
      fixtureText(`${openai}/${vendor}-tool-call.json`),
    );
  }
  add(
    'openai',
    'reasoning-model-legacy-parameter-error.json',
    'json',
    fixtureText(`${openai}/reasoning-model-legacy-parameter-error.json`),
    400,
  );

  const responses = 'openai-responses';
  for (const stem of [
    'azure-reasoning-encrypted-content.1',
    'azure-tool-call.1',
    'lmstudio-tool-call.1',
    'openai-client-tool-search.1',
    'openai-client-tool-search.2',
    'openai-custom-tool.1',
    'openai-error.1',
    'openai-mcp-tool-approval.1',
    'openai-mcp-tool-approval.4',
    'openai-reasoning-encrypted-content.1',
    'openai-tool-search.1',
    'parallel-tool-call-wrapper.1',
    'programmatic-tool-calling.1',
    'programmatic-tool-calling.2',
    'programmatic-tool-calling.3',
  ]) {
    responsesStreamsOf(fixtureText(`${responses}/${stem}.chunks.txt`)).forEach((lines, step) => {
      add(
        'openai-responses',
        `${stem}.chunks.txt#${step}`,
        'stream',
        frameChunksAsSse(lines, 'data'),
      );
    });
    const body = fixtureText(`${responses}/${stem}.json`);
    add('openai-responses', `${stem}.json`, 'json', body, stem === 'openai-error.1' ? 429 : 200);
  }
  add(
    'openai-responses',
    'reasoning-model-temperature-error.json',
    'json',
    fixtureText(`${responses}/reasoning-model-temperature-error.json`),
    400,
  );

  const anthropic = 'anthropic-messages';
  for (const stem of [
    'anthropic-json-tool.1',
    'anthropic-mcp.1',
    'anthropic-tool-no-args',
    'anthropic-tool-search-deferred-bm25',
    'spliced-message-start',
  ]) {
    const chunks = fixtureText(`${anthropic}/${stem}.chunks.txt`);
    add('anthropic', `${stem}.chunks.txt`, 'stream', frameChunksAsSse(chunks, 'anthropic'));
  }
  for (const file of ['incomplete_partial_json_response.txt', 'tool_use_response.txt']) {
    add('anthropic', file, 'stream', fixtureText(`${anthropic}/${file}`));
  }
  for (const file of [
    'anthropic-json-tool.1.json',
    'anthropic-mcp.1.json',
    'anthropic-tool-no-args.json',
    'anthropic-tool-search-deferred-bm25.2.json',
  ]) {
    add('anthropic', file, 'json', fixtureText(`${anthropic}/${file}`));
  }
  for (const file of [
    '10e53c1d-51be-4c64-b5bf-99adb3fa4719.json',
    '771c64ff-a0af-4cd9-8080-a5a539da7cb9.json',
    'b38bbf6c-9a76-40ca-b09d-7a3911776e0f.json',
    'f59a9391-643b-422c-96dc-1f28bc7ea4d7.json',
  ]) {
    const transcript = JSON.parse(fixtureText(`${anthropic}/${file}`)) as {
      response: { status_code: number; headers: Record<string, string>; body: unknown };
    }[];
    transcript.forEach(({ response }, step) => {
      const stream = String(response.headers['content-type']).includes('event-stream');
      const body =
        typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      add('anthropic', `${file}#${step}`, stream ? 'stream' : 'json', body, response.status_code);
    });
  }

  const google = 'google-gemini';
  for (const stem of [
    'google-reasoning-gemini3',
    'google-reasoning',
    'google-text',
    'google-tool-call-gemini3',
    'google-tool-call',
  ]) {
    add('google', `${stem}.json`, 'json', fixtureText(`${google}/${stem}.json`));
  }
  for (const stem of [
    'google-reasoning-gemini3',
    'google-reasoning',
    'google-stream-no-args-tool-call',
    'google-stream-tool-call-arguments',
    'google-stream-tool-call-array-arguments-missing-terminal-function-call',
    'google-text',
    'google-tool-call-gemini3',
    'google-tool-call',
    'google-vertex-stream-tool-call-arguments-nested.1',
  ]) {
    const chunks = fixtureText(`${google}/${stem}.chunks.txt`);
    add('google', `${stem}.chunks.txt`, 'stream', frameChunksAsSse(chunks, 'data'));
  }
  add(
    'google',
    'google-429-retry-info.json',
    'json',
    fixtureText(`${google}/google-429-retry-info.json`),
    429,
  );
  return samples;
}

// ---------------------------------------------------------------------------------------------
// How a case is served, and what it must end in.

interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Largest write; the server yields to the event loop between writes. */
  piece: number;
  /** After the body: a clean end, a reset connection, or silence with the connection open. */
  ending: 'end' | 'destroy' | 'stall';
}

/**
 * - `shape`: a well-formed response or a typed error.
 * - `prefix`: the answer was cut; a success must hold nothing the whole answer did not (same text,
 *   every call that is not marked truncated one of the whole answer's calls, unchanged).
 * - `same`: a framing change the adapter must not see (CRLF, BOM, write sizes): the outcome of
 *   the unmutated sample.
 * - `http`: an HTTP failure status: a ChatModelError with that status.
 * - `stall`: the body stops without the connection closing: the idle limit ends it, the
 *   connection is closed.
 * - `abort`: the body stalls and the caller aborts: an AbortError at once, the connection closed.
 */
type Oracle = 'shape' | 'prefix' | 'same' | 'http' | 'stall' | 'abort';

interface FuzzCase {
  n: number;
  sample: Sample;
  mode: Mode;
  mutation: string;
  reply: Reply;
  oracle: Oracle;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const JSON_HEADERS = { 'content-type': 'application/json' };

function reply(body: string | Buffer, options: Partial<Reply> = {}): Reply {
  return {
    status: 200,
    headers: JSON_HEADERS,
    piece: 1 << 30,
    ending: 'end',
    ...options,
    body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body,
  };
}

/** The events of an SSE text, each with its blank-line terminator. */
function eventsOf(text: string): string[] {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n\n')
    .filter((event) => event.trim() !== '')
    .map((event) => `${event}\n\n`);
}

/** An event's `data:` JSON, or `undefined` (no data, `[DONE]`, or not JSON). */
function eventJson(event: string): unknown {
  const data = event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n');
  if (data === '' || data === '[DONE]') return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** The event with its `data:` replaced by `value` as JSON (other lines kept). */
function withEventJson(event: string, value: unknown): string {
  const lines = event.split('\n').filter((line) => line !== '' && !line.startsWith('data:'));
  return `${[...lines, `data: ${JSON.stringify(value)}`].join('\n')}\n\n`;
}

const HUGE = 'x'.repeat(150_000);
const HOSTILE_VALUES: unknown[] = [
  undefined,
  null,
  0,
  -1,
  0.5,
  1e308,
  4_294_967_294,
  '',
  'x',
  '__proto__',
  true,
  {},
  [],
  [null],
  { a: {} },
  HUGE,
  '\ud800',
];

/** Values for fields of a given meaning, by the field's key. */
const TARGETED: { keys: readonly string[]; values: readonly unknown[] }[] = [
  {
    keys: ['arguments', 'partial_json', 'args', 'input', 'stringValue'],
    values: [
      '{"a":',
      'not json',
      '[1,2]',
      '42',
      '"text"',
      '{"a":1}{"b":2}',
      '',
      '   ',
      '{"__proto__":{"polluted":1}}',
      `{"k":"${HUGE}"}`,
      '{"a":1e999}',
      { a: 1 },
      [1],
      7,
      null,
      undefined,
    ],
  },
  { keys: ['id', 'call_id', 'tool_call_id'], values: [undefined, '', null, 42, 'shared-id'] },
  {
    keys: ['finish_reason', 'stop_reason', 'finishReason', 'status'],
    values: [
      'weird_reason',
      '',
      'length',
      'max_tokens',
      'MAX_TOKENS',
      'incomplete',
      'content_filter',
    ],
  },
  {
    keys: ['type'],
    values: ['unknown.event.type', 'message_stop', 'response.completed', 'error', 'tool_use'],
  },
  { keys: ['index', 'output_index'], values: [1, 5, -1, 9_999, 10_000, '0', 1.5] },
  { keys: ['name'], values: ['', 'other_tool', 'x'.repeat(5_000), 'a b/c', '__proto__'] },
  { keys: ['delta', 'text', 'content'], values: ['\ud83d', '\u0000', HUGE, ''] },
];

/** Every id field of the value set to the same string. */
function sharedIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sharedIds);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = key === 'id' || key === 'call_id' ? 'shared' : sharedIds(item);
  }
  return copy;
}

const INJECTIONS = [
  ': keep-alive\n\n',
  'data:\n\n',
  'data: \n\n',
  'garbage without a colon\n\n',
  'event: ping\n\n',
  'id: 7\nretry: 5\n\n',
  'data: {"foo":1}\n\n',
  'data: {"type":"unknown.event.type","x":1}\n\n',
  'data: not json\n\n',
  'data: [DONE]\n\n',
  '\n\n\n',
  'data: {"error":{"message":"injected","type":"server_error"}}\n\n',
  'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"injected"}}\n\n',
  'data: {"type":"ping"}\n\n',
  'data: {}\n\n',
  'data: []\n\n',
  'data: null\n\n',
  'data: "text"\n\n',
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 7, function: { arguments: '{"x"' } }] } }] })}\n\n`,
];

/** Byte offsets just after the first byte of a multi-byte UTF-8 character. */
function multibyteCuts(bytes: Buffer): number[] {
  const offsets: number[] = [];
  for (let index = 0; index < bytes.length - 1; index++) {
    const byte = bytes[index] as number;
    if (byte >= 0xc0 && byte < 0xf8) offsets.push(index + 1);
  }
  return offsets;
}

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>';
const ERROR_STATUSES = [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529];
const ERROR_BODIES: [string, string, Record<string, string>][] = [
  ['malformed JSON', '{"error":{"message":"half', JSON_HEADERS],
  ['an HTML page', HTML_PAGE, { 'content-type': 'text/html' }],
  ['an HTML page said to be JSON', HTML_PAGE, JSON_HEADERS],
  ['no body', '', {}],
  [
    'plain text',
    'upstream connect error or disconnect/reset before headers',
    { 'content-type': 'text/plain' },
  ],
  ['a JSON array', '[1,2,3]', JSON_HEADERS],
  ['null', 'null', JSON_HEADERS],
  ['an error object of wrong types', '{"error":{"message":42,"type":{}}}', JSON_HEADERS],
  ['a body over the error limit', `{"error":{"message":"${'m'.repeat(100_000)}"}}`, JSON_HEADERS],
  ['the API key echoed', `{"error":{"message":"bad key ${API_KEY}"}}`, JSON_HEADERS],
];
const RETRY_AFTERS = ['0', 'abc', '-1', '99999999', 'Wed, 21 Oct 2015 07:28:00 GMT', '0.01'];

/**
 * Random cases drawn per recorded sample, besides its fixed ones; `FUZZ_ROUNDS=<n>` multiplies
 * them for a deeper run than CI's (same seed, more cases).
 */
const DRAWS_PER_SAMPLE = 14 * Math.max(1, Number(process.env.FUZZ_ROUNDS ?? 1));

type Draw = { mutation: string; reply: Reply; oracle: Oracle; mode?: Mode } | undefined;

/** The cases of one sample: a fixed set every sample gets, then random draws from every kind. */
function casesOf(sample: Sample, random: SeededRandom, next: () => number): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const mode: Mode = sample.kind === 'stream' ? 'stream' : 'call';
  const add = (draw: Draw) => {
    if (draw) {
      cases.push({ n: next(), sample, mode: draw.mode ?? mode, ...draw });
    }
  };
  const bytes = Buffer.from(sample.body, 'utf8');

  if (sample.status !== 200) {
    // A recorded error: served as recorded, cut, and with a stalled body.
    const errorMode: Mode = random.chance(0.5) ? 'call' : 'stream';
    const status = sample.status;
    add({
      mutation: 'as recorded',
      reply: reply(bytes, { status }),
      oracle: 'http',
      mode: errorMode,
    });
    const half = bytes.subarray(0, bytes.length >> 1);
    add({
      mutation: 'cut in half',
      reply: reply(half, { status }),
      oracle: 'http',
      mode: errorMode,
    });
    add({
      mutation: 'its body stalls',
      reply: reply(half, { status, ending: 'stall' }),
      oracle: 'stall',
      mode: errorMode,
    });
    return cases;
  }

  const headers = sample.kind === 'stream' ? SSE_HEADERS : JSON_HEADERS;
  const piece = () => random.pick([1 << 30, 1 << 30, 4096, 512, 64]);
  const serve = (body: string | Buffer, options: Partial<Reply> = {}) =>
    reply(body, { headers, piece: piece(), ...options });
  const events = sample.kind === 'stream' ? eventsOf(sample.body) : [];
  const joined = (list: string[]) => serve(list.join(''));
  const cut = (offset: number, why: string): Draw => {
    const ending = random.chance(0.5) ? 'end' : 'destroy';
    return {
      mutation: `cut ${why} at byte ${offset} (${ending})`,
      reply: serve(bytes.subarray(0, offset), { ending }),
      oracle: 'prefix',
    };
  };
  const multibyte = multibyteCuts(bytes);
  let value: unknown;
  try {
    value = sample.kind === 'json' ? JSON.parse(sample.body) : undefined;
  } catch {
    value = undefined;
  }
  const jsonEvents = events
    .map((event, index) => [index, eventJson(event)] as const)
    .filter(([, data]) => data !== undefined);
  /** A copy of the sample with the JSON at `path` (of event `index`, or of the body) replaced. */
  const withReplaced = (index: number | undefined, path: JsonPath, hostile: unknown): Reply => {
    if (index === undefined)
      return serve(JSON.stringify(withJsonPathReplaced(value, path, hostile)) ?? '');
    const list = [...events];
    list[index] = withEventJson(
      events[index] as string,
      withJsonPathReplaced(eventJson(list[index] as string), path, hostile),
    );
    return joined(list);
  };
  /** Every JSON path of the sample, with the event it is in (none for a body). */
  const allPaths: [number | undefined, JsonPath][] =
    sample.kind === 'json'
      ? value === undefined
        ? []
        : jsonPaths(value).map((path) => [undefined, path])
      : jsonEvents.flatMap(([index, data]) =>
          jsonPaths(data).map((path) => [index, path] as [number, JsonPath]),
        );

  // Fixed: framing the adapter must not see, a cut before the end, one in a character, a stall.
  add({
    mutation: 'a BOM first',
    reply: serve(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes])),
    oracle: 'same',
  });
  if (sample.kind === 'stream') {
    add({
      mutation: 'CR line ends',
      reply: serve(sample.body.replace(/\r?\n/g, '\r')),
      oracle: 'same',
    });
    add({
      mutation: 'BOM and CRLF',
      reply: serve(`\ufeff${sample.body.replace(/\r?\n/g, '\r\n')}`),
      oracle: 'same',
    });
    add(cut(Buffer.byteLength(events.slice(0, -1).join(''), 'utf8'), 'before the last event'));
  } else {
    add({
      mutation: 'padded with whitespace',
      reply: serve(`\n\t ${sample.body} \r\n`),
      oracle: 'same',
    });
    add(cut(bytes.length - 1, 'before the last byte'));
  }
  if (multibyte.length > 0) add(cut(random.pick(multibyte), 'inside a UTF-8 character'));
  const stallAt = random.below(bytes.length);
  add({
    mutation: `stalls at byte ${stallAt}`,
    reply: serve(bytes.subarray(0, stallAt), { ending: 'stall' }),
    oracle: 'stall',
  });

  // Drawn: every other kind, weighted.
  const kinds: [number, () => Draw][] = [
    [4, () => cut(random.below(bytes.length), 'anywhere')],
    [
      1,
      () => {
        if (events.length === 0) return undefined;
        const last = events[events.length - 1] as string;
        const start = Buffer.byteLength(events.slice(0, -1).join(''), 'utf8');
        return cut(start + random.below(Buffer.byteLength(last, 'utf8')), 'inside the last event');
      },
    ],
    [
      1,
      () => ({
        mutation: 'written in small pieces',
        reply: serve(bytes, { piece: bytes.length < 3000 ? 13 : 211 }),
        oracle: 'same',
      }),
    ],
    [
      1,
      () => {
        if (sample.kind === 'stream') {
          const type = random.pick(['text/html', 'text/plain', 'application/json', '']);
          const served = reply(bytes, { headers: type ? { 'content-type': type } : {} });
          return random.chance(0.2)
            ? {
                mutation: 'a stream answering call()',
                reply: reply(bytes, { headers: SSE_HEADERS }),
                oracle: 'shape',
                mode: 'call',
              }
            : { mutation: `content-type "${type}"`, reply: served, oracle: 'shape' };
        }
        const type = random.pick(['text/html', 'text/plain', '', 'text/event-stream']);
        return {
          mutation: `content-type "${type}"${type.includes('event') ? ' answering stream()' : ''}`,
          reply: reply(bytes, { headers: type ? { 'content-type': type } : {} }),
          oracle: 'shape',
          mode: random.chance(0.5) ? 'stream' : 'call',
        };
      },
    ],
    [
      1,
      () =>
        random.chance(0.5)
          ? {
              mutation: 'an HTML page with HTTP 200',
              reply: reply(HTML_PAGE, { headers: { 'content-type': 'text/html' } }),
              oracle: 'shape',
            }
          : { mutation: 'an empty body', reply: reply('', { headers }), oracle: 'shape' },
    ],
    [
      2,
      () => {
        const status = random.pick(ERROR_STATUSES);
        const [what, body, errorHeaders] = random.pick(ERROR_BODIES);
        const retryAfter = random.chance(0.4) ? random.pick(RETRY_AFTERS) : undefined;
        return {
          mutation: `HTTP ${status} with ${what}${retryAfter ? ` (retry-after ${retryAfter})` : ''}`,
          reply: reply(body, {
            status,
            headers: { ...errorHeaders, ...(retryAfter ? { 'retry-after': retryAfter } : {}) },
          }),
          oracle: 'http',
          mode: random.chance(0.5) ? 'call' : 'stream',
        };
      },
    ],
    [
      1,
      () => {
        const at = random.below(bytes.length);
        return {
          mutation: `the caller aborts while it stalls at byte ${at}`,
          reply: serve(bytes.subarray(0, at), { ending: 'stall' }),
          oracle: 'abort',
          mode: random.chance(0.5) ? 'call' : 'stream',
        };
      },
    ],
    [
      1,
      () => {
        const status = random.pick([429, 500, 503]);
        return {
          mutation: `HTTP ${status} whose body stalls`,
          reply: reply('{"error":{"message":"over', {
            status,
            headers: JSON_HEADERS,
            ending: 'stall',
          }),
          oracle: 'stall',
          mode: random.chance(0.5) ? 'call' : 'stream',
        };
      },
    ],
    [
      2,
      () => {
        if (events.length === 0) return undefined;
        const index = random.below(events.length);
        return {
          mutation: `event ${index} dropped`,
          reply: joined(events.filter((_, i) => i !== index)),
          oracle: 'shape',
        };
      },
    ],
    [
      2,
      () => {
        if (events.length === 0) return undefined;
        const index = random.below(events.length);
        const list = [...events];
        list.splice(index, 0, events[index] as string);
        return { mutation: `event ${index} duplicated`, reply: joined(list), oracle: 'shape' };
      },
    ],
    [
      2,
      () => {
        if (events.length === 0) return undefined;
        const from = random.below(events.length);
        const to = random.below(events.length);
        const list = [...events];
        const [moved] = list.splice(from, 1);
        list.splice(to, 0, moved as string);
        return { mutation: `event ${from} moved to ${to}`, reply: joined(list), oracle: 'shape' };
      },
    ],
    [
      2,
      () => {
        if (events.length === 0) return undefined;
        const index = random.below(events.length + 1);
        const injected = random.pick(INJECTIONS);
        const list = [...events];
        list.splice(index, 0, injected);
        return {
          mutation: `${JSON.stringify(injected)} injected before event ${index}`,
          reply: joined(list),
          oracle: 'shape',
        };
      },
    ],
    [
      4,
      () => {
        if (allPaths.length === 0) return undefined;
        const [index, path] = random.pick(allPaths);
        const hostile = random.pick(HOSTILE_VALUES);
        const where = index === undefined ? '' : `event ${index} `;
        return {
          mutation: `${where}${path.join('.') || '(data)'} = ${describeValue(hostile)}`,
          reply: withReplaced(index, path, hostile),
          oracle: 'shape',
        };
      },
    ],
    [
      5,
      () => {
        const { keys, values } = random.pick(TARGETED);
        const targets = allPaths.filter(([, path]) => keys.includes(String(path[path.length - 1])));
        if (targets.length === 0) return undefined;
        const [index, path] = random.pick(targets);
        const hostile = random.pick(values);
        const where = index === undefined ? '' : `event ${index} `;
        return {
          mutation: `${where}${path.join('.')} = ${describeValue(hostile)}`,
          reply: withReplaced(index, path, hostile),
          oracle: 'shape',
        };
      },
    ],
    [
      1,
      () => {
        if (sample.kind === 'json') {
          return value === undefined
            ? undefined
            : {
                mutation: 'every id shared',
                reply: serve(JSON.stringify(sharedIds(value))),
                oracle: 'shape',
              };
        }
        const list = events.map((event) => {
          const data = eventJson(event);
          return data === undefined ? event : withEventJson(event, sharedIds(data));
        });
        return { mutation: 'every id shared', reply: joined(list), oracle: 'shape' };
      },
    ],
  ];
  for (
    let drawn = 0, tries = 0;
    drawn < DRAWS_PER_SAMPLE && tries < 4 * DRAWS_PER_SAMPLE;
    tries++
  ) {
    const draw = random.pickWeighted(kinds)();
    if (draw === undefined) continue;
    add(draw);
    drawn++;
  }
  return cases;
}

function describeValue(value: unknown): string {
  if (value === undefined) return '(deleted)';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 20)}…(${text.length} chars)` : text;
}

// ---------------------------------------------------------------------------------------------
// Running a case over HTTP, and judging what it ended in.

interface Outcome {
  response?: ChatResponse;
  chunks?: ChatResponse[];
  error?: unknown;
  elapsedMs: number;
}

function modelFor(provider: Provider, baseUrl: string, limits = LIMITS) {
  const options = {
    apiKey: API_KEY,
    maxRetries: 1,
    retryDelay: { initialMs: 1, maxMs: 2, maxServerDelayMs: 20 },
    ...limits,
    env: {},
  };
  switch (provider) {
    case 'openai':
      return new OpenAiChatModel({ ...options, baseUrl: `${baseUrl}/v1` });
    case 'openai-responses':
      return new OpenAiResponsesChatModel({ ...options, baseUrl: `${baseUrl}/v1` });
    case 'anthropic':
      return new AnthropicChatModel({ ...options, baseUrl });
    case 'google':
      return new GoogleChatModel({ ...options, baseUrl });
  }
}

/** The request the adapter would send next, with `messages` as the history. */
function buildRequest(provider: Provider, baseUrl: string, prompt: Prompt): void {
  const model = modelFor(provider, baseUrl);
  if (model instanceof GoogleChatModel) model.request(prompt);
  else model.request(prompt, false);
}

const PROMPT: Prompt = { messages: [userMessage('What is the weather in Paris?')], options: {} };

/** Serves one reply and records whether each connection of it closed. */
function serveReply(served: Reply, closes: Promise<void>[]) {
  return async (_request: IncomingMessage, response: ServerResponse) => {
    closes.push(new Promise((resolve) => response.on('close', () => resolve())));
    response.writeHead(served.status, served.headers);
    // At most ~100 writes: a huge body in tiny pieces would measure the server, not the adapter.
    const piece = Math.max(served.piece, Math.ceil(served.body.length / 100));
    for (let offset = 0; offset < served.body.length; offset += piece) {
      if (response.destroyed) return;
      response.write(served.body.subarray(offset, offset + piece));
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (served.ending === 'end') response.end();
    else if (served.ending === 'destroy') response.socket?.destroy();
  };
}

async function run(test: FuzzCase, baseUrl: string): Promise<Outcome> {
  const model = modelFor(
    test.sample.provider,
    baseUrl,
    test.oracle === 'stall' ? STALL_LIMITS : LIMITS,
  );
  const started = performance.now();
  const outcome: Outcome = { elapsedMs: 0 };
  const signal = test.oracle === 'abort' ? AbortSignal.timeout(ABORT_AFTER_MS) : undefined;
  try {
    if (test.mode === 'call') {
      outcome.response = await model.call(PROMPT, { signal });
    } else {
      const chunks: ChatResponse[] = [];
      for await (const chunk of model.stream(PROMPT, { signal })) chunks.push(chunk);
      outcome.chunks = chunks;
      outcome.response = aggregateChatResponses(chunks);
    }
  } catch (error) {
    outcome.error = error;
  }
  outcome.elapsedMs = performance.now() - started;
  return outcome;
}

/** What of a response must not change under framing changes: text, finish reasons, calls. */
function essence(response: ChatResponse) {
  return response.results.map((generation) => ({
    text: generation.output.text,
    finishReason: generation.metadata.finishReason,
    calls: generation.output.toolCalls.map((call) => ({
      name: call.name,
      arguments: call.arguments,
      truncated: call.metadata?.truncated === true,
    })),
  }));
}

/**
 * For an answer that was cut: a success holds nothing the whole answer did not: the same text,
 * and every call not marked truncated is one of the whole answer's calls, unchanged.
 */
function expectNothingBeyond(outcome: Outcome, reference: Outcome | undefined): void {
  if (!outcome.response || !reference?.response) return;
  const whole = essence(reference.response);
  essence(outcome.response).forEach((generation, index) => {
    expect(generation.text, 'a cut answer passed for a whole one').toBe(whole[index]?.text);
    for (const call of generation.calls) {
      if (call.truncated) continue;
      expect(whole[index]?.calls, 'a cut call passed for a whole one').toContainEqual(call);
    }
  });
}

const manager = createToolCallingManager();

/** Tools of every name the response calls, accepting any object: the loop can answer each. */
function toolsFor(response: ChatResponse): ToolCallback[] {
  const names = new Set<string>();
  for (const generation of response.results) {
    for (const call of generation.output.toolCalls) {
      if (typeof call.name === 'string' && /^[A-Za-z0-9_.-]{1,64}$/.test(call.name)) {
        names.add(call.name);
      }
    }
  }
  return [...names].map((name) =>
    tool({
      name,
      description: 'any',
      inputSchema: jsonSchema({ type: 'object' }),
      execute: () => 'ok',
    }),
  );
}

/**
 * Fails unless the response is well formed: plain JSON, string ids and names, text arguments,
 * and a transcript the tool loop answers, a store keeps and the adapter sends again.
 */
async function expectWellFormed(test: FuzzCase, outcome: Outcome, baseUrl: string): Promise<void> {
  const response = outcome.response as ChatResponse;
  for (const chunk of outcome.chunks ?? []) {
    expect(JSON.parse(JSON.stringify(chunk)), 'a chunk is not plain JSON').toEqual(chunk);
    for (const generation of chunk.results) {
      for (const delta of generation.toolCallDeltas ?? []) {
        expect(typeof delta.id === 'string' && delta.id !== '', 'a delta without an id').toBe(true);
        expect(Number.isInteger(delta.index) && delta.index >= 0, 'a delta index').toBe(true);
      }
    }
  }
  expect(JSON.parse(JSON.stringify(response)), 'the response is not plain JSON').toEqual(response);
  expect(Array.isArray(response.results)).toBe(true);
  for (const generation of response.results) {
    const output = generation.output;
    expect(output.role).toBe('assistant');
    expect(output.text === null || typeof output.text === 'string', 'text').toBe(true);
    const finish = generation.metadata.finishReason;
    expect(finish === null || typeof finish === 'string', 'finish reason').toBe(true);
    const ids = output.toolCalls.map((call) => call.id);
    expect(new Set(ids).size, 'two calls of one message share an id').toBe(ids.length);
    for (const call of output.toolCalls) {
      expect(typeof call.id === 'string' && call.id !== '', 'a call id').toBe(true);
      expect(typeof call.name, 'a call name').toBe('string');
      expect(typeof call.arguments, 'call arguments are text').toBe('string');
    }
  }
  for (const count of Object.values(response.metadata.usage ?? {})) {
    expect(Number.isFinite(count) && count >= 0, 'usage counts').toBe(true);
  }

  // The transcript: the loop answers every call, a store keeps it, the adapter sends it again.
  const tools = toolsFor(response);
  const prompt: Prompt<ToolCallingChatOptions> = {
    messages: PROMPT.messages,
    options: { toolCallbacks: tools },
  };
  const first = response.results.find((generation) => generation.output.toolCalls.length > 0);
  let history: Message[];
  if (first) {
    history = (await manager.executeToolCalls(prompt, response)).conversationHistory;
  } else {
    history = [...PROMPT.messages];
    if (response.results[0]) history.push(response.results[0].output);
    history.push(userMessage('And tomorrow?'));
  }
  assertMessages(history);
  buildRequest(test.sample.provider, baseUrl, {
    messages: history,
    options: { toolCallbacks: tools },
  });
}

/** Fails unless `error` is the adapter's typed error, naming the provider and a cause. */
function expectTypedError(test: FuzzCase, error: unknown): ChatModelError {
  if (!(error instanceof ChatModelError)) {
    throw new Error(
      `case ${test.n} (${test.sample.provider} ${test.mode}, ${test.sample.name}: ${test.mutation}) ended in ${
        ToolloopError.isInstance(error) ? error.constructor.name : 'a raw error'
      }: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
      { cause: error },
    );
  }
  const provider = ERROR_PROVIDER[test.sample.provider];
  expect(error.provider).toBe(provider);
  expect(error.message.startsWith(`${provider} `), error.message).toBe(true);
  expect(error.message, 'the safety net caught a raw error').not.toContain('could not be read');
  expect(error.message).not.toContain('[object Object]');
  expect(error.message).not.toContain('SECRET');
  expect(error.message).not.toContain('<html');
  return error;
}

const tally = {
  cases: 0,
  succeeded: 0,
  refused: 0,
  byOracle: {} as Record<string, number>,
  messages: new Map<string, number>(),
  slowestMs: 0,
};

function tallyMessage(error: ChatModelError): void {
  const key = error.message
    .replace(/\d+/g, 'N')
    .replace(/\(POST [^)]*\)/g, '(POST …)')
    .slice(0, 140);
  tally.messages.set(key, (tally.messages.get(key) ?? 0) + 1);
}

describe('provider adapters under hostile wire input (seeded fuzz over real HTTP)', () => {
  const server = new FixtureHttpServer();
  const routes = new Map<string, { served: Reply; closes: Promise<void>[] }>();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const samples = loadCorpus();
  const random = new SeededRandom(SEED);
  let counter = 0;
  // FUZZ_CASE=<n> runs case n alone (the numbers do not depend on which cases run).
  const only = process.env.FUZZ_CASE === undefined ? undefined : Number(process.env.FUZZ_CASE);
  const cases = samples
    .flatMap((sample) => casesOf(sample, random, () => counter++))
    .filter((test) => only === undefined || test.n === only);
  const references = new Map<Sample, Outcome>();

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    server.replyAlways(async (request, response) => {
      const route = routes.get(/^\/case-(\w+)\//.exec(request.url ?? '')?.[1] ?? '');
      if (!route) {
        response.writeHead(599).end();
        return;
      }
      await serveReply(route.served, route.closes)(request, response);
    });
    await server.start();
    // The outcome of every sample served as recorded.
    for (const sample of samples) {
      if (sample.status !== 200) continue;
      const id = `ref${references.size}`;
      routes.set(id, {
        served: reply(sample.body, {
          headers: sample.kind === 'stream' ? SSE_HEADERS : JSON_HEADERS,
        }),
        closes: [],
      });
      const mode = sample.kind === 'stream' ? 'stream' : 'call';
      references.set(
        sample,
        await run(
          { n: -1, sample, mode, mutation: 'none', reply: routes.get(id)!.served, oracle: 'shape' },
          `${server.baseUrl}/case-${id}`,
        ),
      );
    }
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await server.stop();
  });

  it('reads every recorded sample', () => {
    for (const [sample, outcome] of references) {
      const expectedFailure = /openai-error|parallel-tool-call-wrapper\.1\.chunks/.test(
        sample.name,
      );
      if (expectedFailure) expect(outcome.error, sample.name).toBeInstanceOf(ChatModelError);
      else expect(outcome.error, `${sample.name}: ${String(outcome.error)}`).toBeUndefined();
    }
  });

  it.each(PROVIDERS)(
    '%s: every mutated answer ends well, in time',
    { timeout: 60_000 },
    async (provider) => {
      const mine = cases.filter((test) => test.sample.provider === provider);
      const failures: string[] = [];
      let nextCase = 0;
      const worker = async () => {
        while (nextCase < mine.length) {
          const test = mine[nextCase++] as FuzzCase;
          const closes: Promise<void>[] = [];
          routes.set(String(test.n), { served: test.reply, closes });
          const baseUrl = `${server.baseUrl}/case-${test.n}`;
          try {
            await judge(test, baseUrl, closes);
          } catch (error) {
            failures.push(
              `case ${test.n} ${test.sample.provider} ${test.mode} ${test.sample.name}: ${test.mutation}\n  ${
                error instanceof Error
                  ? error.message.split('\n').slice(0, 6).join('\n  ')
                  : String(error)
              }`,
            );
          } finally {
            routes.delete(String(test.n));
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(failures, failures.join('\n\n')).toEqual([]);
    },
  );

  async function judge(test: FuzzCase, baseUrl: string, closes: Promise<void>[]): Promise<void> {
    tally.cases++;
    tally.byOracle[test.oracle] = (tally.byOracle[test.oracle] ?? 0) + 1;
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`hang: no outcome after ${CASE_BOUND_MS} ms`)),
        CASE_BOUND_MS,
      );
    });
    const outcome = await Promise.race([run(test, baseUrl), hang]).finally(() =>
      clearTimeout(timer),
    );
    tally.slowestMs = Math.max(tally.slowestMs, outcome.elapsedMs);
    if (outcome.error === undefined) {
      tally.succeeded++;
      await expectWellFormed(test, outcome, baseUrl);
    } else if (
      test.oracle === 'abort' &&
      (outcome.error instanceof AbortError || references.get(test.sample)?.error === undefined)
    ) {
      tally.refused++;
      // A stream whose answer was complete before the stall may end well (above); a sample that
      // is itself refused may be refused before the abort; any other ends in the abort.
      expect(outcome.error, 'an abort is not an AbortError').toBeInstanceOf(AbortError);
      expect(outcome.elapsedMs, 'an abort was not prompt').toBeLessThan(ABORT_AFTER_MS + 1_000);
    } else {
      tally.refused++;
      const typed = expectTypedError(test, outcome.error);
      if (test.oracle !== 'stall') {
        expect(typed.message, 'an answer that did not stall ended at a time limit').not.toMatch(
          / stalled| timed out/,
        );
      }
      // The same request gets the same malformed answer: it is never sent again.
      if (!typed.retryable) expect(closes.length, 'a refused answer was retried').toBe(1);
      if (test.mutation === 'an HTML page with HTTP 200') {
        expect(typed.message, 'an HTML page not named as one').toContain('an HTML page');
      }
      tallyMessage(typed);
    }
    const reference = references.get(test.sample);
    switch (test.oracle) {
      case 'same':
        if (reference?.error !== undefined) expect(outcome.error).toBeInstanceOf(ChatModelError);
        else if (reference?.response) {
          expect(outcome.error, 'a framing change failed the answer').toBeUndefined();
          expect(essence(outcome.response as ChatResponse)).toEqual(essence(reference.response));
        }
        break;
      case 'stall':
        // Two attempts of the idle limit each, and slack: far below the call deadline.
        expect(outcome.elapsedMs, 'a stall was not ended by the idle limit').toBeLessThan(
          STALL_LIMITS.timeoutMs * 0.6,
        );
        if (test.reply.status !== 200) {
          // The status, once the headers came (on a loaded machine they may come after the
          // stream's idle limit, which counts from the request).
          const error = outcome.error as ChatModelError;
          if (!/request stalled: no answer/.test(error.message)) {
            expect(error.status).toBe(test.reply.status);
          }
        }
        // A stall after the answer was complete (a recording of several answers) passes.
        if (outcome.response) expect(reference?.response, 'a stalled answer passed').toBeDefined();
        expectNothingBeyond(outcome, reference);
        break;
      case 'prefix':
        expectNothingBeyond(outcome, reference);
        break;
      case 'http': {
        const error = outcome.error as ChatModelError;
        expect(error, 'an HTTP failure passed').toBeInstanceOf(ChatModelError);
        expect(error.status).toBe(test.reply.status);
        expect(error.message).toContain(`HTTP ${test.reply.status}`);
        break;
      }
      case 'abort':
      case 'shape':
        break;
    }
    // Every connection the case opened is closed soon after its outcome.
    const closed = await Promise.race([
      Promise.all(closes).then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_500).unref()),
    ]);
    expect(closed, 'a connection was left open').toBe(true);
  }

  it('left no unhandled rejection', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });

  it('counts what was tried', () => {
    const messages = [...tally.messages.entries()].sort((a, b) => b[1] - a[1]);
    console.info(
      `wire fuzz (seed ${SEED}): ${JSON.stringify({ ...tally, messages: messages.length })}`,
    );
    // FUZZ_MESSAGES=1 lists every distinct error message (numbers as N), to read them for clarity.
    if (process.env.FUZZ_MESSAGES) {
      console.info(messages.map(([message, count]) => `  ${count}× ${message}`).join('\n'));
    }
    expect(tally.cases).toBe(cases.length);
    expect(tally.succeeded + tally.refused).toBe(tally.cases);
  });
});
