import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { reachableValues, reachesText } from '../../test/support/reachable-values.js';
import { userMessage } from '../messages/index.js';
import {
  type ChatModel,
  type ChatModelCallOptions,
  type ChatOptions,
  type ChatResponse,
  createPrompt,
  type Prompt,
  type ToolCallingChatOptions,
} from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { createToolCallingManager } from '../tool-calling/index.js';
import { tool } from '../tools/tool.js';
import { runRequest } from './__tests__/run-request.js';
import { ChatClient } from './chat-client.js';

const SECRET = 'ctx-secret-options-5e21';

/** A model that keeps everything it is handed: every argument of every call, as received. */
class RecordEverythingModel implements ChatModel {
  readonly received: unknown[] = [];
  readonly #inner = new ScriptedChatModel([
    toolCallResponse([{ id: 'c1', name: 'whoAmI', arguments: {} }]),
    textResponse('done'),
    toolCallResponse([{ id: 'c2', name: 'whoAmI', arguments: {} }]),
    textResponse('done'),
  ]);

  call(prompt: Prompt, options?: ChatModelCallOptions): Promise<ChatResponse> {
    this.received.push([prompt, options]);
    return this.#inner.call(prompt, options);
  }

  stream(prompt: Prompt, options?: ChatModelCallOptions): AsyncIterable<ChatResponse> {
    this.received.push([prompt, options]);
    return this.#inner.stream(prompt, options);
  }
}

describe.each(['call', 'stream'] as const)('the tool context stays with the loop (%s)', (mode) => {
  it('never reaches a model, even when put into .options(); the tool still gets it', async () => {
    const model = new RecordEverythingModel();
    const seen: unknown[] = [];
    const whoAmI = tool({
      name: 'whoAmI',
      execute: (_input, { context }) => {
        seen.push(context.tenantKey);
        return 'you';
      },
    });
    const client = ChatClient.create(model, { options: { toolContext: { region: 'eu' } } });
    const answer = await runRequest(
      client
        .prompt('who am I?')
        .tools(whoAmI)
        .options({ toolContext: { tenantKey: SECRET } }),
      mode,
    );
    expect(answer).toBe('done');
    expect(seen).toEqual([SECRET]);
    expect(model.received).toHaveLength(2);
    for (const received of model.received) {
      expect(reachesText(received, SECRET)).toBe(false);
      expect(reachesText(received, 'eu')).toBe(false);
      expect(reachableValues(received).keys.has('toolContext')).toBe(false);
    }
  });
});

describe('the types of the boundary', () => {
  const weather = tool({
    name: 'weather',
    inputSchema: z.object({ city: z.string() }),
    execute: ({ city }) => `sunny in ${city}`,
  });

  it('a model takes a prompt with tools; not one that carries a tool context', async () => {
    const model = new ScriptedChatModel([textResponse('a')]);
    const withTools = createPrompt([userMessage('hi')], { toolCallbacks: [weather] });
    await model.call(withTools);
    const withContext = createPrompt([userMessage('hi')], {
      toolCallbacks: [weather],
      toolContext: { tenantId: 'acme' },
    });
    // Type checks only: neither is ever sent.
    const mistakes = [
      // @ts-expect-error a prompt with a tool context cannot go to a model
      () => model.call(withContext),
      // @ts-expect-error nor can a literal one
      () => model.call({ messages: [], options: { toolContext: { a: 1 } } }),
    ];
    expect(mistakes).toHaveLength(2);
    expect(model.callCount).toBe(1);
    expectTypeOf<ChatOptions['toolContext']>().toEqualTypeOf<undefined>();
    expectTypeOf<ToolCallingChatOptions['toolContext']>().toEqualTypeOf<
      Record<string, unknown> | undefined
    >();
  });

  it('a loop you drive passes the context beside the prompt, to the manager', async () => {
    const seen: unknown[] = [];
    const whoAmI = tool({
      name: 'whoAmI',
      execute: (_input, { context }) => {
        seen.push(context);
        return 'you';
      },
    });
    const model = new ScriptedChatModel([
      toolCallResponse([{ id: 'c1', name: 'whoAmI', arguments: {} }]),
    ]);
    const prompt = createPrompt([userMessage('who?')], { toolCallbacks: [whoAmI] });
    const response = await model.call(prompt);
    await createToolCallingManager().executeToolCalls(prompt, response, {
      toolContext: { tenantId: 'acme' },
    });
    expect(seen).toEqual([{ tenantId: 'acme' }]);
    expect(JSON.stringify(model.prompts)).not.toContain('acme');
  });
});
