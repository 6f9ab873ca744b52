import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatClient } from '../client/index.js';
import { CONVERSATION_ID } from '../memory/index.js';
import type { ToolResponse } from '../messages/index.js';
import { createPrompt } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { createToolCallingManager } from '../tool-calling/create-tool-calling-manager.js';
import { tool } from '../tools/tool.js';
import { ToolSearchToolCallingAdvisor } from './tool-search-tool-calling-advisor.js';

const resetPassword = tool({
  name: 'it_reset_password',
  description: 'Reset the password of a user account',
  inputSchema: z.object({ user: z.string() }),
  execute: ({ user }) => `reset for ${user}`,
});

function lastToolResponses(model: ScriptedChatModel): ToolResponse[] {
  const last = model.prompts.at(-1)?.messages.at(-1);
  return last?.role === 'tool' ? last.responses : [];
}

describe.each(['call', 'stream'] as const)('a call of a tool no search found (%s)', (mode) => {
  it('tells the model to search for it first, without running it', async () => {
    let ran = 0;
    const countedLookup = tool({
      name: 'finance_lookup_invoice',
      description: 'Look up an invoice by its id',
      inputSchema: z.object({ id: z.string() }),
      execute: ({ id }) => {
        ran++;
        return `${id}: paid`;
      },
    });
    const model = new ScriptedChatModel([
      // The model guesses a real name before searching.
      toolCallResponse([{ id: 'c1', name: 'finance_lookup_invoice', arguments: { id: 'INV-7' } }]),
      textResponse('I will search first.'),
    ]);
    const client = ChatClient.create(model, {
      tools: [countedLookup, resetPassword],
      toolCallingAdvisor: new ToolSearchToolCallingAdvisor(),
    });
    const spec = client
      .prompt('Status of invoice INV-7?')
      .advisors((a) => a.param(CONVERSATION_ID, 'c-1'));
    if (mode === 'call') await spec.call().content();
    else for await (const _ of spec.stream().content());

    const [response] = lastToolResponses(model);
    expect(response?.isError).toBe(true);
    expect(response?.responseData).toContain("'finance_lookup_invoice' is not offered");
    expect(response?.responseData).toContain('toolSearchTool');
    expect(response?.responseData).not.toContain('there is no tool named');
    expect(ran).toBe(0);
  });

  it('says a name outside the library does not exist, so the model does not search for it', async () => {
    const model = new ScriptedChatModel([
      // A tool of an earlier turn's library, since removed, or a made-up name.
      toolCallResponse([{ id: 'c1', name: 'finance_void_invoice', arguments: { id: 'INV-7' } }]),
      textResponse('That tool is gone.'),
    ]);
    const client = ChatClient.create(model, {
      tools: [resetPassword],
      toolCallingAdvisor: new ToolSearchToolCallingAdvisor(),
    });
    const spec = client
      .prompt('Void invoice INV-7')
      .advisors((a) => a.param(CONVERSATION_ID, 'c-2'));
    if (mode === 'call') await spec.call().content();
    else for await (const _ of spec.stream().content());

    const [response] = lastToolResponses(model);
    expect(response?.isError).toBe(true);
    expect(response?.responseData).toContain("there is no tool named 'finance_void_invoice'");
    expect(response?.responseData).not.toContain('Search for it');
  });
});

describe('the unknown-tool message of the manager', () => {
  it('keeps naming the attached tools when none of them discovers tools', async () => {
    const manager = createToolCallingManager();
    const prompt = createPrompt([], { toolCallbacks: [resetPassword] });
    const result = await manager.executeToolCalls(
      prompt,
      toolCallResponse([{ id: 'c1', name: 'ghost', arguments: {} }]),
    );
    const last = result.conversationHistory.at(-1);
    expect(last?.role === 'tool' ? last.responses[0]?.responseData : '').toBe(
      "Tool call not executed: there is no tool named 'ghost'. Available tools: it_reset_password.",
    );
  });
});
