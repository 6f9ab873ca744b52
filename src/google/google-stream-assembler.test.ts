import { describe, expect, it } from 'vitest';
import { fixtureText, frameChunksAsSse } from '../../test/integration/support/provider-fixtures.js';
import { assembleSse } from '../../test/support/assemble-sse.js';
import { expectDeltasMatchCalls } from '../../test/support/streamed-tool-calls.js';
import { ChatModelError } from '../errors/index.js';
import type { ChatResponse } from '../model/index.js';
import { fromGoogleResponse } from './from-google-response.js';
import { GoogleStreamAssembler } from './google-stream-assembler.js';

const encoder = new TextEncoder();

function recorded(file: string): Uint8Array {
  return encoder.encode(frameChunksAsSse(fixtureText(`google-gemini/${file}`), 'data'));
}

function sse(events: unknown[]): Uint8Array {
  return encoder.encode(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''));
}

/** One stream event holding the given parts of candidate 0. */
function parts(list: unknown[], finishReason?: string, extra: Record<string, unknown> = {}) {
  return {
    candidates: [
      { content: { role: 'model', parts: list }, ...(finishReason ? { finishReason } : {}) },
    ],
    responseId: 'resp-g1',
    ...extra,
  };
}

async function assemble(bytes: Uint8Array) {
  return assembleSse([bytes], new GoogleStreamAssembler());
}

async function failure(bytes: Uint8Array): Promise<ChatModelError> {
  const error = await assemble(bytes).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChatModelError);
  return error as ChatModelError;
}

function calls(response: ChatResponse) {
  return response.results[0]?.output.toolCalls ?? [];
}

describe('GoogleStreamAssembler over recorded streams', () => {
  it('a whole call with its signature (Gemini 3, Gemini API), thought tokens in the usage', async () => {
    const { response, chunks } = await assemble(recorded('google-tool-call-gemini3.chunks.txt'));
    expectDeltasMatchCalls(chunks, response);
    const [call] = calls(response);
    expect(call).toMatchObject({
      id: expect.stringMatching(/^call_[0-9a-f]{24}$/),
      name: 'weather',
      arguments: '{"location":"San Francisco"}',
      metadata: { thoughtSignature: expect.stringMatching(/^.{5000,}$/) },
    });
    expect(response.results[0]?.metadata.finishReason).toBe('tool_calls');
    const usage = response.metadata.usage!;
    expect(usage.reasoningTokens).toBeGreaterThan(0);
    expect(usage.completionTokens).toBeGreaterThanOrEqual(usage.reasoningTokens!);
    expect(usage.totalTokens).toBe(usage.promptTokens + usage.completionTokens);
  });

  it('two parallel streamed calls (Vertex partialArgs), only the first signed', async () => {
    const { response, chunks } = await assemble(
      recorded('google-stream-tool-call-arguments.chunks.txt'),
    );
    expectDeltasMatchCalls(chunks, response);
    const [boston, francisco] = calls(response);
    expect([boston?.arguments, francisco?.arguments]).toEqual([
      '{"location":"Boston"}',
      '{"location":"San Francisco"}',
    ]);
    expect(boston?.metadata?.thoughtSignature).toEqual(expect.any(String));
    expect(francisco?.metadata).toBeUndefined();
    expect(boston?.id).not.toBe(francisco?.id);
  });

  it('a thought summary, a no-argument call and three parallel streamed calls', async () => {
    const { response } = await assemble(recorded('google-stream-no-args-tool-call.chunks.txt'));
    expect(calls(response).map((call) => [call.name, call.arguments])).toEqual([
      ['read_theme', '{}'],
      ['read_screen', '{"id":"A"}'],
      ['read_screen', '{"id":"B"}'],
      ['read_screen', '{"id":"C"}'],
    ]);
    const metadata = response.results[0]?.output.metadata;
    expect(metadata?.reasoningContent).toContain('Processing User Requests');
    expect(metadata?.geminiParts).toEqual([
      { kind: 'thought', length: String(metadata?.reasoningContent).length },
      { kind: 'functionCall' },
      { kind: 'functionCall' },
      { kind: 'functionCall' },
      { kind: 'functionCall' },
    ]);
    expect(response.results[0]?.output.text).toBeNull();
  });

  it('nested paths, strings split over parts, a raw UTF-8 °, arrays built in order', async () => {
    const { response } = await assemble(
      recorded('google-vertex-stream-tool-call-arguments-nested.1.chunks.txt'),
    );
    const args = JSON.parse(calls(response)[0]?.arguments ?? '');
    expect(args.recipe.name).toBe('Lasagna');
    expect(args.recipe.ingredients).toHaveLength(10);
    expect(args.recipe.steps[0]).toBe('Preheat oven to 375°F (190°C).');
    expect(args.recipe.steps[1]).toMatch(/set aside\.$/);
    expect(args.recipe.steps[4]).toBe('In a 9x13 baking dish, spread a thin layer of meat sauce.');
    expect(calls(response)[0]?.metadata?.truncated).toBeUndefined();
  });

  it('a call whose last piece has no willContinue is complete without the closing part', async () => {
    const { response } = await assemble(
      recorded('google-stream-tool-call-array-arguments-missing-terminal-function-call.chunks.txt'),
    );
    const [call] = calls(response);
    expect(call?.metadata?.truncated).toBeUndefined();
    expect(JSON.parse(call?.arguments ?? '')).toEqual({
      operations: [
        { action: 'add', description: 'Fresh red apple', itemid: 'apple_001', price: 0.5 },
        { action: 'add', description: 'Ripe yellow banana', itemid: 'banana_001', price: 0.3 },
      ],
    });
  });

  it('keeps the signature of a text answer on the empty part it came on', async () => {
    for (const file of [
      'google-text.chunks.txt',
      'google-reasoning.chunks.txt',
      'google-reasoning-gemini3.chunks.txt',
    ]) {
      const { response } = await assemble(recorded(file));
      const output = response.results[0]!.output;
      expect(output.text).toContain('strawberry');
      expect(output.metadata?.geminiParts).toEqual([
        { kind: 'text', length: output.text!.length },
        { kind: 'text', length: 0, thoughtSignature: expect.any(String) },
      ]);
    }
  });

  it('reads a non-streamed body the same way: the same call, id and signature as one event of it', async () => {
    for (const file of [
      'google-tool-call.json',
      'google-tool-call-gemini3.json',
      'google-text.json',
    ]) {
      const text = fixtureText(`google-gemini/${file}`);
      const whole = fromGoogleResponse(JSON.parse(text));
      const { response } = await assemble(encoder.encode(`data: ${text.replace(/\n/g, ' ')}\n\n`));
      expect(whole.results[0]?.output).toEqual(response.results[0]?.output);
      expect(whole.metadata).toEqual(response.metadata);
    }
  });

  it('derives the same ids for the same response and different ones for another response', async () => {
    const first = await assemble(recorded('google-stream-no-args-tool-call.chunks.txt'));
    const again = await assemble(recorded('google-stream-no-args-tool-call.chunks.txt'));
    const other = await assemble(recorded('google-stream-tool-call-arguments.chunks.txt'));
    const ids = calls(first.response).map((call) => call.id);
    expect(calls(again.response).map((call) => call.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
    for (const call of calls(other.response)) expect(ids).not.toContain(call.id);
  });
});

describe('GoogleStreamAssembler on broken streams', () => {
  it('a call still streaming when the output limit stops the candidate is truncated', async () => {
    const { response } = await assemble(
      sse([
        parts([{ functionCall: { name: 'delete_files', willContinue: true } }]),
        parts([
          {
            functionCall: {
              partialArgs: [{ jsonPath: '$.path', stringValue: '/ho', willContinue: true }],
              willContinue: true,
            },
          },
        ]),
        parts([], 'MAX_TOKENS'),
      ]),
    );
    expect(response.results[0]?.metadata.finishReason).toBe('length');
    expect(calls(response)).toEqual([
      expect.objectContaining({ arguments: '{"path":"/ho"}', metadata: { truncated: true } }),
    ]);
  });

  it('a call closed while its string value was still open is truncated', async () => {
    const { response } = await assemble(
      sse([
        parts([
          {
            functionCall: {
              name: 'delete_files',
              partialArgs: [{ jsonPath: '$.path', stringValue: '/', willContinue: true }],
              willContinue: true,
            },
          },
        ]),
        parts([{ functionCall: {} }], 'STOP'),
      ]),
    );
    expect(calls(response)[0]?.metadata).toEqual({ truncated: true });
  });

  it('a new call (another name) arriving mid-call cuts the first, which is truncated', async () => {
    const { response } = await assemble(
      sse([
        parts([
          { functionCall: { name: 'read_file', willContinue: true } },
          { functionCall: { name: 'delete_files', args: { path: '/' } } },
        ]),
        parts([{ text: '' }], 'STOP'),
      ]),
    );
    expect(calls(response).map((call) => [call.name, call.metadata?.truncated])).toEqual([
      ['read_file', true],
      ['delete_files', undefined],
    ]);
  });

  it('fails, retryably, when the stream ends before a finish reason, even after a whole call', async () => {
    const error = await failure(sse([parts([{ functionCall: { name: 'f', args: {} } }])]));
    expect(error.message).toContain('ended before the response finished');
    expect(error.retryable).toBe(true);
  });

  it.each([
    ['a huge array position', '$.list[4294967294]'],
    ['a skipped array position', '$.list[3]'],
    ['no $ root', 'list'],
    ['a path 100 levels deep', `$${'.a'.repeat(100)}`],
  ])('refuses %s in partialArgs as malformed', async (_name, jsonPath) => {
    const error = await failure(
      sse([
        parts([
          {
            functionCall: {
              name: 'f',
              partialArgs: [{ jsonPath, stringValue: 'x' }],
            },
          },
        ]),
      ]),
    );
    expect(error.message).toContain('malformed');
    expect(error.retryable).toBe(false);
  });

  it('refuses a negative candidate index and a value set twice', async () => {
    const negative = await failure(
      sse([{ candidates: [{ index: -1, content: { parts: [{ text: 'a' }] } }] }]),
    );
    expect(negative.message).toMatch(/malformed.*index/);
    const twice = await failure(
      sse([
        parts([
          {
            functionCall: {
              name: 'f',
              partialArgs: [
                { jsonPath: '$.a', numberValue: 1 },
                { jsonPath: '$.a', numberValue: 2 },
              ],
            },
          },
        ]),
      ]),
    );
    expect(twice.message).toContain('sets a value twice');
  });

  it('keeps __proto__ in a path as a plain key', async () => {
    const { response } = await assemble(
      sse([
        parts(
          [
            {
              functionCall: {
                name: 'f',
                partialArgs: [{ jsonPath: '$.__proto__.polluted', boolValue: true }],
              },
            },
          ],
          'STOP',
        ),
      ]),
    );
    expect(calls(response)[0]?.arguments).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a signature that came alone, or on a closing part, and parts of unknown kinds, in place', async () => {
    const { response } = await assemble(
      sse([
        parts([{ text: 'Running code.' }, { thoughtSignature: 'sig-alone' }]),
        parts([{ executableCode: { language: 'PYTHON', code: 'print(1)' } }]),
        parts([{ functionCall: {}, thoughtSignature: 'sig-on-closer' }], 'STOP'),
      ]),
    );
    expect(response.results[0]?.output.metadata?.geminiParts).toEqual([
      { kind: 'text', length: 13 },
      { kind: 'text', length: 0, thoughtSignature: 'sig-alone' },
      { kind: 'other', part: { executableCode: { language: 'PYTHON', code: 'print(1)' } } },
      { kind: 'text', length: 0, thoughtSignature: 'sig-on-closer' },
    ]);
    expect(calls(response)).toEqual([]);
  });

  it('fails with the reported error of an error event, with its status; invalid JSON is malformed', async () => {
    const error = await failure(
      sse([
        parts([{ text: 'Hel' }]),
        { error: { code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded.' } },
      ]),
    );
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(error.message).toContain('UNAVAILABLE: The model is overloaded.');
    const invalid = await failure(encoder.encode('data: {"candidates":[\n\n'));
    expect(invalid.message).toContain('not JSON');
  });

  it('ends with content_filter when the prompt itself was blocked', async () => {
    const { response } = await assemble(
      sse([{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, responseId: 'r' }]),
    );
    expect(response.results[0]?.metadata).toEqual({
      finishReason: 'content_filter',
      blockReason: 'PROHIBITED_CONTENT',
    });
  });

  it('ignores parts of a candidate after its finish reason: a late call never becomes a call', async () => {
    const { response } = await assemble(
      sse([
        parts([{ text: 'Done.' }], 'STOP'),
        parts([{ functionCall: { name: 'delete_files', args: {} } }]),
      ]),
    );
    expect(calls(response)).toEqual([]);
    expect(response.results[0]?.output.text).toBe('Done.');
  });
});
