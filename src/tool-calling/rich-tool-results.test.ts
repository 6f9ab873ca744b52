import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Message, ToolResponse, ToolResponseMessage } from '../messages/index.js';
import { toolCall } from '../messages/index.js';
import type { TurnEvent } from '../observability/index.js';
import { redactTurnEvent } from '../observability/redact-turn-event.js';
import { TurnEventEmitter } from '../observability/turn-event-emitter.js';
import { jsonSchema } from '../tools/schema/typed-json-schema.js';
import { tool } from '../tools/tool.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { toolResult } from '../tools/tool-result.js';
import { promptWith, toolCallResponse } from './__tests__/spy-tool.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';
import { buildToolExecutionGenerations } from './tool-execution-result.js';

// A real 1x1 PNG (red pixel).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

function lastResponses(history: Message[]): ToolResponse[] {
  return (history[history.length - 1] as ToolResponseMessage).responses;
}

async function run(
  tools: ToolCallback[],
  calls = [toolCall('1', tools[0]?.definition.name ?? '')],
) {
  const result = await createToolCallingManager().executeToolCalls(
    promptWith(tools),
    toolCallResponse(calls),
  );
  return { result, responses: lastResponses(result.conversationHistory) };
}

const screenshot = tool({
  name: 'screenshot',
  inputSchema: z.object({ url: z.string() }),
  execute: ({ url }) =>
    toolResult([`Screenshot of ${url}`, { type: 'image', mediaType: 'image/png', data: PNG }]),
});

describe('rich tool results through the manager', () => {
  it('keeps an image part beside the text form, as plain JSON', async () => {
    const { responses } = await run(
      [screenshot],
      [toolCall('1', 'screenshot', '{"url":"https://example.com"}')],
    );
    const response = responses[0] as ToolResponse;
    expect(response).toEqual({
      id: '1',
      name: 'screenshot',
      responseData: 'Screenshot of https://example.com\n[image image/png, 70 B]',
      content: [
        { type: 'text', text: 'Screenshot of https://example.com' },
        { type: 'image', mediaType: 'image/png', data: PNG.toString('base64') },
      ],
    });
    expect(JSON.parse(JSON.stringify(response))).toEqual(response);
  });

  it.each([
    [
      'a URL with the http: scheme',
      { type: 'image', mediaType: 'image/png', url: 'http://x/a.png' },
      "scheme 'http:'",
    ],
    [
      'a file: URL',
      { type: 'file', mediaType: 'application/pdf', url: 'file:///etc/passwd' },
      "scheme 'file:'",
    ],
    [
      'an unknown media type',
      { type: 'file', mediaType: 'documents/pdf', data: 'AAAA' },
      "'documents/pdf' is not a known media type",
    ],
    [
      'an image of another family',
      { type: 'image', mediaType: 'application/pdf', data: 'AAAA' },
      'not an image/* type',
    ],
    [
      'data that is not base64',
      { type: 'image', mediaType: 'image/png', data: 'not base64!' },
      'not base64',
    ],
    [
      'an unknown part type',
      { type: 'video', mediaType: 'video/mp4', data: 'AAAA' },
      "type 'video' is not one of",
    ],
  ])(
    'answers a part with %s with an error result; the batch goes on',
    async (_label, part, reason) => {
      const bad = tool({
        name: 'bad',
        // biome-ignore lint/suspicious/noExplicitAny: a part a plain-JavaScript tool could return
        execute: () => toolResult([part as any]),
      });
      const fine = tool({ name: 'fine', execute: () => 'ok' });
      const { responses } = await run([bad, fine], [toolCall('1', 'bad'), toolCall('2', 'fine')]);
      expect(responses[0]?.isError).toBe(true);
      expect(responses[0]?.responseData).toContain(reason);
      expect(responses[0]?.content).toBeUndefined();
      expect(responses[1]).toEqual({ id: '2', name: 'fine', responseData: '"ok"' });
    },
  );

  it('answers a hand-written execute() that resolves to an invalid result with an error result', async () => {
    const handWritten: ToolCallback = {
      definition: { name: 'raw', description: 'raw', inputSchema: { type: 'object' } },
      metadata: {},
      call: async () => 'unused',
      execute: async () => ({
        text: 'a picture',
        content: [{ type: 'image', mediaType: 'image/png', url: 'javascript:alert(1)' }],
      }),
    };
    const { responses } = await run([handWritten]);
    expect(responses[0]).toMatchObject({ isError: true });
    expect(responses[0]?.responseData).toContain(
      "returned a result that is not valid: part 1 is not valid: its url has the scheme 'javascript:'",
    );
  });

  it('refuses media over maxResultMediaBytes with an error result that keeps nothing', async () => {
    const big = tool({
      name: 'big',
      execute: () =>
        toolResult({ type: 'file', mediaType: 'application/pdf', data: new Uint8Array(4096) }),
    });
    const result = await createToolCallingManager({ maxResultMediaBytes: 1024 }).executeToolCalls(
      promptWith([big]),
      toolCallResponse([toolCall('1', 'big')]),
    );
    const [response] = lastResponses(result.conversationHistory);
    expect(response?.isError).toBe(true);
    expect(response?.content).toBeUndefined();
    expect(response?.responseData).toContain('4.0 KB of media (file application/pdf 4.0 KB)');
    expect(response?.responseData).toContain('the limit is 1.0 KB per result');
  });

  it('hands a returnDirect result its parts and structured content', async () => {
    const direct = tool({
      name: 'direct',
      returnDirect: true,
      execute: () =>
        toolResult([{ type: 'image', mediaType: 'image/png', data: PNG }], {
          structuredContent: { width: 1 },
        }),
    });
    const { result } = await run([direct]);
    expect(result.returnDirect).toBe(true);
    const [generation] = buildToolExecutionGenerations(result);
    expect(generation?.output.text).toBe('[image image/png, 70 B]');
    expect(generation?.metadata.toolContent).toEqual([
      { type: 'image', mediaType: 'image/png', data: PNG.toString('base64') },
    ]);
    expect(generation?.metadata.toolStructuredContent).toEqual({ width: 1 });
  });

  it("reports a part's type and size in the tool-result event; redaction drops the bytes", async () => {
    const events: TurnEvent[] = [];
    const emitter = new TurnEventEmitter('turn-1', [(event) => events.push(event)]);
    await createToolCallingManager().executeToolCalls(
      promptWith([screenshot]),
      toolCallResponse([toolCall('1', 'screenshot', '{"url":"https://a.example"}')]),
      { events: emitter },
    );
    const result = events.find((event) => event.type === 'tool-result');
    expect(result).toMatchObject({
      parts: [
        { type: 'text', bytes: 31 },
        { type: 'image', mediaType: 'image/png', bytes: 70, source: 'inline' },
      ],
    });
    const redacted = redactTurnEvent(result as TurnEvent);
    expect(JSON.stringify(redacted)).not.toContain(PNG.toString('base64'));
    expect(redacted).toMatchObject({ parts: [{ type: 'text' }, { type: 'image', bytes: 70 }] });
  });
});

describe('output schemas', () => {
  const forecast = (temperature: unknown) =>
    tool({
      name: 'forecast',
      outputSchema: z.object({ city: z.string(), celsius: z.number() }),
      execute: () => ({ city: 'Oslo', celsius: temperature }),
    });

  it('keeps a result that matches as structuredContent beside its JSON text', async () => {
    const { responses } = await run([forecast(21)]);
    expect(responses[0]).toEqual({
      id: '1',
      name: 'forecast',
      responseData: '{"city":"Oslo","celsius":21}',
      structuredContent: { city: 'Oslo', celsius: 21 },
    });
  });

  it('answers a result that breaks the schema with an error result naming the path', async () => {
    const { responses } = await run([forecast('warm')]);
    expect(responses[0]?.isError).toBe(true);
    expect(responses[0]?.responseData).toContain(
      "Tool 'forecast' returned a result that does not match its output schema: /celsius:",
    );
    expect(responses[0]?.structuredContent).toBeUndefined();
  });

  it('checks a JSON Schema output schema and advertises it in the definition', async () => {
    const count = tool({
      name: 'count',
      outputSchema: jsonSchema({
        type: 'object',
        properties: { n: { type: 'integer' } },
        required: ['n'],
      }),
      execute: () => ({ n: 1.5 }),
    });
    expect(count.definition.outputSchema).toMatchObject({ type: 'object', required: ['n'] });
    const { responses } = await run([count]);
    expect(responses[0]?.isError).toBe(true);
    expect(responses[0]?.responseData).toContain('/n: must be integer');
  });

  it('checks the structured content of a toolResult() against the schema', async () => {
    const chart = tool({
      name: 'chart',
      outputSchema: z.object({ points: z.number() }),
      execute: () =>
        toolResult([{ type: 'image', mediaType: 'image/png', data: PNG }], {
          structuredContent: { points: 3 },
        }),
    });
    const { responses } = await run([chart]);
    expect(responses[0]).toMatchObject({
      structuredContent: { points: 3 },
      content: [{ type: 'image', mediaType: 'image/png' }],
    });
  });

  it('refuses an output schema that is not an object schema where the tool is defined', () => {
    expect(() => tool({ name: 'n', outputSchema: z.string(), execute: () => 'x' })).toThrow(
      "The outputSchema of tool 'n' must describe an object",
    );
  });
});
