import { describe, expect, it } from 'vitest';
import { ForwardingChatModel } from '../../test/support/forwarding-chat-model.js';
import { reachableValues, reachesText } from '../../test/support/reachable-values.js';
import { type Advisor, HIGHEST_PRECEDENCE } from '../advisors/index.js';
import {
  CONVERSATION_ID,
  InMemoryChatMemoryRepository,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
} from '../memory/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { Bm25ToolIndex, ToolSearchToolCallingAdvisor } from '../tool-search/index.js';
import { tool } from '../tools/tool.js';
import type { ToolCallback, ToolContext } from '../tools/tool-callback.js';
import { runRequest } from './__tests__/run-request.js';
import { ChatClient } from './chat-client.js';

const SECRET = 'ctx-secret-4d1e9b';
const CONTEXT_KEY = 'tenantSigningKey';
const TOOL_HELD_KEY = 'sk-tool-held-0c77';

/** A hand-written tool holding a credential of its own, beside tools defined with `tool()`. */
class InvoiceTool implements ToolCallback {
  readonly definition = {
    name: 'lookupInvoice',
    description: 'Look up an invoice by its id',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  };
  readonly metadata = {};
  readonly apiClient = { key: TOOL_HELD_KEY };
  readonly contexts: ToolContext[] = [];
  async call(_input: string, context?: ToolContext): Promise<string> {
    if (context !== undefined) this.contexts.push(context);
    return '{"status":"paid"}';
  }
}

function setup(advisors: Advisor[], toolSearch: boolean) {
  const invoice = new InvoiceTool();
  const weather = tool({
    name: 'currentWeather',
    description: 'Current weather in a city',
    execute: () => 'sunny',
  });
  const script = [
    ...(toolSearch
      ? [toolCallResponse([{ id: 's1', name: 'toolSearchTool', arguments: { query: 'invoice' } }])]
      : []),
    toolCallResponse([{ id: 'c1', name: 'lookupInvoice', arguments: { id: 'INV-1' } }]),
    textResponse('Invoice INV-1 is paid.'),
  ];
  const model = new ForwardingChatModel(new ScriptedChatModel(script));
  const client = ChatClient.create(model, {
    tools: [invoice, weather],
    toolContext: { region: 'eu-west-1' },
    advisors,
    ...(toolSearch
      ? { toolCallingAdvisor: new ToolSearchToolCallingAdvisor({ toolIndex: new Bm25ToolIndex() }) }
      : {}),
  });
  return { model, client, invoice };
}

function memoryAdvisor(order?: number): MessageChatMemoryAdvisor {
  return new MessageChatMemoryAdvisor({
    chatMemory: new MessageWindowChatMemory({ repository: new InMemoryChatMemoryRepository() }),
    ...(order === undefined ? {} : { order }),
  });
}

const chains = [
  ['no other advisor', () => [] as Advisor[], false],
  ['tool search', () => [] as Advisor[], true],
  ['tool search and memory outside the loop', () => [memoryAdvisor()], true],
  [
    'tool search and memory inside the loop',
    () => [memoryAdvisor(HIGHEST_PRECEDENCE + 1000)],
    true,
  ],
  ['memory inside the loop', () => [memoryAdvisor(HIGHEST_PRECEDENCE + 1000)], false],
] as const;

describe.each(['call', 'stream'] as const)('ToolContext never reaches a ChatModel (%s)', (mode) => {
  it.each(chains)('with %s', async (_label, advisors, toolSearch) => {
    const { model, client, invoice } = setup(advisors(), toolSearch);
    const answer = await runRequest(
      client
        .prompt('Is invoice INV-1 paid?')
        .toolContext({ [CONTEXT_KEY]: SECRET })
        .advisors((a) => a.param(CONVERSATION_ID, 'conv-1')),
      mode,
    );
    expect(answer).toBe('Invoice INV-1 is paid.');

    // The tool got the whole context …
    expect(invoice.contexts).toHaveLength(1);
    expect(invoice.contexts[0]?.context).toMatchObject({
      [CONTEXT_KEY]: SECRET,
      region: 'eu-west-1',
    });
    // … and no model call saw any of it, nor anything the tool object holds.
    expect(model.prompts.length).toBe(toolSearch ? 3 : 2);
    for (const [index, prompt] of model.prompts.entries()) {
      const reachable = reachableValues(prompt);
      expect(reachable.keys.has('toolContext')).toBe(false);
      expect(reachable.keys.has(CONTEXT_KEY)).toBe(false);
      expect(reachable.values.has(invoice)).toBe(false);
      expect(reachesText(prompt, SECRET)).toBe(false);
      expect(reachesText(prompt, 'eu-west-1')).toBe(false);
      expect(reachesText(prompt, TOOL_HELD_KEY)).toBe(false);
      expect(model.wire[index]).not.toContain(SECRET);
      expect(model.wire[index]).not.toContain(TOOL_HELD_KEY);
    }
    // The tools the model is offered are still described in full.
    const lastOffered = model.prompts.at(-1)?.options.toolCallbacks ?? [];
    expect(lastOffered.map((callback) => callback.definition.name)).toContain('lookupInvoice');
  });
});
