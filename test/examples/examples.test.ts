import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { approvalSigningKey, runApproval, scriptedApprovalModel } from '../../examples/approval.js';
import { runCustomAdvisor } from '../../examples/custom-advisor.js';
import { runDefiningTools, scriptedDefiningToolsModel } from '../../examples/defining-tools.js';
import {
  runExceptionHandling,
  scriptedExceptionHandlingModel,
} from '../../examples/exception-handling.js';
import { runMemory, scriptedMemoryModel } from '../../examples/memory.js';
import { runPassingTools, scriptedPassingToolsModel } from '../../examples/passing-tools.js';
import { runQuickStart, scriptedQuickStartModel } from '../../examples/quick-start.js';
import {
  runResultConversion,
  scriptedResultConversionModel,
} from '../../examples/result-conversion.js';
import { runReturnDirect, scriptedReturnDirectModel } from '../../examples/return-direct.js';
import { runStreaming, scriptedStreamingModel } from '../../examples/streaming.js';
import {
  runStructuredOutput,
  scriptedStructuredOutputModel,
} from '../../examples/structured-output.js';
import {
  runToolArgumentAugmentation,
  scriptedAugmentationModel,
} from '../../examples/tool-argument-augmentation.js';
import { runToolCallLimits, scriptedLimitsModel } from '../../examples/tool-call-limits.js';
import { runToolContext, scriptedToolContextModel } from '../../examples/tool-context.js';
import { runToolResolution, scriptedResolutionModel } from '../../examples/tool-resolution.js';
import { scriptedWeatherModel } from '../../examples/weather-tools.js';
import {
  type Message,
  ToolCallLimitExceededError,
  ToolDefinitionError,
  ToolExecutionError,
  type ToolResponseMessage,
} from '../../src/index.js';
import type { ScriptedChatModel } from '../../src/testing/index.js';

const quiet = () => {};

function roles(messages: readonly Message[] | undefined): string[] {
  return (messages ?? []).map((message) =>
    message.role === 'assistant' && message.toolCalls.length > 0 ? 'assistant+calls' : message.role,
  );
}

/** The tool responses the model was sent on call `call` (0-based). */
function toolResponses(model: ScriptedChatModel, call: number) {
  const last = model.prompts[call]?.messages.at(-1) as Message | undefined;
  expect(last?.role).toBe('tool');
  return (last as ToolResponseMessage).responses;
}

describe('Quick Start', () => {
  it('calls getCurrentDateTime, then setAlarm ten minutes later, then answers (3 model calls)', async () => {
    const model = scriptedQuickStartModel();
    const before = Date.now();
    const { answer, alarms } = await runQuickStart(model, quiet);
    expect(model.callCount).toBe(3);
    const now = JSON.parse(toolResponses(model, 1)[0]?.responseData ?? '') as string;
    expect(Date.parse(now)).toBeGreaterThanOrEqual(before - 1);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]?.getTime()).toBe(Date.parse(now) + 10 * 60_000);
    // setAlarm returns nothing: the model is told "Done".
    expect(toolResponses(model, 2)).toEqual([
      { id: 'call-1', name: 'setAlarm', responseData: '"Done"' },
    ]);
    expect(answer).toBe(`Your alarm is set for ${alarms[0]?.toISOString()}.`);
    const offered = model.prompts[0]?.options.toolCallbacks?.map((t) => t.definition.name);
    expect(offered).toEqual(['getCurrentDateTime', 'setAlarm']);
  });
});

describe('Defining Tools', () => {
  it('mixes a Zod function tool, a JSON Schema function tool and @tool methods in one call', async () => {
    const model = scriptedDefiningToolsModel();
    const { definitions, answer } = await runDefiningTools(model, quiet);
    expect(answer).toBe('Ada Lovelace is in Copenhagen (18 °C); €250 is $270.');
    expect(model.callCount).toBe(2);
    expect(model.prompts[0]?.options.toolCallbacks?.map((t) => t.definition)).toEqual(definitions);
    expect(definitions.map((d) => d.name)).toEqual([
      'currentWeather',
      'convertCurrency',
      'listCustomerIds',
      'getCustomerInfo',
      'updateCustomerEmail',
    ]);
    expect(toolResponses(model, 1)).toEqual([
      {
        id: 'w',
        name: 'currentWeather',
        responseData: '{"location":"Copenhagen","temperature":18,"unit":"C"}',
      },
      { id: 'c', name: 'convertCurrency', responseData: '{"amount":270,"to":"USD"}' },
      {
        id: 'i',
        name: 'getCustomerInfo',
        responseData: '{"id":42,"name":"Ada Lovelace","email":"ada@example.com"}',
      },
    ]);
  });

  it('normalises every schema: draft 2020-12, required always present, additionalProperties false', async () => {
    const { definitions } = await runDefiningTools(scriptedDefiningToolsModel(), quiet);
    const byName = Object.fromEntries(definitions.map((d) => [d.name, d]));
    for (const { inputSchema } of definitions) {
      expect(inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(inputSchema.type).toBe('object');
      expect(Array.isArray(inputSchema.required)).toBe(true);
      expect(inputSchema.additionalProperties).toBe(false);
    }
    // The optional Zod field is not required; the method without parameters takes none.
    expect(byName.currentWeather?.inputSchema.required).toEqual(['location']);
    expect(byName.convertCurrency?.inputSchema.required).toEqual(['amount', 'to']);
    expect(byName.listCustomerIds?.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(byName.updateCustomerEmail?.description).toBe('Update the email address of a customer');
    expect(byName.getCustomerInfo?.inputSchema.properties?.id?.description).toBe('Customer id');
  });
});

describe('Passing Tools', () => {
  it('offers the union of default and per-call tools of every kind; duplicates fail before the model', async () => {
    const model = scriptedPassingToolsModel();
    const { answer, duplicateError } = await runPassingTools(model, quiet);
    expect(answer).toBe('It is 18 °C in Copenhagen.');
    expect(model.prompts[0]?.options.toolCallbacks?.map((t) => t.definition.name)).toEqual([
      'getCurrentDateTime',
      'setAlarm',
      'currentWeather',
      'convertCurrency',
      'listCustomerIds',
      'getCustomerInfo',
      'updateCustomerEmail',
      'countCustomers',
    ]);
    expect(duplicateError).toBeInstanceOf(ToolDefinitionError);
    expect(duplicateError?.message).toBe(
      'Multiple tools with the same name (currentWeather) found in the ChatClient request',
    );
    // The failing request never reached the model.
    expect(model.callCount).toBe(1);
  });
});

describe('Tool Context', () => {
  it('hands the merged context to the tool only: no schema property, nothing in any prompt', async () => {
    const model = scriptedToolContextModel();
    const { inputSchema, lookups, answer } = await runToolContext(model, quiet);
    expect(Object.keys(inputSchema.properties ?? {})).toEqual(['id']);
    expect(inputSchema.required).toEqual(['id']);
    // Call-site tenantId wins over the default; the default region is kept.
    expect(lookups).toEqual([{ id: 42, tenantId: 'acme', region: 'eu-west-1' }]);
    expect(answer).toBe('Customer 42 is Ada Lovelace, on the Enterprise plan.');
    expect(model.callCount).toBe(2);
    for (const prompt of model.prompts) {
      const sent = JSON.stringify({
        messages: prompt.messages,
        tools: prompt.options.toolCallbacks,
      });
      expect(sent).not.toContain('acme');
      expect(sent).not.toContain('eu-west-1');
    }
  });
});

describe('Return Direct', () => {
  it('returns a returnDirect result without a second model call, and not when the batch is mixed', async () => {
    const model = scriptedReturnDirectModel();
    const { direct, mixed } = await runReturnDirect(model, quiet);
    expect(direct).toEqual({
      answer: '["returnDirect hands the tool result to the caller."]',
      finishReason: 'returnDirect',
    });
    expect(mixed).toEqual({
      answer: 'One of the 3 passages is about limits: they are counted per turn.',
      finishReason: 'stop',
    });
    // 1 call for the direct request, 2 for the mixed one.
    expect(model.callCount).toBe(3);
    expect(toolResponses(model, 2).map((r) => r.responseData)).toEqual([
      '["Tool call limits are counted per turn."]',
      '3',
    ]);
  });
});

describe('Result Conversion', () => {
  it('converts each kind of result as the table says, and uses a custom converter when given', async () => {
    const model = scriptedResultConversionModel();
    const received = await runResultConversion(model, quiet);
    expect(received).toEqual({
      getOrder: '{"id":"A-1","total":42.5,"placedAt":"2026-01-15T09:30:00.000Z","tags":["gift"]}',
      orderStatus: '"shipped"',
      invoiceJson: '{"total":42.5}',
      cancelOrder: '"Done"',
      findCoupon: 'null',
      shippingLabel: '{"mimeType":"image/png","data":"iVBORw=="}',
      listOrders: 'A-1,42.5,2026-01-15T09:30:00.000Z\nA-2,9.99,2026-02-01T17:05:00.000Z',
    });
    // The observer saw exactly what the model was sent.
    expect(
      Object.fromEntries(toolResponses(model, 1).map((r) => [r.name, r.responseData])),
    ).toEqual(received);
  });
});

describe('Exception Handling', () => {
  it('sends tool errors to the model, rethrows with throwExceptionOnError, never runs invalid input', async () => {
    const model = scriptedExceptionHandlingModel();
    const result = await runExceptionHandling(model, quiet);

    expect(result.recoveredAnswer).toBe('Sorry, the weather service is unavailable for Atlantis.');
    expect(toolResponses(model, 1)).toEqual([
      {
        id: 'call-1',
        name: 'weather',
        responseData: 'Weather service unavailable for Atlantis',
        isError: true,
      },
    ]);

    expect(result.thrown).toBeInstanceOf(ToolExecutionError);
    expect(result.thrown?.toolName).toBe('weather');
    expect((result.thrown?.cause as Error | undefined)?.message).toBe(
      'Weather service unavailable for Atlantis',
    );

    // Calls: 2 (recovered) + 1 (thrown, no follow-up) + 3 (invalid, corrected, answer).
    expect(model.callCount).toBe(6);
    const [invalid] = toolResponses(model, 4);
    expect(invalid?.isError).toBe(true);
    expect(invalid?.responseData).toMatch(
      /^Tool call not executed: invalid arguments for tool 'weather': \/city: .*string/,
    );
    expect(result.correctedAnswer).toBe('It is 21 °C in Paris.');
    // The tool ran for Atlantis twice and for Paris; never for the invalid 42.
    expect(result.toolRanFor).toEqual(['Atlantis', 'Atlantis', 'Paris']);
  });
});

describe('Tool Call Limits', () => {
  it("THROW: the calls before the breach run, the turn ends with finish reason 'toolCallLimitExceeded'", async () => {
    const model = scriptedLimitsModel();
    const outcome = await runToolCallLimits('THROW', model, quiet);
    expect(outcome.finishReason).toBe(ToolCallLimitExceededError.FINISH_REASON);
    expect(outcome.finishReason).toBe('toolCallLimitExceeded');
    expect(outcome.text).toBe(
      "Tool call limit (2) exceeded for tool 'search'. No further calls to this tool are allowed in this turn.",
    );
    expect(outcome.ran).toEqual(['alpha', 'beta']);
    expect(outcome.partialToolResponses?.map((r) => r.responseData)).toEqual([
      '["Result for alpha"]',
      '["Result for beta"]',
    ]);
    expect(model.callCount).toBe(1);
  });

  it('RETURN_ERROR_RESPONSE: the breaching call gets an error result and the model answers', async () => {
    const model = scriptedLimitsModel();
    const outcome = await runToolCallLimits('RETURN_ERROR_RESPONSE', model, quiet);
    expect(outcome.finishReason).toBe('stop');
    expect(outcome.text).toBe(
      'I found results for alpha and beta; the search limit stopped gamma.',
    );
    expect(outcome.ran).toEqual(['alpha', 'beta']);
    expect(model.callCount).toBe(2);
    expect(toolResponses(model, 1).map((r) => r.isError ?? false)).toEqual([false, false, true]);
    expect(toolResponses(model, 1)[2]?.responseData).toContain(
      "Tool call limit (2) exceeded for tool 'search'",
    );
  });
});

describe('Tool Resolution', () => {
  it('runs a resolver-only tool only with the fallback on; off, the model is told the attached tools', async () => {
    const model = scriptedResolutionModel();
    const { fallbackOff, fallbackOn } = await runToolResolution(model, quiet);
    expect(fallbackOff.lookups).toEqual([]);
    expect(fallbackOff.answer).toBe(
      "I could not look the order up: Tool call not executed: there is no tool named 'lookupOrder'. Available tools: currentTime.",
    );
    expect(fallbackOn.lookups).toEqual(['A-1']);
    expect(fallbackOn.answer).toBe('Order: {"orderId":"A-1","status":"shipped"}');
    expect(model.callCount).toBe(4);
    // Both requests offered only the attached tool; the resolver's tools are never advertised.
    for (const prompt of model.prompts) {
      expect(prompt.options.toolCallbacks?.map((t) => t.definition.name)).toEqual(['currentTime']);
    }
  });
});

describe('Streaming', () => {
  it('streams the text deltas of both rounds, with the tool round run in between', async () => {
    const model = scriptedStreamingModel();
    const deltas = await runStreaming(model, quiet);
    expect(deltas.join('')).toBe('Let me check the weather. It is 18 °C in Copenhagen.');
    // 2 deltas from round 1, 4 from round 2.
    expect(deltas).toHaveLength(6);
    expect(model.callCount).toBe(2);
    expect(toolResponses(model, 1)[0]?.responseData).toBe(
      '{"location":"Copenhagen","temperature":18,"unit":"C"}',
    );
  });
});

describe('Structured output', () => {
  it('returns the validated value after a tool round and one corrected answer', async () => {
    const model = scriptedStructuredOutputModel();
    const report = await runStructuredOutput(model, quiet);
    expect(report).toEqual({
      location: 'Copenhagen',
      temperatureCelsius: 18,
      advice: 'Bring a jacket',
    });
    expect(model.callCount).toBe(3);
    const feedback = model.prompts[2]?.messages.at(-1);
    expect(feedback?.role).toBe('user');
    expect(feedback?.role === 'user' && feedback.text).toContain('/temperatureCelsius');
  });
});

describe('Memory and the tool loop', () => {
  it('outside the loop (default order): stores only user messages and final answers', async () => {
    const model = scriptedMemoryModel();
    const stored = await runMemory('outside', model, quiet);
    expect(roles(stored)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(model.callCount).toBe(3);
    // Turn 2 gets the remembered turn 1 without its tool messages.
    expect(roles(model.prompts[2]?.messages)).toEqual(['user', 'assistant', 'user']);
  });

  it('inside the loop (order + 400): stores the tool call and its result too, and replays them', async () => {
    const model = scriptedMemoryModel();
    const stored = await runMemory('inside', model, quiet);
    expect(roles(stored)).toEqual([
      'user',
      'assistant+calls',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(model.callCount).toBe(3);
    expect(roles(model.prompts[2]?.messages)).toEqual([
      'user',
      'assistant+calls',
      'tool',
      'assistant',
      'user',
    ]);
  });
});

describe('Tool argument augmentation', () => {
  it('offers the extra fields, hands the reasoning to the consumer and the city alone to the tool', async () => {
    const model = scriptedAugmentationModel();
    const { answer, thoughts, offeredProperties } = await runToolArgumentAugmentation(model, quiet);
    expect(answer).toBe('It is raining in Amsterdam, 11 °C.');
    expect(offeredProperties).toEqual(['city', 'innerThought', 'confidence']);
    expect(model.prompts[0]?.options?.toolCallbacks?.[0]?.definition.inputSchema.required).toEqual([
      'city',
      'innerThought',
    ]);
    expect(thoughts).toEqual([
      'current_weather (high): The user asks about Amsterdam, so I need its current weather',
    ]);
    // The @tool method answered as it does without augmentation.
    expect(JSON.parse(toolResponses(model, 1)[0]?.responseData ?? '')).toEqual({
      city: 'Amsterdam',
      temperatureCelsius: 11,
      conditions: 'Rain',
    });
  });
});

describe('Approval', () => {
  it('resumes on a client built anew with the same key, and a client holding another key refuses the state', async () => {
    const key = randomBytes(32);
    const resumed = await runApproval(scriptedApprovalModel(), () => {}, key, Buffer.from(key));
    expect(resumed.remainingFiles).toEqual(['/var/log/app.log', '/var/log/auth.log']);
    // A key made at startup by another process (randomBytes(32) again) cannot verify the state.
    await expect(
      runApproval(scriptedApprovalModel(), () => {}, key, randomBytes(32)),
    ).rejects.toMatchObject({ name: 'ToolApprovalError', problem: 'tampered-state' });
  });

  it('signs with APPROVAL_KEY from the environment when it is set', () => {
    const secret = 'a persisted secret of at least 32 bytes, from a vault';
    expect(approvalSigningKey({ APPROVAL_KEY: secret })).toBe(secret);
    expect(approvalSigningKey({})).toBeInstanceOf(Uint8Array);
  });

  it('pauses three deletions, then deletes one as shown, one as edited, and keeps the denied file', async () => {
    const model = scriptedApprovalModel();
    const lines: string[] = [];
    const result = await runApproval(model, (line) => lines.push(line));
    expect(result.waiting.map((call) => call.arguments.path)).toEqual([
      '/var/log/app.log.2',
      '/var/log/app.log*',
      '/var/log/auth.log',
    ]);
    expect(result.decisions.map((decision) => decision.type)).toEqual([
      'approve',
      'approve',
      'deny',
    ]);
    expect(result.remainingFiles).toEqual(['/var/log/app.log', '/var/log/auth.log']);
    expect(result.answer).toBe(
      'I deleted app.log.2 and app.log.1 and kept auth.log: audit logs are kept for a year.',
    );
    expect(lines).toContain('finish reason: approvalPending');
    // The model saw the edited path and the denial with its reason.
    const resumed = model.prompts[2]?.messages ?? [];
    const calls = (resumed.at(-2) as { toolCalls: { arguments: string }[] }).toolCalls;
    expect(calls.map((call) => JSON.parse(call.arguments).path)).toEqual([
      '/var/log/app.log.2',
      '/var/log/app.log.1',
      '/var/log/auth.log',
    ]);
    expect(toolResponses(model, 2).map((response) => response.isError === true)).toEqual([
      false,
      false,
      true,
    ]);
    expect(toolResponses(model, 2)[2]?.responseData).toContain('Audit logs are kept for a year.');
    expect(model.remaining).toBe(0);
  });
});

describe('custom-advisor', () => {
  it('an advisor before the loop sees each turn once; one after it sees every model call', async () => {
    const { outer, inner, placements } = await runCustomAdvisor(scriptedWeatherModel, quiet);
    expect(placements).toEqual([
      'turns: outside the tool loop',
      'model calls: inside the tool loop',
    ]);
    expect(outer.map((e) => [e.mode, e.messages, e.toolCalls, e.finishReason])).toEqual([
      ['call', 1, 0, 'stop'],
      ['stream', 1, 0, 'stop'],
    ]);
    expect(outer.every((e) => e.turnId === undefined)).toBe(true);
    expect(inner.map((e) => [e.mode, e.messages, e.toolCalls, e.finishReason])).toEqual([
      ['call', 1, 2, 'tool_calls'],
      ['call', 3, 0, 'stop'],
      ['stream', 1, 2, 'tool_calls'],
      ['stream', 3, 0, 'stop'],
    ]);
    const [first, second, third, fourth] = inner.map((e) => e.turnId);
    expect(first).toEqual(expect.any(String));
    expect(second).toBe(first);
    expect(third).toEqual(expect.any(String));
    expect(fourth).toBe(third);
    expect(third).not.toBe(first);
  });
});
