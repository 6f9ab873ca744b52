import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureText, frameChunksAsSse } from '../../test/integration/support/provider-fixtures.js';
import { assembleSse, splitAt } from '../../test/support/assemble-sse.js';
import { cutAtFractions } from '../../test/support/cut-at-fractions.js';
import { expectDeltasMatchCalls, streamedCalls } from '../../test/support/streamed-tool-calls.js';
import { ChatModelError } from '../errors/index.js';
import type { ChatResponse } from '../model/index.js';
import { fromOpenAiResponse } from './from-openai-response.js';
import { OpenAiStreamAssembler } from './openai-stream-assembler.js';

const encoder = new TextEncoder();

function sse(payloads: unknown[], done = true): Uint8Array {
  const events = payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`).join('');
  return encoder.encode(events + (done ? 'data: [DONE]\n\n' : ''));
}

function chunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  extra: Record<string, unknown> = {},
) {
  return {
    id: 'chatcmpl-1',
    model: 'gpt-x',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  };
}

const generatedResponse = fc.record({
  text: fc.string({ unit: 'grapheme', maxLength: 40 }),
  textCuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
  calls: fc.uniqueArray(
    fc.record({
      id: fc.stringMatching(/^call_[A-Za-z0-9]{4,12}$/),
      name: fc.stringMatching(/^[a-z_]{1,12}$/),
      args: fc.dictionary(
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.jsonValue({ maxDepth: 2 }),
        { maxKeys: 4 },
      ),
      cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
      blankContinuationIds: fc.boolean(),
    }),
    { maxLength: 5, selector: (call) => call.id },
  ),
  interleave: fc.boolean(),
  firstIndex: fc.constantFrom(0, 1),
  finish: fc.constantFrom('stop', 'tool_calls', 'length'),
  usage: fc.record({ prompt_tokens: fc.nat(5000), completion_tokens: fc.nat(5000) }),
  byteCuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }),
  crlf: fc.boolean(),
});

describe('OpenAiStreamAssembler', () => {
  it('assembles generated streams, split at random byte offsets, exactly as the non-streamed body (property, T15)', async () => {
    await fc.assert(
      fc.asyncProperty(generatedResponse, async (generated) => {
        const usage = {
          ...generated.usage,
          total_tokens: generated.usage.prompt_tokens + generated.usage.completion_tokens,
        };
        const body = {
          id: 'chatcmpl-1',
          model: 'gpt-x',
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: generated.text,
                ...(generated.calls.length > 0
                  ? {
                      tool_calls: generated.calls.map((call) => ({
                        id: call.id,
                        type: 'function',
                        function: { name: call.name, arguments: JSON.stringify(call.args) },
                      })),
                    }
                  : {}),
              },
              finish_reason: generated.finish,
            },
          ],
          usage,
        };
        const payloads: unknown[] = [chunk({ role: 'assistant', content: '' })];
        for (const piece of cutAtFractions(generated.text, generated.textCuts))
          if (piece) payloads.push(chunk({ content: piece }));
        const callDeltas = generated.calls.map((call, position) => {
          const index = position + generated.firstIndex;
          const deltas: unknown[] = [
            chunk({
              tool_calls: [
                {
                  index,
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: '' },
                },
              ],
            }),
          ];
          for (const piece of cutAtFractions(JSON.stringify(call.args), call.cuts)) {
            const continuation: Record<string, unknown> = { index, function: { arguments: piece } };
            if (call.blankContinuationIds) continuation.id = '';
            deltas.push(chunk({ tool_calls: [continuation] }));
          }
          return deltas;
        });
        if (generated.interleave) {
          const longest = Math.max(0, ...callDeltas.map((deltas) => deltas.length));
          for (let step = 0; step < longest; step++) {
            for (const deltas of callDeltas) if (deltas[step]) payloads.push(deltas[step]);
          }
        } else {
          for (const deltas of callDeltas) payloads.push(...deltas);
        }
        payloads.push(chunk({}, generated.finish));
        payloads.push({ id: 'chatcmpl-1', model: 'gpt-x', choices: [], usage });
        let bytes = sse(payloads);
        if (generated.crlf)
          bytes = encoder.encode(new TextDecoder().decode(bytes).replace(/\n/g, '\r\n'));
        const offsets = generated.byteCuts.map((fraction) => Math.floor(fraction * bytes.length));
        const { response, chunks } = await assembleSse(
          splitAt(bytes, offsets),
          new OpenAiStreamAssembler(),
        );
        expect(response).toEqual(fromOpenAiResponse(body));
        expectDeltasMatchCalls(chunks, response);
        // Whole calls only, all in the chunk that finishes the choice.
        const withCalls = chunks.filter((emitted) => emitted.results[0]?.output.toolCalls.length);
        expect(withCalls.length).toBe(generated.calls.length > 0 ? 1 : 0);
      }),
      { numRuns: 2_000 },
    );
  });

  it('marks every call of a response cut by the output limit as truncated', async () => {
    const { response } = await assembleSse(
      [
        sse([
          chunk({
            tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"x": 1}' } }],
          }),
          chunk({
            tool_calls: [{ index: 1, id: 'b', function: { name: 'g', arguments: '{"y": "ab' } }],
          }),
          chunk({}, 'length'),
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    expect(response.results[0]?.metadata.finishReason).toBe('length');
    expect(response.results[0]?.output.toolCalls).toEqual([
      { id: 'a', name: 'f', arguments: '{"x": 1}', metadata: { truncated: true } },
      { id: 'b', name: 'g', arguments: '{"y": "ab', metadata: { truncated: true } },
    ]);
  });

  it('handles a missing index, a name sent in a later delta and an index reused by a new id (T16)', async () => {
    const { response } = await assembleSse(
      [
        sse([
          chunk({ tool_calls: [{ id: 'a', function: { arguments: '{"q":' } }] }),
          chunk({ tool_calls: [{ function: { name: 'search', arguments: '"x"}' } }] }),
          chunk({ tool_calls: [{ index: 3, id: 'b', function: { name: 'f', arguments: '{}' } }] }),
          chunk({
            tool_calls: [{ index: 3, id: 'c', function: { name: 'g', arguments: '{"z":2}' } }],
          }),
          chunk({}, 'tool_calls'),
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    expect(response.results[0]?.output.toolCalls).toEqual([
      { id: 'a', name: 'search', arguments: '{"q":"x"}' },
      { id: 'b', name: 'f', arguments: '{}' },
      { id: 'c', name: 'g', arguments: '{"z":2}' },
    ]);
  });

  it('keeps the choices of an n>1 response apart', async () => {
    const { response } = await assembleSse(
      [
        sse([
          { id: 'r', choices: [{ index: 1, delta: { content: 'B' } }] },
          { id: 'r', choices: [{ index: 0, delta: { content: 'A' } }] },
          {
            id: 'r',
            choices: [
              { index: 0, delta: {}, finish_reason: 'stop' },
              { index: 1, delta: {}, finish_reason: 'stop' },
            ],
          },
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    expect(response.results.map((generation) => generation.output.text)).toEqual(['A', 'B']);
    expect(response.results.map((generation) => generation.metadata.finishReason)).toEqual([
      'stop',
      'stop',
    ]);
  });

  it('marks the calls of a choice that has no finish reason at [DONE] as truncated, and ignores anything after it', async () => {
    const { response } = await assembleSse(
      [
        encoder.encode(
          `data: ${JSON.stringify(chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] }))}\n\ndata: [DONE]\n\ndata: ${JSON.stringify(chunk({ content: 'late' }))}\n\n`,
        ),
      ],
      new OpenAiStreamAssembler(),
    );
    expect(response.results[0]?.output).toEqual({
      role: 'assistant',
      text: null,
      toolCalls: [{ id: 'a', name: 'f', arguments: '{}', metadata: { truncated: true } }],
    });
    expect(response.results[0]?.metadata.finishReason).toBeNull();
  });

  it('accepts choice indexes 0 to 127 and refuses a larger one at once, without filling slots', async () => {
    const at = (index: number) =>
      assembleSse(
        [sse([{ id: 'r', choices: [{ index, delta: { content: 'x' }, finish_reason: 'stop' }] }])],
        new OpenAiStreamAssembler(),
      );
    const { response } = await at(127);
    expect(response.results).toHaveLength(128);
    expect(response.results[127]?.output.text).toBe('x');
    for (const index of [128, 1_000_000, 4_294_967_294, -1, 0.5]) {
      const outcome = at(index);
      await expect(outcome).rejects.toBeInstanceOf(ChatModelError);
      await expect(outcome).rejects.toMatchObject({ retryable: false });
      await expect(outcome).rejects.toThrow('must be an integer from 0 to 127');
    }
    // The 113-byte event of the report: refused, not assembled into 4 billion slots.
    const report = `data: {"id":"x","choices":[{"index":4294967294,"delta":{"content":"a"},"finish_reason":null}]}\n\n`;
    await expect(
      assembleSse([encoder.encode(report)], new OpenAiStreamAssembler()),
    ).rejects.toThrow('choices[0].index must be an integer from 0 to 127');
  });

  it('refuses a tool-call index past 9,999', async () => {
    const outcome = assembleSse(
      [
        sse([
          chunk({
            tool_calls: [
              { index: 4_294_967_294, id: 'a', function: { name: 'f', arguments: '{}' } },
            ],
          }),
          chunk({}, 'tool_calls'),
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    await expect(outcome).rejects.toThrow('tool_calls[0].index must be an integer from 0 to 9999');
  });

  it('keeps arguments that arrive as an object as their JSON text, marked for the manager to refuse', async () => {
    const { response } = await assembleSse(
      [
        sse([
          chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: { path: 5 } } }] }),
          chunk({}, 'tool_calls'),
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    expect(response.results[0]?.output.toolCalls).toEqual([
      { id: 'a', name: 'f', arguments: '{"path":5}', metadata: { nonTextArguments: true } },
    ]);
  });

  it('throws a typed error for an error event, a non-JSON event, and a stream cut before the finish (T17, T18)', async () => {
    const errorEvent = assembleSse(
      [
        sse(
          [chunk({ content: 'Hi' }), { error: { type: 'server_error', message: 'boom' } }],
          false,
        ),
      ],
      new OpenAiStreamAssembler(),
    );
    await expect(errorEvent).rejects.toMatchObject({ name: 'ChatModelError', retryable: true });
    await expect(errorEvent).rejects.toThrow('server_error: boom');
    await expect(
      assembleSse([encoder.encode('data: {"id":\n\n')], new OpenAiStreamAssembler()),
    ).rejects.toBeInstanceOf(ChatModelError);
    const cutStream = assembleSse(
      [
        sse(
          [
            chunk({
              tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"a":' } }],
            }),
          ],
          false,
        ),
      ],
      new OpenAiStreamAssembler(),
    );
    await expect(cutStream).rejects.toThrow('ended before the response finished');
  });
});

/** Every recorded Chat Completions stream, as the server sent it (re-framed where stripped). */
const RECORDED_STREAMS = [
  'c6aa7e397b7123c3501f25df3a05d4daf7e8ad6d61ffa406ab5361fe36a8d5b1.bin.txt',
  'f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin.txt',
  'a247c49c5fcd492bfb7a02a3306ad615ed8d8f649888ebfddfbc3ee151f44d46.bin.txt',
  '2018feb66ae13fcf5333d61b95849decc68d3f63bd38172889367e1afb1e04f7.bin.txt',
  'xai-tool-call.chunks.txt',
  'deepseek-tool-call.chunks.txt',
  'groq-tool-call.chunks.txt',
  'alibaba-tool-call.chunks.txt',
  'anthropic-fallback-tool-call.sse.txt',
];

function recordedStream(file: string): Uint8Array {
  const text = fixtureText(`openai-chat-completions/${file}`);
  return encoder.encode(file.endsWith('.chunks.txt') ? frameChunksAsSse(text, 'openai') : text);
}

describe('OpenAiStreamAssembler tool-call deltas', () => {
  it.each(RECORDED_STREAMS)(
    '%s: announces each call, then streams its argument text as recorded, ahead of the complete call',
    async (file) => {
      const { response, chunks } = await assembleSse(
        [recordedStream(file)],
        new OpenAiStreamAssembler(),
      );
      const streamed = expectDeltasMatchCalls(chunks, response);
      expect(streamed.length).toBeGreaterThan(0);
    },
  );

  it('passes the recorded GetWeatherArgs stream on piece by piece, one delta per wire delta', async () => {
    const file = RECORDED_STREAMS[0] as string;
    // The announcement (name, empty arguments), then one delta per non-empty wire piece.
    const wireArguments = fixtureText(`openai-chat-completions/${file}`)
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .flatMap((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.tool_calls ?? [])
      .map((call: { function: { arguments: string } }) => call.function.arguments);
    const wirePieces = 1 + wireArguments.filter((piece: string) => piece !== '').length;
    const { chunks } = await assembleSse([recordedStream(file)], new OpenAiStreamAssembler());
    const [call] = streamedCalls(chunks);
    expect(call?.name).toBe('GetWeatherArgs');
    expect(call?.pieces).toBe(wirePieces);
    expect(call?.pieces).toBeGreaterThan(10);
  });

  it('streams parallel calls with their own ids and positions, all of the first before the second', async () => {
    const { response, chunks } = await assembleSse(
      [recordedStream(RECORDED_STREAMS[1] as string)],
      new OpenAiStreamAssembler(),
    );
    const [first, second] = expectDeltasMatchCalls(chunks, response);
    expect([first?.name, second?.name]).toEqual(['GetWeatherArgs', 'get_stock_price']);
    expect([first?.index, second?.index]).toEqual([0, 1]);
    expect(first?.lastChunk).toBeLessThan(second?.firstChunk as number);
  });

  it('counts positions from 0 when the server starts its indexes at 1', async () => {
    const { chunks } = await assembleSse(
      [recordedStream('anthropic-fallback-tool-call.sse.txt')],
      new OpenAiStreamAssembler(),
    );
    expect(streamedCalls(chunks).map((call) => [call.id, call.index])).toEqual([
      ['toolu_sanitized', 0],
    ]);
  });
});

describe('OpenAiStreamAssembler tool-call deltas from hostile streams', () => {
  it('gives the deltas of a call sent without an id the fresh id the complete call gets', async () => {
    const { response, chunks } = await assembleSse(
      [
        sse([
          chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '{"a":' } }] }),
          chunk({ tool_calls: [{ index: 0, id: 'late', function: { arguments: '1}' } }] }),
          chunk({ tool_calls: [{ index: 1, id: '', function: { name: 'g', arguments: '{}' } }] }),
          chunk({}, 'tool_calls'),
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    const [first, second] = expectDeltasMatchCalls(chunks, response);
    expect(first?.id).toMatch(/^call_[0-9a-f]{32}$/);
    expect(second?.id).toMatch(/^call_[0-9a-f]{32}$/);
    expect(first?.id).not.toBe(second?.id);
    expect(first?.text).toBe('{"a":1}');
  });

  it('carries the id sent only on the first delta on every later delta', async () => {
    const { chunks } = await assembleSse(
      [
        sse([
          chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] }),
          chunk({ tool_calls: [{ index: 0, id: '', function: { arguments: ':1}' } }] }),
          chunk({}, 'tool_calls'),
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    const deltas = chunks.flatMap((emitted) => emitted.results[0]?.toolCallDeltas ?? []);
    expect(deltas).toEqual([
      { id: 'call_1', index: 0, name: 'f', arguments: '' },
      { id: 'call_1', index: 0, arguments: '{"a"' },
      { id: 'call_1', index: 0, arguments: ':1}' },
    ]);
  });

  it('emits nothing for deltas after the finish reason, and they never become calls', async () => {
    const { response, chunks } = await assembleSse(
      [
        sse([
          chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] }),
          chunk({}, 'tool_calls'),
          chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'rm', arguments: '{}' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":1}' } }] }),
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    expect(response.results[0]?.output.toolCalls).toEqual([
      { id: 'a', name: 'f', arguments: '{}' },
    ]);
    expect(streamedCalls(chunks).map((call) => [call.id, call.text])).toEqual([['a', '{}']]);
  });

  it('marks a cut-off call truncated though its deltas went out, under the same id', async () => {
    const { response, chunks } = await assembleSse(
      [
        sse([
          chunk({
            tool_calls: [{ index: 0, id: 'a', function: { name: 'rm', arguments: '{"pa' } }],
          }),
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    expect(response.results[0]?.output.toolCalls).toEqual([
      { id: 'a', name: 'rm', arguments: '{"pa', metadata: { truncated: true } },
    ]);
    expectDeltasMatchCalls(chunks, response);
  });

  it('announces no call whose arguments are not text', async () => {
    const { chunks } = await assembleSse(
      [
        sse([
          chunk({
            tool_calls: [{ index: 0, id: 'a', function: { name: 'rm', arguments: { p: 1 } } }],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"p":1}' } }] }),
          chunk({}, 'tool_calls'),
        ]),
      ],
      new OpenAiStreamAssembler(),
    );
    expect(streamedCalls(chunks)).toEqual([]);
  });

  it('refuses a huge tool-call index before any delta of it goes out', async () => {
    const emitted: ChatResponse[] = [];
    const assembler = new OpenAiStreamAssembler();
    const events = [
      chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{' } }] }),
      chunk({
        tool_calls: [{ index: 2 ** 31, id: 'b', function: { name: 'rm', arguments: '{}' } }],
      }),
    ];
    const feed = () => {
      for (const payload of events)
        for (const out of assembler.event({ data: JSON.stringify(payload) })) emitted.push(out);
    };
    expect(feed).toThrow(ChatModelError);
    expect(streamedCalls(emitted).map((call) => call.id)).toEqual(['a']);
  });
});
