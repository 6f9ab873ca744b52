import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureText, frameChunksAsSse } from '../../test/integration/support/provider-fixtures.js';
import { assembleSse, splitAt } from '../../test/support/assemble-sse.js';
import { cutAtFractions } from '../../test/support/cut-at-fractions.js';
import { expectDeltasMatchCalls, streamedCalls } from '../../test/support/streamed-tool-calls.js';
import { ChatModelError } from '../errors/index.js';
import { AnthropicStreamAssembler } from './anthropic-stream-assembler.js';
import type { AnthropicWireBlock } from './anthropic-wire.js';
import { fromAnthropicResponse } from './from-anthropic-response.js';

const encoder = new TextEncoder();

function sse(payloads: { type: string; [key: string]: unknown }[]): Uint8Array {
  return encoder.encode(
    payloads
      .map((payload) => `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`)
      .join(''),
  );
}

const fractions = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });

const block = fc.oneof(
  fc.record({
    kind: fc.constant('text' as const),
    text: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
    cuts: fractions,
  }),
  fc.record({
    kind: fc.constant('tool_use' as const),
    name: fc.stringMatching(/^[a-z_]{1,12}$/),
    input: fc.dictionary(
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 4 },
    ),
    cuts: fractions,
  }),
);

const generatedMessage = fc.record({
  thinking: fc.option(
    fc.record({
      text: fc.string({ maxLength: 30 }),
      signature: fc.base64String({ maxLength: 20 }),
    }),
    { nil: undefined },
  ),
  blocks: fc.array(block, { maxLength: 6 }),
  pings: fc.array(fc.nat(20), { maxLength: 3 }),
  usage: fc.record({
    input_tokens: fc.nat(5000),
    output_tokens: fc.nat(5000),
    cache_read_input_tokens: fc.nat(100),
  }),
  byteCuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }),
  crlf: fc.boolean(),
});

describe('AnthropicStreamAssembler', () => {
  it('assembles generated streams, split at random byte offsets, exactly as the non-streamed body (property, T15)', async () => {
    await fc.assert(
      fc.asyncProperty(generatedMessage, async (generated) => {
        let toolIds = 0;
        const content: AnthropicWireBlock[] = [];
        if (generated.thinking) {
          content.push({
            type: 'thinking',
            thinking: generated.thinking.text,
            signature: generated.thinking.signature,
          });
        }
        const withIds = generated.blocks.map((entry) =>
          entry.kind === 'tool_use' ? { ...entry, id: `toolu_${toolIds++}` } : entry,
        );
        for (const entry of withIds) {
          content.push(
            entry.kind === 'text'
              ? { type: 'text', text: entry.text }
              : { type: 'tool_use', id: entry.id, name: entry.name, input: entry.input },
          );
        }
        const stopReason = toolIds > 0 ? 'tool_use' : 'end_turn';
        const body = {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-x',
          content,
          stop_reason: stopReason,
          usage: generated.usage,
        };
        const events: { type: string; [key: string]: unknown }[] = [
          {
            type: 'message_start',
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'claude-x',
              content: [],
              stop_reason: null,
              usage: {
                input_tokens: generated.usage.input_tokens,
                cache_read_input_tokens: generated.usage.cache_read_input_tokens,
                output_tokens: 1,
              },
            },
          },
        ];
        let index = 0;
        if (generated.thinking) {
          events.push({
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '' },
          });
          for (const piece of cutAtFractions(generated.thinking.text, [0.5])) {
            events.push({
              type: 'content_block_delta',
              index,
              delta: { type: 'thinking_delta', thinking: piece },
            });
          }
          events.push({
            type: 'content_block_delta',
            index,
            delta: { type: 'signature_delta', signature: generated.thinking.signature },
          });
          events.push({ type: 'content_block_stop', index });
          index++;
        }
        for (const entry of withIds) {
          if (entry.kind === 'text') {
            events.push({
              type: 'content_block_start',
              index,
              content_block: { type: 'text', text: '' },
            });
            for (const piece of cutAtFractions(entry.text, entry.cuts)) {
              if (piece)
                events.push({
                  type: 'content_block_delta',
                  index,
                  delta: { type: 'text_delta', text: piece },
                });
            }
          } else {
            events.push({
              type: 'content_block_start',
              index,
              content_block: { type: 'tool_use', id: entry.id, name: entry.name, input: {} },
            });
            events.push({
              type: 'content_block_delta',
              index,
              delta: { type: 'input_json_delta', partial_json: '' },
            });
            for (const piece of cutAtFractions(JSON.stringify(entry.input, null, 1), entry.cuts)) {
              events.push({
                type: 'content_block_delta',
                index,
                delta: { type: 'input_json_delta', partial_json: piece },
              });
            }
          }
          events.push({ type: 'content_block_stop', index });
          index++;
        }
        events.push({
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: generated.usage.output_tokens },
        });
        events.push({ type: 'message_stop' });
        for (const position of generated.pings)
          events.splice(Math.min(position, events.length), 0, { type: 'ping' });
        let bytes = sse(events);
        if (generated.crlf)
          bytes = encoder.encode(new TextDecoder().decode(bytes).replace(/\n/g, '\r\n'));
        const offsets = generated.byteCuts.map((fraction) => Math.floor(fraction * bytes.length));
        const { response, chunks } = await assembleSse(
          splitAt(bytes, offsets),
          new AnthropicStreamAssembler(),
        );
        expect(response).toEqual(fromAnthropicResponse(body));
        expectDeltasMatchCalls(chunks, response);
        // The calls arrive whole, together, in the chunk of message_stop (a stream cut before it
        // runs none of them).
        const callCounts = chunks
          .map((emitted) => emitted.results[0]?.output.toolCalls.length ?? 0)
          .filter((count) => count > 0);
        expect(callCounts).toEqual(toolIds > 0 ? [toolIds] : []);
      }),
      { numRuns: 2_000 },
    );
  });

  it('ends with a typed error when the stream stops inside a tool_use block (T17)', async () => {
    const stream = assembleSse(
      [
        sse([
          { type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } },
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 't', name: 'f', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"a":' },
          },
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    await expect(stream).rejects.toMatchObject({
      name: 'ChatModelError',
      provider: 'anthropic',
      retryable: true,
    });
  });

  it('maps an invalid_request error event to a non-retryable 400 (T18)', async () => {
    const stream = assembleSse(
      [sse([{ type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }])],
      new AnthropicStreamAssembler(),
    );
    await expect(stream).rejects.toMatchObject({ status: 400, retryable: false });
  });

  it('keeps redacted thinking to send back', async () => {
    const { response } = await assembleSse(
      [
        sse([
          { type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } },
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'redacted_thinking', data: 'opaque' },
          },
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn' },
            usage: { output_tokens: 2 },
          },
          { type: 'message_stop' },
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    expect(response.results[0]?.output.metadata?.thinking).toEqual([
      { type: 'redacted_thinking', data: 'opaque' },
    ]);
    expect(response.metadata.usage).toEqual({
      promptTokens: 1,
      completionTokens: 2,
      totalTokens: 3,
    });
  });

  it('accepts content-block indexes 0 to 9,999 and refuses a larger one at once', async () => {
    const at = (index: unknown) =>
      assembleSse(
        [
          sse([
            { type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } },
            { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
            { type: 'content_block_delta', index, delta: { type: 'text_delta', text: 'x' } },
            { type: 'content_block_stop', index },
            { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: {} },
            { type: 'message_stop' },
          ]),
        ],
        new AnthropicStreamAssembler(),
      );
    expect((await at(9_999)).response.results[0]?.output.text).toBe('x');
    for (const index of [10_000, 4_294_967_294, -1, 1.5, '0', null]) {
      const outcome = at(index);
      await expect(outcome).rejects.toBeInstanceOf(ChatModelError);
      await expect(outcome).rejects.toMatchObject({ retryable: false });
    }
  });

  it('keeps partial_json that arrives as an object as its JSON text, marked for the manager to refuse', async () => {
    const { response } = await assembleSse(
      [
        sse([
          { type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } },
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 't', name: 'f', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: { path: 5 } },
          },
          { type: 'content_block_stop', index: 0 },
          { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: {} },
          { type: 'message_stop' },
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    expect(response.results[0]?.output.toolCalls).toEqual([
      { id: 't', name: 'f', arguments: '{"path":5}', metadata: { nonTextArguments: true } },
    ]);
  });

  it('tells keep-alive pings from progress', () => {
    const assembler = new AnthropicStreamAssembler();
    expect(assembler.isKeepAlive({ event: 'ping', data: '{"type": "ping"}', id: undefined })).toBe(
      true,
    );
    expect(
      assembler.isKeepAlive({ event: undefined, data: '{"type":"ping"}', id: undefined }),
    ).toBe(true);
    expect(
      assembler.isKeepAlive({
        event: 'content_block_delta',
        data: '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}',
        id: undefined,
      }),
    ).toBe(false);
  });
});

/** A recorded Messages stream as the server sent it (re-framed where the recorder stripped it). */
function recordedStream(file: string): Uint8Array {
  const text = fixtureText(`anthropic-messages/${file}`);
  return encoder.encode(file.endsWith('.chunks.txt') ? frameChunksAsSse(text, 'anthropic') : text);
}

/** The streamed bodies of a recorded HTTP transcript (a tool-runner loop with `stream: true`). */
function transcriptStreams(file: string): Uint8Array[] {
  const entries = JSON.parse(fixtureText(`anthropic-messages/${file}`)) as {
    response: { body: unknown };
  }[];
  return entries
    .map((entry) => entry.response.body)
    .filter((body): body is string => typeof body === 'string')
    .map((body) => encoder.encode(body));
}

describe('AnthropicStreamAssembler tool-call deltas', () => {
  it.each(['tool_use_response.txt', 'anthropic-json-tool.1.chunks.txt'])(
    '%s: announces the call at its block start, then its input pieces, adding up to its arguments',
    async (file) => {
      const { response, chunks } = await assembleSse(
        [recordedStream(file)],
        new AnthropicStreamAssembler(),
      );
      const [call, ...others] = expectDeltasMatchCalls(chunks, response);
      expect(others).toEqual([]);
      // The announcement, then one delta per input_json_delta with text in it.
      const recordedPieces = new TextDecoder()
        .decode(recordedStream(file))
        .split('\n')
        .filter((line) => line.startsWith('data: {') && line.includes('input_json_delta'))
        .map((line) => JSON.parse(line.slice(6)).delta.partial_json as string);
      expect(call?.pieces).toBe(1 + recordedPieces.filter((piece) => piece.trim() !== '').length);
      expect(call?.pieces).toBeGreaterThan(2);
      // The recorded text has spaces between tokens; the pieces are the same JSON without them.
      expect(recordedPieces.join('')).toMatch(/": /);
      expect(JSON.parse(call?.text as string)).toEqual(JSON.parse(recordedPieces.join('')));
    },
  );

  it('sends `{}` as the one argument piece of a call whose input streamed empty', async () => {
    const { response, chunks } = await assembleSse(
      [recordedStream('anthropic-tool-no-args.chunks.txt')],
      new AnthropicStreamAssembler(),
    );
    const [call] = expectDeltasMatchCalls(chunks, response);
    expect(call).toMatchObject({ name: 'updateIssueList', text: '{}', pieces: 2 });
  });

  it('streams the call of each response of a recorded streaming tool loop', async () => {
    const streams = transcriptStreams('771c64ff-a0af-4cd9-8080-a5a539da7cb9.json');
    expect(streams.length).toBeGreaterThan(1);
    let calls = 0;
    for (const stream of streams) {
      const { response, chunks } = await assembleSse([stream], new AnthropicStreamAssembler());
      calls += expectDeltasMatchCalls(chunks, response).length;
    }
    expect(calls).toBeGreaterThan(0);
  });

  it('streams a call cut off by max_tokens, which is then marked truncated under the same id', async () => {
    const { response, chunks } = await assembleSse(
      [recordedStream('incomplete_partial_json_response.txt')],
      new AnthropicStreamAssembler(),
    );
    const [call] = response.results[0]?.output.toolCalls ?? [];
    expect(call?.metadata).toEqual({ truncated: true });
    const [streamed] = streamedCalls(chunks);
    expect(streamed?.id).toBe(call?.id);
    expect(streamed?.pieces).toBeGreaterThan(1);
    // A cut-off call keeps its arguments as sent; its pieces are the same text without the
    // whitespace between tokens.
    const withoutWhitespace = (text: string) => text.replace(/\s/g, '');
    expect(withoutWhitespace(streamed?.text as string)).toBe(
      withoutWhitespace(call?.arguments as string),
    );
  });

  it('never completes the call of a message abandoned by a second message_start', async () => {
    const { response, chunks } = await assembleSse(
      [recordedStream('spliced-message-start.chunks.txt')],
      new AnthropicStreamAssembler(),
    );
    expect(response.results[0]?.output.toolCalls.map((call) => call.id)).toEqual(['toolu_second']);
    expect(streamedCalls(chunks).map((call) => call.id)).toEqual(['toolu_first', 'toolu_second']);
    const second = chunks.slice(chunks.findIndex((chunk) => chunk.metadata.id === 'msg_second'));
    expectDeltasMatchCalls(second, response);
  });
});

describe('AnthropicStreamAssembler tool-call deltas from hostile streams', () => {
  const start = { type: 'message_start', message: { id: 'm', model: 'c', usage: {} } };
  const end = [
    { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 1 } },
    { type: 'message_stop' },
  ];

  it('gives a block that repeats the id of an earlier block a fresh one, deltas included', async () => {
    const block = (index: number) => ({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: 'toolu_same', name: 'f', input: { n: index } },
    });
    const { response, chunks } = await assembleSse(
      [
        sse([
          start,
          block(0),
          { type: 'content_block_stop', index: 0 },
          block(1),
          { type: 'content_block_stop', index: 1 },
          ...end,
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    const ids = response.results[0]?.output.toolCalls.map((call) => call.id) ?? [];
    expect(ids[0]).toBe('toolu_same');
    expect(ids[1]).toMatch(/^toolu_[0-9a-f]{32}$/);
    expect(streamedCalls(chunks).map((call) => call.id)).toEqual(ids);
  });

  it('gives the deltas of a block without an id the fresh id the call gets', async () => {
    const { response, chunks } = await assembleSse(
      [
        sse([
          start,
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', name: 'f', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"a": "b c"}' },
          },
          { type: 'content_block_stop', index: 0 },
          ...end,
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    const [call] = expectDeltasMatchCalls(chunks, response);
    expect(call?.id).toMatch(/^toolu_[0-9a-f]{32}$/);
    expect(call?.text).toBe('{"a":"b c"}');
  });

  it('ignores deltas for unknown blocks and stops streaming a call once its input is not text', async () => {
    const { response, chunks } = await assembleSse(
      [
        sse([
          start,
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_a', name: 'rm', input: {} },
          },
          {
            type: 'content_block_delta',
            index: 7,
            delta: { type: 'input_json_delta', partial_json: '{"path":"/"}' },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"p' },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: { path: '/' } },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: 'ath":"/"}' },
          },
          { type: 'content_block_stop', index: 0 },
          { type: 'content_block_stop', index: 7 },
          ...end,
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    expect(streamedCalls(chunks).map((call) => [call.id, call.text])).toEqual([['toolu_a', '{"p']]);
    expect(response.results[0]?.output.toolCalls).toEqual([
      {
        id: 'toolu_a',
        name: 'rm',
        arguments: '{"path":"/"}',
        metadata: { nonTextArguments: true },
      },
    ]);
  });

  it('streams no server-run block (its input is not a call the loop runs)', async () => {
    const { chunks } = await assembleSse(
      [
        sse([
          start,
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search' },
          },
          {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: '{"query":"x"}' },
          },
          { type: 'content_block_stop', index: 0 },
          ...end,
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    expect(streamedCalls(chunks)).toEqual([]);
  });
});

describe('AnthropicStreamAssembler: a call whose stream broke its order never runs', () => {
  const start = { type: 'message_start', message: { id: 'm', model: 'c', usage: {} } };
  const toolStart = {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'tool_use', id: 'toolu_rm', name: 'rm', input: {} },
  };
  const inputDelta = (partial: string) => ({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'input_json_delta', partial_json: partial },
  });
  const stopReason = {
    type: 'message_delta',
    delta: { stop_reason: 'tool_use' },
    usage: { output_tokens: 5 },
  };

  it('marks truncated a call whose input_json_delta came before its content_block_start (it would run with {})', async () => {
    const { response } = await assembleSse(
      [
        sse([
          start,
          inputDelta('{"path":"/"}'),
          toolStart,
          { type: 'content_block_stop', index: 0 },
          stopReason,
          { type: 'message_stop' },
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    const [call] = response.results[0]?.output.toolCalls ?? [];
    expect(call?.id).toBe('toolu_rm');
    expect(call?.metadata).toEqual({ truncated: true });
  });

  it('marks truncated a call that got an input_json_delta after its content_block_stop', async () => {
    const { response } = await assembleSse(
      [
        sse([
          start,
          toolStart,
          inputDelta('{"path":'),
          inputDelta('"/tmp"}'),
          { type: 'content_block_stop', index: 0 },
          inputDelta('{"path":"/"}'),
          stopReason,
          { type: 'message_stop' },
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    expect(response.results[0]?.output.toolCalls[0]?.metadata).toEqual({ truncated: true });
  });

  it('marks the calls truncated when the stream ends after the stop reason but before message_stop', async () => {
    const { response, chunks } = await assembleSse(
      [
        sse([
          start,
          toolStart,
          inputDelta('{"path":"/tmp"}'),
          { type: 'content_block_stop', index: 0 },
          stopReason,
        ]),
      ],
      new AnthropicStreamAssembler(),
    );
    expect(response.results[0]?.output.toolCalls).toEqual([
      { id: 'toolu_rm', name: 'rm', arguments: '{"path":"/tmp"}', metadata: { truncated: true } },
    ]);
    // No chunk before the end carried the call as complete.
    const complete = chunks.flatMap((chunk) =>
      (chunk.results[0]?.output.toolCalls ?? []).filter((call) => call.metadata === undefined),
    );
    expect(complete).toEqual([]);
  });

  it('emits a complete call only with message_stop', async () => {
    const events = [
      start,
      toolStart,
      inputDelta('{"path":"/tmp"}'),
      { type: 'content_block_stop', index: 0 },
      stopReason,
    ];
    const assembler = new AnthropicStreamAssembler();
    const before = await assembleSse([sse(events)], assembler).catch(() => undefined);
    expect(before?.response.results[0]?.output.toolCalls[0]?.metadata).toEqual({ truncated: true });
    const { response } = await assembleSse(
      [sse([...events, { type: 'message_stop' }])],
      new AnthropicStreamAssembler(),
    );
    expect(response.results[0]?.output.toolCalls).toEqual([
      { id: 'toolu_rm', name: 'rm', arguments: '{"path":"/tmp"}' },
    ]);
    expect(response.results[0]?.metadata.finishReason).toBe('tool_calls');
  });
});
