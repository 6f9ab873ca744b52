import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnthropicStreamAssembler } from '../../src/anthropic/anthropic-stream-assembler.js';
import type { ChatResponse } from '../../src/model/index.js';
import { OpenAiStreamAssembler } from '../../src/openai/openai-stream-assembler.js';
import { assembleSse, reframeSse, splitAt } from '../support/assemble-sse.js';
import { fixtureText, frameChunksAsSse } from './support/provider-fixtures.js';

/** Every recorded stream of one adapter, as SSE text. */
const STREAMS = {
  openai: [
    [
      'openai-chat-completions/c6aa7e397b7123c3501f25df3a05d4daf7e8ad6d61ffa406ab5361fe36a8d5b1.bin.txt',
      false,
    ],
    [
      'openai-chat-completions/f82268f2fefd5cfbc7eeb59c297688be2f6ca0849a6e4f17851b517310841d9b.bin.txt',
      false,
    ],
    [
      'openai-chat-completions/a247c49c5fcd492bfb7a02a3306ad615ed8d8f649888ebfddfbc3ee151f44d46.bin.txt',
      false,
    ],
    [
      'openai-chat-completions/2018feb66ae13fcf5333d61b95849decc68d3f63bd38172889367e1afb1e04f7.bin.txt',
      false,
    ],
    ['openai-chat-completions/anthropic-fallback-tool-call.sse.txt', false],
    ['openai-chat-completions/xai-tool-call.chunks.txt', true],
    ['openai-chat-completions/deepseek-tool-call.chunks.txt', true],
    ['openai-chat-completions/groq-tool-call.chunks.txt', true],
    ['openai-chat-completions/alibaba-tool-call.chunks.txt', true],
  ],
  anthropic: [
    ['anthropic-messages/tool_use_response.txt', false],
    ['anthropic-messages/incomplete_partial_json_response.txt', false],
    ['anthropic-messages/anthropic-tool-no-args.chunks.txt', true],
    ['anthropic-messages/anthropic-json-tool.1.chunks.txt', true],
    ['anthropic-messages/anthropic-mcp.1.chunks.txt', true],
    ['anthropic-messages/spliced-message-start.chunks.txt', true],
    // The second (final-answer) stream of the recorded streaming tool loop.
    ['anthropic-messages/771c64ff-a0af-4cd9-8080-a5a539da7cb9.json', 'transcript'],
  ],
} as const;

const CASES_PER_ADAPTER = 10_000;

describe('recorded streams split at random byte offsets', () => {
  describe.each(['openai', 'anthropic'] as const)('%s', (adapter) => {
    const create = () =>
      adapter === 'openai' ? new OpenAiStreamAssembler() : new AnthropicStreamAssembler();
    let streams: { bytes: Uint8Array; text: string; expected: ChatResponse }[] = [];

    beforeAll(async () => {
      streams = await Promise.all(
        STREAMS[adapter].map(async ([file, framed]) => {
          const raw = fixtureText(file);
          const text =
            framed === 'transcript'
              ? (JSON.parse(raw) as { response: { body: string } }[])[1]!.response.body
              : framed
                ? frameChunksAsSse(raw, adapter)
                : raw;
          const bytes = new TextEncoder().encode(text);
          return { bytes, text, expected: (await assembleSse([bytes], create())).response };
        }),
      );
    });

    it(`assemble exactly as the unsplit stream (${CASES_PER_ADAPTER} cases; UTF-8, data: lines, CRLF/LF, keep-alives)`, {
      timeout: 90_000,
    }, async () => {
      if (adapter === 'anthropic') {
        // The recorded "68°F" answer: its two-byte character is where a split matters most.
        expect(streams.some(({ text }) => text.includes('°'))).toBe(true);
      }
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: STREAMS[adapter].length - 1 }),
          fc.boolean(),
          fc.array(fc.nat({ max: 60 }), { maxLength: 4 }),
          fc.oneof(
            {
              weight: 49,
              arbitrary: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }),
            },
            { weight: 1, arbitrary: fc.constant('every-byte' as const) },
          ),
          async (index, crlf, commentBefore, split) => {
            const stream = streams[index]!;
            const text =
              crlf || commentBefore.length > 0
                ? reframeSse(stream.text, { crlf, commentBefore })
                : stream.text;
            const bytes = text === stream.text ? stream.bytes : new TextEncoder().encode(text);
            const offsets =
              split === 'every-byte'
                ? Array.from({ length: Math.min(bytes.length, 2048) }, (_, offset) => offset)
                : split.map((fraction) => Math.floor(fraction * bytes.length));
            const { response } = await assembleSse(splitAt(bytes, offsets), create());
            expect(response).toEqual(stream.expected);
          },
        ),
        { numRuns: CASES_PER_ADAPTER },
      );
    });
  });
});
