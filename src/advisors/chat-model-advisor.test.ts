import { describe, expect, it } from 'vitest';
import { ForwardingChatModel } from '../../test/support/forwarding-chat-model.js';
import { reachableValues, reachesText } from '../../test/support/reachable-values.js';
import type { ChatOptions, ChatResponse, ToolCallingChatOptions } from '../model/index.js';
import { ScriptedChatModel, streamedResponse } from '../testing/index.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import type { ChatClientRequest, ChatClientResponse } from './chat-client-request.js';
import { ChatModelAdvisor } from './chat-model-advisor.js';

const SECRET = 'tenant-secret-7f3a';
const KEY_IN_TOOL = 'sk-held-by-the-tool-91c2';

/** A forwarding adapter whose provider answers "ok" (in two chunks when streamed). */
function forwardingModel(): ForwardingChatModel {
  const ok: ChatResponse = {
    results: [
      {
        output: { role: 'assistant', text: 'ok', toolCalls: [] },
        metadata: { finishReason: 'stop' },
      },
    ],
    metadata: {},
  };
  const answers = Array.from({ length: 4 }, () => streamedResponse(ok, { textChunks: 2 }));
  return new ForwardingChatModel(new ScriptedChatModel(answers));
}

/** A hand-written tool that holds a credential of its own, as an API client would. */
class BillingTool implements ToolCallback {
  readonly definition = {
    name: 'billing',
    description: 'Look up an invoice',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  };
  readonly metadata = { returnDirect: true, internalNote: 'for the loop only' };
  readonly client = { apiKey: KEY_IN_TOOL };
  async call(): Promise<string> {
    return 'paid';
  }
}

function requestWith(options: ToolCallingChatOptions): ChatClientRequest {
  return { prompt: { messages: [{ role: 'user', text: 'hi' }], options }, context: {} };
}

async function send(
  advisor: ChatModelAdvisor,
  request: ChatClientRequest,
  mode: 'call' | 'stream',
): Promise<void> {
  if (mode === 'call') {
    await advisor.adviseCall(request);
    return;
  }
  const chunks: ChatClientResponse[] = [];
  for await (const chunk of advisor.adviseStream(request)) chunks.push(chunk);
  expect(chunks).toHaveLength(2);
}

describe.each(['call', 'stream'] as const)('ChatModelAdvisor (%s)', (mode) => {
  it('never hands the tool context or the tools themselves to the model, only their definitions', async () => {
    const model = forwardingModel();
    const billing = new BillingTool();
    const toolContext = { tenantToken: SECRET, nested: { deeper: [SECRET] } };
    const options: ToolCallingChatOptions<ChatOptions & { providerExtra?: unknown }> = {
      model: 'm-1',
      temperature: 0.3,
      toolCallbacks: [billing],
      toolContext,
      providerExtra: { seed: 7 },
    };
    await send(new ChatModelAdvisor(model), requestWith(options), mode);

    const [sent] = model.prompts;
    expect(sent?.options).not.toHaveProperty('toolContext');
    expect(sent?.options.model).toBe('m-1');
    expect(sent?.options.temperature).toBe(0.3);
    expect((sent?.options as { providerExtra?: unknown } | undefined)?.providerExtra).toEqual({
      seed: 7,
    });
    // The model still learns every tool: name, description and schema, nothing else.
    expect(sent?.options.toolCallbacks?.map((callback) => callback.definition)).toEqual([
      billing.definition,
    ]);
    const reachable = reachableValues(sent?.options);
    expect(reachable.values.has(billing)).toBe(false);
    expect(reachable.values.has(toolContext)).toBe(false);
    expect(reachable.values.has(billing.metadata)).toBe(false);
    expect(reachesText(sent?.options, SECRET)).toBe(false);
    expect(reachesText(sent?.options, KEY_IN_TOOL)).toBe(false);
    expect(reachesText(sent?.options, 'for the loop only')).toBe(false);
    expect(model.wire[0]).not.toContain(SECRET);
    expect(model.wire[0]).not.toContain(KEY_IN_TOOL);
    expect(model.wire[0]).toContain('"name":"billing"');
    // The loop's own view is untouched: the manager executes with these options.
    expect(options.toolCallbacks).toEqual([billing]);
    expect(options.toolContext).toBe(toolContext);
  });

  it('gives the model tools it cannot execute: a frozen definition, nothing else', async () => {
    const model = forwardingModel();
    const billing = new BillingTool();
    await send(new ChatModelAdvisor(model), requestWith({ toolCallbacks: [billing] }), mode);
    const offered = model.prompts[0]?.options.toolCallbacks?.[0];
    expect(offered).toEqual({ definition: billing.definition });
    expect(Object.keys(offered ?? {})).toEqual(['definition']);
    expect(Object.isFrozen(offered)).toBe(true);
    expect(Object.isFrozen(offered?.definition)).toBe(true);
  });

  it('hands the same definition views to the model on every round', async () => {
    const model = forwardingModel();
    const advisor = new ChatModelAdvisor(model);
    const billing = new BillingTool();
    await send(advisor, requestWith({ toolCallbacks: [billing] }), mode);
    await send(advisor, requestWith({ toolCallbacks: [billing], temperature: 1 }), mode);
    const [first, second] = model.prompts;
    expect(first?.options.toolCallbacks?.[0]).toBe(second?.options.toolCallbacks?.[0]);
    // Provider adapters cache compiled schemas by definition object.
    expect(first?.options.toolCallbacks?.[0]?.definition).toBe(
      second?.options.toolCallbacks?.[0]?.definition,
    );
  });

  it('passes a prompt without tools or tool context through as it is', async () => {
    const model = forwardingModel();
    const request = requestWith({ temperature: 0 });
    await send(new ChatModelAdvisor(model), request, mode);
    expect(model.prompts[0]).toBe(request.prompt);
  });

  it('drops an empty tool context too, and an explicit undefined', async () => {
    const model = forwardingModel();
    const advisor = new ChatModelAdvisor(model);
    await send(advisor, requestWith({ toolContext: {} }), mode);
    await send(advisor, requestWith({ toolContext: undefined, toolCallbacks: undefined }), mode);
    for (const prompt of model.prompts) {
      expect(Object.keys(prompt.options)).toEqual([]);
    }
  });
});
