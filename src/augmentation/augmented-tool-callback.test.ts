import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approveToolCall, pendingApprovalOf } from '../approval/index.js';
import { ChatClient } from '../client/index.js';
import {
  InvalidArgumentError,
  InvalidToolInputError,
  ToolDefinitionError,
  ToolExecutionError,
} from '../errors/index.js';
import type { ToolResponseMessage } from '../messages/index.js';
import {
  ScriptedChatModel,
  streamedResponse,
  textResponse,
  toolCallResponse,
} from '../testing/index.js';
import { jsonSchema, type ToolCallback, tool } from '../tools/index.js';
import { type AugmentedArgumentEvent, AugmentedToolCallback } from './augmented-tool-callback.js';

const AgentThinking = z.object({
  innerThought: z.string().describe('Your reasoning for calling this tool'),
  confidence: z.enum(['low', 'medium', 'high']).optional().describe('Confidence level'),
});

function weatherTool(seen: unknown[] = []) {
  return tool({
    name: 'current_weather',
    description: 'Current weather of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: (input) => {
      seen.push(input);
      return { city: input.city, conditions: 'Sunny' };
    },
  });
}

describe('AugmentedToolCallback', () => {
  it('runs the AgentThinking example end to end through ChatClient', async () => {
    const seen: unknown[] = [];
    const thoughts: AugmentedArgumentEvent<z.infer<typeof AgentThinking>>[] = [];
    const augmented = new AugmentedToolCallback(weatherTool(seen), {
      argumentSchema: AgentThinking,
      argumentConsumer: (event) => {
        thoughts.push(event);
      },
    });
    const model = new ScriptedChatModel([
      toolCallResponse([
        {
          id: 'call-1',
          name: 'current_weather',
          arguments: {
            city: 'Paris',
            innerThought: 'The user asked about Paris',
            confidence: 'high',
          },
        },
      ]),
      textResponse('It is sunny in Paris.'),
    ]);
    const client = ChatClient.create(model, { tools: [augmented] });
    const answer = await client.prompt('Weather in Paris?').call().content();

    expect(answer).toBe('It is sunny in Paris.');
    const offered = model.prompts[0]?.options?.toolCallbacks?.[0]?.definition.inputSchema;
    expect(Object.keys(offered?.properties ?? {})).toEqual(['city', 'innerThought', 'confidence']);
    expect(offered?.required).toEqual(['city', 'innerThought']);
    expect(seen).toEqual([{ city: 'Paris' }]);
    expect(thoughts).toHaveLength(1);
    expect(thoughts[0]?.arguments).toEqual({
      innerThought: 'The user asked about Paris',
      confidence: 'high',
    });
    expect(thoughts[0]?.toolDefinition).toBe(augmented.definition);
    expect(JSON.parse(thoughts[0]?.rawInput ?? '')).toMatchObject({ city: 'Paris' });
    const results = model.prompts[1]?.messages.at(-1) as ToolResponseMessage;
    expect(JSON.parse(results.responses[0]?.responseData ?? '')).toEqual({
      city: 'Paris',
      conditions: 'Sunny',
    });
  });

  it('works in stream mode too: the consumer gets the fields, the tool its own arguments', async () => {
    const seen: unknown[] = [];
    const thoughts: string[] = [];
    const augmented = new AugmentedToolCallback(weatherTool(seen), {
      argumentSchema: AgentThinking,
      argumentConsumer: ({ arguments: thinking }) => {
        thoughts.push(thinking.innerThought);
      },
    });
    const model = new ScriptedChatModel([
      streamedResponse(
        toolCallResponse([
          { name: 'current_weather', arguments: { city: 'Oslo', innerThought: 'asked for Oslo' } },
        ]),
      ),
      streamedResponse(textResponse('Sunny in Oslo.')),
    ]);
    const deltas: string[] = [];
    for await (const delta of ChatClient.create(model, { tools: [augmented] })
      .prompt('Weather in Oslo?')
      .stream()
      .content()) {
      deltas.push(delta);
    }
    expect(deltas.join('')).toBe('Sunny in Oslo.');
    expect(thoughts).toEqual(['asked for Oslo']);
    expect(seen).toEqual([{ city: 'Oslo' }]);
  });

  it('never lets the original tool see an augmented field (property)', async () => {
    const ownKeys = new Set<string>();
    const original: ToolCallback = tool({
      name: 'echo',
      description: 'Echoes its input',
      inputSchema: jsonSchema({ type: 'object', additionalProperties: true }),
      execute: (input) => {
        for (const key of Object.keys(input as object)) ownKeys.add(key);
        return 'ok';
      },
    });
    const augmented = new AugmentedToolCallback(original, {
      argumentSchema: jsonSchema({
        type: 'object',
        properties: { reasoning: {}, confidence: {}, agentId: {} },
      }),
    });
    const extraNames = ['reasoning', 'confidence', 'agentId'];
    // The argument parser refuses "__proto__" keys and constructor.prototype shapes at any depth
    // (its own tests cover that); this property is about which keys reach the tool, so values
    // stay clear of both.
    const safeJsonValue = fc
      .jsonValue()
      .filter((value) => !/"(__proto__|prototype)"/.test(JSON.stringify(value)));
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc
            .string()
            .filter(
              (key) => !extraNames.includes(key) && key !== '__proto__' && key !== 'constructor',
            ),
          safeJsonValue,
        ),
        fc.record(
          { reasoning: safeJsonValue, confidence: safeJsonValue, agentId: safeJsonValue },
          { requiredKeys: [] },
        ),
        async (own, extra) => {
          ownKeys.clear();
          await augmented.call(JSON.stringify({ ...own, ...extra }));
          for (const name of extraNames) expect(ownKeys.has(name)).toBe(false);
          expect([...ownKeys].sort()).toEqual(Object.keys(own).sort());
        },
      ),
      { numRuns: 200 },
    );
  });

  it('passes the model text unchanged when removal is off', async () => {
    const seen: unknown[] = [];
    const original = tool({
      name: 'echo',
      description: 'Echoes',
      inputSchema: z.looseObject({ city: z.string() }),
      execute: (input) => {
        seen.push(input);
        return 'ok';
      },
    });
    const augmented = new AugmentedToolCallback(original, {
      argumentSchema: AgentThinking,
      removeExtraArgumentsAfterProcessing: false,
    });
    await augmented.call('{"city":"Oslo","innerThought":"why not"}');
    expect(seen).toEqual([{ city: 'Oslo', innerThought: 'why not' }]);
  });

  it('keeps every metadata field of the wrapped tool, returnDirect included', () => {
    const original = tool({
      name: 'lookup',
      description: 'Looks up',
      returnDirect: true,
      sequential: true,
      timeoutMs: 1234,
      readOnly: true,
      execute: () => 'x',
    });
    const augmented = new AugmentedToolCallback(original, { argumentSchema: AgentThinking });
    expect(augmented.metadata).toEqual(original.metadata);
    expect(augmented.metadata).toMatchObject({
      returnDirect: true,
      sequential: true,
      timeoutMs: 1234,
      readOnly: true,
    });
    expect(augmented.definition.name).toBe('lookup');
    expect(augmented.definition.description).toBe('Looks up');
  });

  it('refuses an extra field that clashes with a property of the tool', () => {
    expect(
      () =>
        new AugmentedToolCallback(weatherTool(), {
          argumentSchema: z.object({ city: z.string() }),
        }),
    ).toThrow(ToolDefinitionError);
  });

  it('leaves a shared tool untouched: two clients can wrap it differently', () => {
    const shared = weatherTool();
    const before = structuredClone(shared.definition);
    const a = new AugmentedToolCallback(shared, { argumentSchema: AgentThinking });
    const b = new AugmentedToolCallback(shared, {
      argumentSchema: z.object({ agentId: z.string() }),
    });
    expect(shared.definition).toEqual(before);
    expect(Object.keys(a.definition.inputSchema.properties ?? {})).toContain('innerThought');
    expect(Object.keys(b.definition.inputSchema.properties ?? {})).toEqual(['city', 'agentId']);
  });

  it('rejects missing or invalid extra fields as invalid input, without running the tool', async () => {
    const seen: unknown[] = [];
    const consumed: unknown[] = [];
    const augmented = new AugmentedToolCallback(weatherTool(seen), {
      argumentSchema: AgentThinking,
      argumentConsumer: (event) => {
        consumed.push(event);
      },
    });
    await expect(augmented.call('{"city":"Paris"}')).rejects.toThrow(InvalidToolInputError);
    await expect(
      augmented.call('{"city":"Paris","innerThought":"x","confidence":"total"}'),
    ).rejects.toThrow(/confidence/);
    await expect(augmented.call('{"city":')).rejects.toThrow(InvalidToolInputError);
    expect(seen).toEqual([]);
    expect(consumed).toEqual([]);
  });

  it('turns a throwing consumer into an error result for the model; the tool does not run', async () => {
    const seen: unknown[] = [];
    const augmented = new AugmentedToolCallback(weatherTool(seen), {
      argumentSchema: AgentThinking,
      argumentConsumer: async () => {
        throw new Error('thought log is full');
      },
    });
    await expect(augmented.call('{"city":"Paris","innerThought":"x"}')).rejects.toThrow(
      ToolExecutionError,
    );
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 'call-1', name: 'current_weather', arguments: { city: 'Paris', innerThought: 'x' } },
      ]),
      textResponse('Sorry, I could not check.'),
    ]);
    const answer = await ChatClient.create(model, { tools: [augmented] })
      .prompt('Weather in Paris?')
      .call()
      .content();
    expect(answer).toBe('Sorry, I could not check.');
    const results = model.prompts[1]?.messages.at(-1) as ToolResponseMessage;
    expect(results.responses[0]?.responseData).toContain('thought log is full');
    expect(seen).toEqual([]);
  });

  it('refuses something that is not a ToolCallback, or no argument schema', () => {
    expect(
      () => new AugmentedToolCallback({} as ToolCallback, { argumentSchema: AgentThinking }),
    ).toThrow(InvalidArgumentError);
    expect(
      () =>
        new AugmentedToolCallback(
          weatherTool(),
          {} as unknown as { argumentSchema: typeof AgentThinking },
        ),
    ).toThrow(InvalidArgumentError);
  });
});

describe('AugmentedToolCallback under approval', () => {
  function transferTool(sent: unknown[]) {
    return tool({
      name: 'transfer',
      description: 'Send money',
      inputSchema: z.object({ to: z.string(), amount: z.number().positive() }),
      needsApproval: true,
      execute: (input) => {
        sent.push(input);
        return `sent ${input.amount} to ${input.to}`;
      },
    });
  }

  it('an edit gives only the tool arguments: the model-written fields are kept for the consumer and the transcript', async () => {
    const sent: unknown[] = [];
    const thoughts: unknown[] = [];
    const augmented = new AugmentedToolCallback(transferTool(sent), {
      argumentSchema: AgentThinking,
      argumentConsumer: (event) => {
        thoughts.push(event.arguments);
      },
    });
    const model = new ScriptedChatModel([
      toolCallResponse([
        {
          id: 't1',
          name: 'transfer',
          arguments: { to: 'bob', amount: 100, innerThought: 'The user asked to pay Bob.' },
        },
      ]),
      textResponse('Sent.'),
    ]);
    const client = ChatClient.create(model, { tools: [augmented] });
    const paused = await client.prompt('Pay bob 100').call();
    const state = pendingApprovalOf(paused);
    expect(state?.toolCalls[0]?.arguments).toEqual({
      to: 'bob',
      amount: 100,
      innerThought: 'The user asked to pay Bob.',
    });
    const decision = approveToolCall(state!.toolCalls[0]!, {
      arguments: { to: 'carol', amount: 50 },
    });
    expect(await client.resume(state!, [decision]).call().content()).toBe('Sent.');
    expect(sent).toEqual([{ to: 'carol', amount: 50 }]);
    expect(thoughts).toEqual([{ innerThought: 'The user asked to pay Bob.' }]);
    const assistant = model.prompts[1]?.messages.at(-2);
    expect(
      assistant?.role === 'assistant' && JSON.parse(assistant.toolCalls[0]!.arguments),
    ).toEqual({
      to: 'carol',
      amount: 50,
      innerThought: 'The user asked to pay Bob.',
    });
  });

  it('an edit may change a model-written field too; an invalid one is refused before anything runs', async () => {
    const sent: unknown[] = [];
    const thoughts: unknown[] = [];
    const augmented = new AugmentedToolCallback(transferTool(sent), {
      argumentSchema: AgentThinking,
      argumentConsumer: (event) => {
        thoughts.push(event.arguments);
      },
    });
    const model = new ScriptedChatModel([
      toolCallResponse([
        { id: 't1', name: 'transfer', arguments: { to: 'bob', amount: 100, innerThought: 'pay' } },
      ]),
      textResponse('Sent.'),
    ]);
    const client = ChatClient.create(model, { tools: [augmented] });
    const state = pendingApprovalOf(await client.prompt('Pay bob 100').call())!;
    const call = state.toolCalls[0]!;
    await expect(
      client
        .resume(state, [
          approveToolCall(call, { arguments: { to: 'bob', amount: 1, confidence: 'sure' } }),
        ])
        .call()
        .content(),
    ).rejects.toMatchObject({ problem: 'invalid-edit' });
    expect(sent).toEqual([]);
    await client
      .resume(state, [
        approveToolCall(call, { arguments: { to: 'bob', amount: 1, confidence: 'high' } }),
      ])
      .call()
      .content();
    expect(sent).toEqual([{ to: 'bob', amount: 1 }]);
    expect(thoughts).toEqual([{ innerThought: 'pay', confidence: 'high' }]);
  });
});
