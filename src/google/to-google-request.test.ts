import type {
  Content,
  GenerateContentConfig,
  SafetySetting,
  Tool,
  ToolConfig,
} from '@google/genai';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AsWire } from '../../test/support/as-wire.js';
import { transcriptArbitrary } from '../../test/support/transcript-arbitrary.js';
import { InvalidArgumentError } from '../errors/index.js';
import type { AssistantMessage, Message } from '../messages/index.js';
import { GoogleChatModel } from './google-chat-model.js';
import type { GoogleGenerateContentRequest, GooglePart } from './google-wire.js';
import { toGoogleContents } from './to-google-request.js';

const weatherTool = {
  definition: {
    name: 'weather',
    description: 'Weather of a city',
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    },
  },
  metadata: {},
  call: async () => '',
};
const clockTool = {
  definition: { name: 'clock', description: 'The time', inputSchema: { type: 'object' } },
  metadata: {},
  call: async () => '',
};

const model = (options: ConstructorParameters<typeof GoogleChatModel>[0] = {}) =>
  new GoogleChatModel({ apiKey: 'AIza-test-0000000', env: {}, ...options });

/** An assistant message as the adapter leaves it after Gemini 3 answered with two calls. */
const signedRound: AssistantMessage = {
  role: 'assistant',
  text: 'Checking both.',
  toolCalls: [
    {
      id: 'call_1',
      name: 'weather',
      arguments: '{"city":"Paris"}',
      metadata: { thoughtSignature: 'SIG-CALL' },
    },
    { id: 'call_2', name: 'weather', arguments: '{"city":"Rome"}' },
  ],
  metadata: {
    reasoningContent: 'Two lookups.',
    geminiParts: [
      { kind: 'thought', length: 12 },
      { kind: 'text', length: 14, thoughtSignature: 'SIG-TEXT' },
      { kind: 'functionCall' },
      { kind: 'functionCall' },
      { kind: 'text', length: 0, thoughtSignature: 'SIG-END' },
    ],
  },
};

const conversation: Message[] = [
  { role: 'system', text: 'Be brief.' },
  { role: 'user', text: 'Weather in Paris and Rome?' },
  signedRound,
  {
    role: 'tool',
    // Listed in completion order: Rome answered first.
    responses: [
      { id: 'call_2', name: 'weather', responseData: 'rain' },
      { id: 'call_1', name: 'weather', responseData: 'no such city', isError: true },
    ],
  },
];

describe('toGoogleContents', () => {
  it('builds only what the official SDK types accept, their enums as string values (checked by tsc)', () => {
    expectTypeOf<GoogleGenerateContentRequest['contents']>().toExtend<AsWire<Content>[]>();
    expectTypeOf<NonNullable<GoogleGenerateContentRequest['tools']>>().toExtend<AsWire<Tool>[]>();
    expectTypeOf<NonNullable<GoogleGenerateContentRequest['toolConfig']>>().toExtend<
      AsWire<ToolConfig>
    >();
    expectTypeOf<NonNullable<GoogleGenerateContentRequest['generationConfig']>>().toExtend<
      AsWire<GenerateContentConfig>
    >();
    expectTypeOf<NonNullable<GoogleGenerateContentRequest['safetySettings']>>().toExtend<
      AsWire<SafetySetting>[]
    >();
  });

  it('sends a signed round back exactly: each signature on its part, thoughts as thoughts, results in call order', () => {
    const { systemInstruction, contents } = toGoogleContents(conversation);
    expect(systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Two lookups.', thought: true },
          { text: 'Checking both.', thoughtSignature: 'SIG-TEXT' },
          {
            functionCall: { name: 'weather', args: { city: 'Paris' } },
            thoughtSignature: 'SIG-CALL',
          },
          { functionCall: { name: 'weather', args: { city: 'Rome' } } },
          { text: '', thoughtSignature: 'SIG-END' },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'weather', response: { error: 'no such city' } } },
          { functionResponse: { name: 'weather', response: { output: 'rain' } } },
        ],
      },
    ]);
  });

  it('sends the same after a JSON round trip of the messages (a memory store, a restart)', () => {
    const stored = JSON.parse(JSON.stringify(conversation)) as Message[];
    expect(toGoogleContents(stored)).toEqual(toGoogleContents(conversation));
  });

  it('falls back to text and calls, call signatures kept, when the record no longer fits', () => {
    const edited: AssistantMessage = { ...signedRound, text: 'Edited.' };
    expect(toGoogleContents([edited]).contents[0]?.parts).toEqual([
      { text: 'Edited.' },
      { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'SIG-CALL' },
      { functionCall: { name: 'weather', args: { city: 'Rome' } } },
    ]);
  });

  it("sends a call's API id back with the call and its result, and {} for arguments that are no object", () => {
    const { contents } = toGoogleContents([
      {
        role: 'assistant',
        text: null,
        toolCalls: [
          {
            id: 'call_x',
            name: 'f',
            arguments: '{"a":',
            metadata: { functionCallId: 'fc-7', truncated: true },
          },
        ],
      },
      {
        role: 'tool',
        responses: [{ id: 'call_x', name: 'f', responseData: 'truncated', isError: true }],
      },
    ]);
    expect(contents).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {}, id: 'fc-7' } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'f', response: { error: 'truncated' }, id: 'fc-7' } }],
      },
    ]);
  });

  it('sends a JSON result as its value (a string result arrives as JSON text), other text as text', () => {
    const { contents } = toGoogleContents([
      {
        role: 'assistant',
        text: null,
        toolCalls: [
          { id: 'a', name: 'f', arguments: '{}' },
          { id: 'b', name: 'g', arguments: '{}' },
          { id: 'c', name: 'h', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        responses: [
          { id: 'a', name: 'f', responseData: '{"temp":68,"unit":"F"}' },
          { id: 'b', name: 'g', responseData: '"Sunny"' },
          { id: 'c', name: 'h', responseData: 'plain words' },
        ],
      },
    ]);
    expect(
      contents[1]?.parts.map((part) => (part as { functionResponse: unknown }).functionResponse),
    ).toEqual([
      { name: 'f', response: { output: { temp: 68, unit: 'F' } } },
      { name: 'g', response: { output: 'Sunny' } },
      { name: 'h', response: { output: 'plain words' } },
    ]);
  });

  it('answers every call once, by name, in call order, and never sends two turns of one role in a row (property)', () => {
    fc.assert(
      fc.property(transcriptArbitrary, (messages: Message[]) => {
        const { contents } = toGoogleContents(messages);
        for (let index = 1; index < contents.length; index++) {
          expect(contents[index]?.role).not.toBe(contents[index - 1]?.role);
        }
        for (const content of contents) expect(content.parts.length).toBeGreaterThan(0);
        const sentCalls = contents.flatMap((content) =>
          content.parts.flatMap((part: GooglePart) =>
            'functionCall' in part ? [(part.functionCall as { name: string }).name] : [],
          ),
        );
        const sentResponses = contents.flatMap((content) =>
          content.parts.flatMap((part: GooglePart) =>
            'functionResponse' in part ? [(part.functionResponse as { name: string }).name] : [],
          ),
        );
        expect(sentResponses).toEqual(sentCalls);
        expect(sentCalls).toEqual(
          messages.flatMap((message) =>
            message.role === 'assistant' ? message.toolCalls.map((call) => call.name) : [],
          ),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('GoogleChatModel.request', () => {
  it('declares the tools (no parameters for a function that takes none) and maps the tool choice', () => {
    const body = model().request({
      messages: [{ role: 'user', text: 'Hi' }],
      options: {
        toolCallbacks: [weatherTool, clockTool],
        toolChoice: { type: 'tool', name: 'clock' },
      },
    });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'weather',
            description: 'Weather of a city',
            parameters: {
              type: 'OBJECT',
              properties: { city: { type: 'STRING' } },
              required: ['city'],
            },
          },
          { name: 'clock', description: 'The time' },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['clock'] },
    });
    for (const [choice, mode] of [
      ['auto', 'AUTO'],
      ['none', 'NONE'],
      ['required', 'ANY'],
    ] as const) {
      const request = model().request({
        messages: [],
        options: { toolCallbacks: [weatherTool], toolChoice: choice },
      });
      expect(request.toolConfig).toEqual({ functionCallingConfig: { mode } });
    }
  });

  it('maps generation, thinking and safety options', () => {
    const body = model({ thinkingBudget: 1024, includeThoughts: true }).request({
      messages: [{ role: 'user', text: 'Hi' }],
      options: {
        temperature: 0.3,
        maxTokens: 500,
        topK: 40,
        stop: ['END'],
        thinkingLevel: 'low',
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        responseFormat: { type: 'json_schema', schema: { type: 'object' } },
      },
    });
    expect(body.generationConfig).toEqual({
      temperature: 0.3,
      maxOutputTokens: 500,
      topK: 40,
      stopSequences: ['END'],
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true, thinkingLevel: 'LOW' },
    });
    expect(body.safetySettings).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
    ]);
  });

  it('refuses option values the API would refuse, with a typed error', () => {
    for (const options of [
      { thinkingBudget: 1.5 },
      { thinkingLevel: 'extreme' },
      { includeThoughts: 'yes' },
      { safetySettings: [{ category: 'X' }] },
      { thinkingConfig: 'high' },
    ]) {
      // Values plain JavaScript may pass; the types refuse them.
      expect(() => model().request({ messages: [], options: options as never })).toThrow(
        InvalidArgumentError,
      );
    }
  });

  it('puts the model in the URL (never the key), with the API version unless the base URL names one', () => {
    const prompt = { messages: [], options: { model: 'models/gemini-3-pro-preview' } };
    expect(model().url(prompt, true)).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse',
    );
    expect(
      model({ baseUrl: 'https://aiplatform.googleapis.com/v1/publishers/google' }).url(
        prompt,
        false,
      ),
    ).toBe(
      'https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-3-pro-preview:generateContent',
    );
    expect(model({ baseUrl: 'http://127.0.0.1:8080/', apiVersion: 'v1' }).url(prompt, false)).toBe(
      'http://127.0.0.1:8080/v1/models/gemini-3-pro-preview:generateContent',
    );
  });

  it('reads GOOGLE_API_KEY before GEMINI_API_KEY, and names both when neither is set', () => {
    const headersOf = (env: Record<string, string>) => {
      const seen: Record<string, string>[] = [];
      const chat = new GoogleChatModel({
        env,
        maxRetries: 0,
        fetch: async (_url, init) => {
          seen.push(init.headers as Record<string, string>);
          throw new Error('offline');
        },
      });
      return chat
        .call({ messages: [{ role: 'user', text: 'Hi' }], options: {} })
        .catch(() => seen[0]?.['x-goog-api-key']);
    };
    return Promise.all([
      expect(
        headersOf({ GEMINI_API_KEY: 'gemini-key-1', GOOGLE_API_KEY: 'google-key-2' }),
      ).resolves.toBe('google-key-2'),
      expect(headersOf({ GEMINI_API_KEY: 'gemini-key-1' })).resolves.toBe('gemini-key-1'),
      expect(() => new GoogleChatModel({ env: {} })).toThrow(
        /GOOGLE_API_KEY or GEMINI_API_KEY environment variable or pass the apiKey option/,
      ),
    ]);
  });
});
