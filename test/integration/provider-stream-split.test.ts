import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnthropicStreamAssembler } from '../../src/anthropic/anthropic-stream-assembler.js';
import { GoogleStreamAssembler } from '../../src/google/google-stream-assembler.js';
import type { ChatResponse } from '../../src/model/index.js';
import { OpenAiResponsesStreamAssembler } from '../../src/openai/openai-responses-stream-assembler.js';
import { OpenAiStreamAssembler } from '../../src/openai/openai-stream-assembler.js';
import { assembleSse, reframeSse, splitAt } from '../support/assemble-sse.js';
import { fixtureText, frameChunksAsSse, responsesStreamsOf } from './support/provider-fixtures.js';

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
  // Every step of every recorded Responses stream that ends well (each step its own stream).
  'openai-responses': [
    'openai-reasoning-encrypted-content.1.chunks.txt',
    'azure-reasoning-encrypted-content.1.chunks.txt',
    'azure-tool-call.1.chunks.txt',
    'lmstudio-tool-call.1.chunks.txt',
    'programmatic-tool-calling.1.chunks.txt',
    'programmatic-tool-calling.2.chunks.txt',
    'programmatic-tool-calling.3.chunks.txt',
    'openai-tool-search.1.chunks.txt',
    'openai-client-tool-search.1.chunks.txt',
    'openai-client-tool-search.2.chunks.txt',
    'openai-custom-tool.1.chunks.txt',
    'openai-mcp-tool-approval.1.chunks.txt',
    'openai-mcp-tool-approval.4.chunks.txt',
  ].map((file) => [`openai-responses/${file}`, 'responses']),
  // Every recorded Gemini stream (Gemini API and Vertex AI).
  google: [
    'google-text.chunks.txt',
    'google-reasoning.chunks.txt',
    'google-reasoning-gemini3.chunks.txt',
    'google-tool-call.chunks.txt',
    'google-tool-call-gemini3.chunks.txt',
    'google-stream-tool-call-arguments.chunks.txt',
    'google-stream-no-args-tool-call.chunks.txt',
    'google-stream-tool-call-array-arguments-missing-terminal-function-call.chunks.txt',
    'google-vertex-stream-tool-call-arguments-nested.1.chunks.txt',
  ].map((file) => [`google-gemini/${file}`, 'data']),
} as const satisfies Record<string, readonly (readonly [string, boolean | string])[]>;

type Adapter = keyof typeof STREAMS;

const ASSEMBLERS = {
  openai: () => new OpenAiStreamAssembler(),
  anthropic: () => new AnthropicStreamAssembler(),
  'openai-responses': () => new OpenAiResponsesStreamAssembler(),
  google: () => new GoogleStreamAssembler(),
} as const satisfies Record<Adapter, unknown>;

/** The SSE texts of one recording, as the server sent them. */
function sseTexts(adapter: Adapter, file: string, framed: boolean | string): string[] {
  const raw = fixtureText(file);
  if (framed === 'transcript') {
    return [(JSON.parse(raw) as { response: { body: string } }[])[1]!.response.body];
  }
  if (framed === 'responses') {
    return responsesStreamsOf(raw).map((lines) => frameChunksAsSse(lines, 'data'));
  }
  if (framed === 'data') return [frameChunksAsSse(raw, 'data')];
  return [framed ? frameChunksAsSse(raw, adapter as 'openai' | 'anthropic') : raw];
}

const CASES_PER_ADAPTER = 10_000;

describe('recorded streams split at random byte offsets', () => {
  describe.each(['openai', 'anthropic', 'openai-responses', 'google'] as const)('%s', (adapter) => {
    const create = ASSEMBLERS[adapter];
    let streams: { bytes: Uint8Array; text: string; expected: ChatResponse }[] = [];

    beforeAll(async () => {
      const texts = (STREAMS[adapter] as readonly (readonly [string, boolean | string])[]).flatMap(
        ([file, framed]) => sseTexts(adapter, file, framed),
      );
      streams = await Promise.all(
        texts.map(async (text) => {
          const bytes = new TextEncoder().encode(text);
          return { bytes, text, expected: (await assembleSse([bytes], create())).response };
        }),
      );
    });

    it(`assemble exactly as the unsplit stream (${CASES_PER_ADAPTER} cases; UTF-8, data: lines, CRLF/LF, keep-alives)`, {
      timeout: 90_000,
    }, async () => {
      if (adapter === 'anthropic' || adapter === 'google') {
        // A recorded "°" (Anthropic's "68°F" answer, Gemini's oven temperature in streamed
        // arguments): its two-byte character is where a split matters most.
        expect(streams.some(({ text }) => text.includes('°'))).toBe(true);
      }
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: streams.length - 1 }),
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
