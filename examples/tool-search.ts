// Scaling to Hundreds of Tools: one property turns on the tool search advisor. The model is first
// offered only the search tool; what it finds is offered on the next round, nothing else.
// Spring AI: spring.ai.chat.client.tool-search-advisor.enabled=true
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/tool-search.js
import { pathToFileURL } from 'node:url';
import { chatClientFromConfig, loadConfig } from '../src/config/index.js';
import {
  type ChatModel,
  CONVERSATION_ID,
  jsonSchema,
  type ToolCallback,
  tool,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** Twelve tools from four unrelated domains: the kind of library tool search is for. */
export function toolLibrary(): ToolCallback[] {
  const make = (name: string, description: string, answer: (input: { id: string }) => unknown) =>
    tool({
      name,
      description,
      inputSchema: jsonSchema<{ id: string }>({
        type: 'object',
        properties: { id: { type: 'string', description: 'The record id' } },
        required: ['id'],
      }),
      execute: answer,
    });
  return [
    make(
      'finance_lookup_invoice',
      'Look up an invoice by its id: amount, status, due date',
      ({ id }) => ({
        id,
        amount: 1250,
        status: 'paid',
      }),
    ),
    make('finance_refund_payment', 'Refund a card payment', ({ id }) => ({ id, refunded: true })),
    make('finance_list_expenses', 'List the expense reports of an employee', () => []),
    make('hr_vacation_balance', 'Days of paid leave an employee has left', () => ({ days: 12 })),
    make('hr_open_positions', 'Open job positions of a department', () => []),
    make('hr_employee_profile', 'Profile of an employee: name, team, manager', ({ id }) => ({
      id,
    })),
    make('it_reset_password', 'Reset the password of a user account', ({ id }) => ({
      id,
      reset: true,
    })),
    make('it_open_ticket', 'Open a support ticket with the IT helpdesk', ({ id }) => ({ id })),
    make('it_device_inventory', 'Laptops and phones assigned to an employee', () => []),
    make('sales_pipeline', 'Open deals of a sales region', () => []),
    make('sales_customer_history', 'Orders and contacts of a customer account', () => []),
    make('sales_quote_price', 'Price quote for a product and quantity', () => ({ price: 99 })),
  ];
}

/** Stands in for a real model: searches, calls the invoice tool it found, then answers. */
export function scriptedToolSearchModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'toolSearchTool', arguments: { query: 'look up an invoice' } }]),
    toolCallResponse([{ name: 'finance_lookup_invoice', arguments: { id: 'INV-7' } }]),
    textResponse('Invoice INV-7 over 1250 was paid.'),
  ]);
}

/** What the run showed. */
export interface ToolSearchResult {
  answer: string | null;
  /** The tool names offered on each model call. */
  offered: string[][];
}

export async function runToolSearch(
  chatModel: ChatModel = scriptedToolSearchModel(),
  log: (line: string) => void = console.log,
): Promise<ToolSearchResult> {
  const config = await loadConfig({
    env: false,
    texts: [
      {
        text: 'spring.ai.chat.client.tool-search-advisor.enabled=true\n',
        format: 'properties',
        source: 'application.properties',
      },
    ],
  });
  const offered: string[][] = [];
  const recording: ChatModel = {
    call: (prompt, options) => {
      offered.push((prompt.options.toolCallbacks ?? []).map((t) => t.definition.name));
      return chatModel.call(prompt, options);
    },
  };
  const { client, close } = await chatClientFromConfig(config, {
    chatModel: recording,
    tools: toolLibrary(),
  });
  try {
    const answer = await client
      .prompt('What is the status of invoice INV-7?')
      // The session the discovered tools belong to: the conversation id.
      .advisors((a) => a.param(CONVERSATION_ID, 'user-1'))
      .call()
      .content();
    for (const [call, names] of offered.entries()) {
      log(`call ${call + 1} offered: ${names.join(', ')}`);
    }
    log(`answer: ${answer}`);
    return { answer, offered };
  } finally {
    await close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runToolSearch();
}
