import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AugmentedToolCallback } from '../augmentation/augmented-tool-callback.js';
import type { Message, ToolResponse, ToolResponseMessage } from '../messages/index.js';
import { toolCall } from '../messages/index.js';
import { jsonSchema } from '../tools/schema/typed-json-schema.js';
import { tool } from '../tools/tool.js';
import type { ToolCallback, ToolCallOptions, ToolContext } from '../tools/tool-callback.js';
import { promptWith, toolCallResponse } from './__tests__/spy-tool.js';
import { createToolCallingManager } from './create-tool-calling-manager.js';

function lastResponses(history: Message[]): ToolResponse[] {
  return (history[history.length - 1] as ToolResponseMessage).responses;
}

/** A user-written callback that records what `call` receives. */
function recordingCallback(name: string, schema: Record<string, unknown>) {
  const calls: { input: string; options: ToolCallOptions | undefined }[] = [];
  const callback: ToolCallback = {
    definition: { name, description: name, inputSchema: schema },
    metadata: {},
    async call(input: string, _context?: ToolContext, options?: ToolCallOptions) {
      calls.push({ input, options });
      return 'ok';
    },
  };
  return { callback, calls };
}

describe('arguments are parsed and validated once, by the manager', () => {
  it('hands a callback with only call() the argument text, as Spring AI does', async () => {
    const { callback, calls } = recordingCallback('lookup', {
      type: 'object',
      properties: { id: { type: 'integer' } },
      required: ['id'],
    });
    await createToolCallingManager().executeToolCalls(
      promptWith([callback]),
      toolCallResponse([toolCall('1', 'lookup', '{"id": 7}')]),
    );
    expect(calls).toEqual([{ input: '{"id": 7}', options: {} }]);
  });

  it('hands a callback with execute() the parsed input, and the model text on request', async () => {
    const received: { input: unknown; raw: string | undefined }[] = [];
    let textCalls = 0;
    const callback: ToolCallback = {
      definition: {
        name: 'lookup',
        description: 'lookup',
        inputSchema: { type: 'object', properties: { id: { type: 'integer' } } },
      },
      metadata: {},
      async call() {
        textCalls++;
        return 'text path';
      },
      async execute(input, context) {
        received.push({ input, raw: context.rawArguments });
        return 'parsed path';
      },
    };
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([callback]),
      toolCallResponse([toolCall('1', 'lookup', '{ "id": 7 }')]),
    );
    expect(received).toEqual([{ input: { id: 7 }, raw: '{ "id": 7 }' }]);
    expect(textCalls).toBe(0);
    expect(lastResponses(result.conversationHistory)[0]?.responseData).toBe('parsed path');
  });

  it('runs the replaced call() of a tool() copied with { ...tool, call } (the 0.x way to wrap one)', async () => {
    const base = tool({ name: 'ping', execute: () => 'pong' });
    let wrapped = 0;
    const counted: ToolCallback = {
      ...base,
      call: (input, context, options) => {
        wrapped++;
        return base.call(input, context, options);
      },
    };
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([counted]),
      toolCallResponse([toolCall('1', 'ping')]),
    );
    expect(wrapped).toBe(1);
    expect(lastResponses(result.conversationHistory)[0]?.responseData).toBe('"pong"');
  });

  it('runs a Zod schema once per call (a counting transform), and the tool gets its output', async () => {
    let transformRuns = 0;
    const received: unknown[] = [];
    const shout = tool({
      name: 'shout',
      inputSchema: z.object({
        word: z.string().transform((word) => {
          transformRuns++;
          return word.toUpperCase();
        }),
      }),
      execute: (input) => {
        received.push(input);
        return input.word;
      },
    });
    const result = await createToolCallingManager().executeToolCalls(
      promptWith([shout]),
      toolCallResponse([
        toolCall('1', 'shout', '{"word":"hi"}'),
        toolCall('2', 'shout', '{"word":"yo"}'),
      ]),
    );
    expect(transformRuns).toBe(2);
    expect(received).toEqual([{ word: 'HI' }, { word: 'YO' }]);
    expect(lastResponses(result.conversationHistory).map((r) => r.responseData)).toEqual([
      '"HI"',
      '"YO"',
    ]);
  });

  it('a JSON Schema tool() trusts the parsed input: execute neither parses nor checks it again', async () => {
    const received: unknown[] = [];
    const lookup = tool({
      name: 'lookup',
      inputSchema: jsonSchema<{ id: number }>({
        type: 'object',
        properties: { id: { type: 'integer' } },
        required: ['id'],
      }),
      execute: (input) => {
        received.push(input);
        return 'ok';
      },
    });
    // The value breaks the schema: a callback that validated again would reject the call.
    await lookup.execute?.({ id: 'seven' }, { context: {} });
    expect(received).toEqual([{ id: 'seven' }]);
    // call() parses and validates the text as before.
    await expect(lookup.call('{"id":"seven"}')).rejects.toMatchObject({
      code: 'TOOL_INPUT_INVALID',
    });
  });

  it('an augmented callback passes the wrapped tool its own arguments', async () => {
    const { callback, calls } = recordingCallback('weather', {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
    const thoughts: unknown[] = [];
    const augmented = new AugmentedToolCallback(callback, {
      argumentSchema: z.object({ reasoning: z.string() }),
      argumentConsumer: ({ arguments: extra }) => {
        thoughts.push(extra);
      },
    });
    await createToolCallingManager().executeToolCalls(
      promptWith([augmented]),
      toolCallResponse([toolCall('1', 'weather', '{"city":"Oslo","reasoning":"asked"}')]),
    );
    expect(thoughts).toEqual([{ reasoning: 'asked' }]);
    expect(calls).toEqual([{ input: '{"city":"Oslo"}', options: {} }]);
  });
});
