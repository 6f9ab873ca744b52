import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ChatClientRequest,
  ChatModelAdvisor,
  DefaultCallAdvisorChain,
} from '../advisors/index.js';
import { InvalidArgumentError, StructuredOutputError } from '../errors/index.js';
import { type UserMessage, userMessage } from '../messages/index.js';
import { createPrompt } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { tool } from '../tools/tool.js';
import { ChatClient } from './chat-client.js';
import { parseJsonAnswer } from './parse-json-answer.js';
import {
  RESPONSE_FORMAT_OPTION,
  STRUCTURED_OUTPUT_VALUE_KEY,
  StructuredOutputAdvisor,
} from './structured-output-advisor.js';

const Weather = z.object({
  city: z.string(),
  temperatureCelsius: z.number(),
});

const usage = (n: number) => ({ promptTokens: n, completionTokens: n, totalTokens: 2 * n });

describe('CallResponseSpec.entity()', () => {
  it('sends the JSON Schema as responseFormat plus an instruction, and returns the validated value', async () => {
    const model = new ScriptedChatModel([
      textResponse('```json\n{"city":"Paris","temperatureCelsius":21}\n```'),
    ]);
    const client = ChatClient.create(model, { system: 'You are a weather service.' });
    const weather = await client.prompt('Weather in Paris?').call().entity(Weather);
    expect(weather).toEqual({ city: 'Paris', temperatureCelsius: 21 });
    const prompt = model.prompts[0];
    const format = prompt?.options[RESPONSE_FORMAT_OPTION] as {
      type: string;
      name: string;
      schema: { properties: object };
    };
    expect(format.type).toBe('json_schema');
    expect(format.name).toBe('response');
    expect(Object.keys(format.schema.properties)).toEqual(['city', 'temperatureCelsius']);
    const system = prompt?.messages[0];
    expect(system?.role).toBe('system');
    expect(system?.role === 'system' && system.text).toMatch(
      /^You are a weather service\.\n\nAnswer with one JSON value/,
    );
    expect(system?.role === 'system' && system.text).toContain('"temperatureCelsius"');
    expect(prompt?.messages.at(-1)).toEqual({ role: 'user', text: 'Weather in Paris?' });
  });

  it('sends the problems back and accepts a corrected answer, summing usage', async () => {
    const model = new ScriptedChatModel([
      textResponse('{"city":"Paris","temperatureCelsius":"warm"}', { usage: usage(10) }),
      textResponse('{"city":"Paris","temperatureCelsius":21}', { usage: usage(1) }),
    ]);
    const response = ChatClient.create(model).prompt('Weather in Paris?').call();
    await expect(response.entity(Weather, { name: 'weather' })).resolves.toEqual({
      city: 'Paris',
      temperatureCelsius: 21,
    });
    expect(model.callCount).toBe(2);
    const retry = model.prompts[1]?.messages ?? [];
    expect(retry.at(-2)).toEqual({
      role: 'assistant',
      text: '{"city":"Paris","temperatureCelsius":"warm"}',
      toolCalls: [],
    });
    const feedback = retry.at(-1) as UserMessage;
    expect(feedback.role).toBe('user');
    expect(feedback.text).toContain('- /temperatureCelsius:');
    expect(
      (model.prompts[1]?.options[RESPONSE_FORMAT_OPTION] as { name: string } | undefined)?.name,
    ).toBe('weather');
  });

  it('validates a raw JSON Schema answer and sums usage over the attempts', async () => {
    const model = new ScriptedChatModel([
      textResponse('not json', { usage: usage(10) }),
      textResponse('[1,2]', { usage: usage(1) }),
    ]);
    const numbers = { type: 'array', items: { type: 'integer' } };
    const request: ChatClientRequest = {
      prompt: createPrompt([userMessage('Numbers?')], {}),
      context: {},
    };
    const advisor = new StructuredOutputAdvisor(numbers);
    const response = await DefaultCallAdvisorChain.of([
      advisor,
      new ChatModelAdvisor(model),
    ]).nextCall(request);
    expect(response.context[STRUCTURED_OUTPUT_VALUE_KEY]).toEqual([1, 2]);
    expect(response.chatResponse?.metadata.usage).toEqual({
      promptTokens: 11,
      completionTokens: 11,
      totalTokens: 22,
    });
    const typed = await ChatClient.create(new ScriptedChatModel([textResponse('[3]')]))
      .prompt('Numbers?')
      .call()
      .entity<number[]>(numbers);
    expect(typed).toEqual([3]);
  });

  it('throws a StructuredOutputError after the retries are used up', async () => {
    const model = new ScriptedChatModel([
      textResponse('sorry, no JSON'),
      textResponse('{"city":"Paris"}'),
      textResponse('{"city":42,"temperatureCelsius":21}'),
    ]);
    const failure = await ChatClient.create(model)
      .prompt('Weather in Paris?')
      .toolContext({ apiToken: 'tok-secret-123' })
      .call()
      .entity(Weather)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(StructuredOutputError);
    const error = failure as StructuredOutputError;
    expect(error.code).toBe('STRUCTURED_OUTPUT_INVALID');
    expect(error.attempts).toBe(3);
    expect(error.rawText).toBe('{"city":42,"temperatureCelsius":21}');
    expect(error.issues.map((issue) => issue.path)).toEqual(['/city']);
    expect(error.message).toContain('after 3 attempts');
    expect(error.message).not.toContain('tok-secret-123');
    expect(error.message).not.toContain('42');
    expect(model.callCount).toBe(3);
    // The first retry told the model its answer was not JSON.
    expect((model.prompts[1]?.messages.at(-1) as UserMessage | undefined)?.text).toContain(
      '(root): the answer is not valid JSON',
    );
  });

  it('respects maxRetries: 0', async () => {
    const model = new ScriptedChatModel([textResponse('{}'), textResponse('never asked')]);
    await expect(
      ChatClient.create(model).prompt('x').call().entity(Weather, { maxRetries: 0 }),
    ).rejects.toBeInstanceOf(StructuredOutputError);
    expect(model.callCount).toBe(1);
  });

  it('works around the tool loop: tools run first, then the JSON answer is checked', async () => {
    const lookups: string[] = [];
    const weatherTool = tool({
      name: 'weather',
      description: 'Current weather',
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => {
        lookups.push(city);
        return { temperatureCelsius: 19 };
      },
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ name: 'weather', arguments: { city: 'Rome' } }]),
      textResponse('{"city":"Rome","temperatureCelsius":19}'),
    ]);
    const weather = await ChatClient.create(model, { tools: [weatherTool] })
      .prompt('Weather in Rome?')
      .call()
      .entity(Weather);
    expect(weather).toEqual({ city: 'Rome', temperatureCelsius: 19 });
    expect(lookups).toEqual(['Rome']);
    expect(model.callCount).toBe(2);
  });

  it('rejects a Standard Schema that cannot describe itself as JSON Schema', async () => {
    const opaque = {
      '~standard': { version: 1 as const, vendor: 'x', validate: (value: unknown) => ({ value }) },
    };
    const response = ChatClient.create(new ScriptedChatModel()).prompt('x').call();
    await expect(response.entity(opaque)).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe('parseJsonAnswer', () => {
  it('accepts bare JSON and one fenced block, and reports empty or invalid text', () => {
    expect(parseJsonAnswer('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonAnswer('```\n[true]\n```')).toEqual({ ok: true, value: [true] });
    expect(parseJsonAnswer(' ```json {"b":2}``` ')).toEqual({ ok: true, value: { b: 2 } });
    expect(parseJsonAnswer(null)).toMatchObject({ ok: false });
    expect(parseJsonAnswer('The answer is {"a":1}')).toEqual({
      ok: false,
      issues: [{ path: '', message: 'the answer is not valid JSON' }],
    });
  });

  it('rejects numbers that overflow to Infinity, at any depth', () => {
    for (const text of ['1e999', '{"a":[1,{"b":-1e400}]}', `[${'9'.repeat(400)}]`]) {
      expect(parseJsonAnswer(text)).toEqual({
        ok: false,
        issues: [
          { path: '', message: 'the answer holds a number too large: it overflows to Infinity' },
        ],
      });
    }
    expect(parseJsonAnswer('{"max":1.7976931348623157e308}')).toEqual({
      ok: true,
      value: { max: Number.MAX_VALUE },
    });
  });
});
