// Tool Context: data for the tool that the model never sees (tenant, user, request scope). The
// map given to .toolContext() reaches the tool's second argument; the schema has no trace of it.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/tool-context.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  ChatClient,
  type ChatModel,
  type JsonSchema,
  type ToolContext,
  type ToolResponseMessage,
  tool,
  toolCallbacksFrom,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

const CUSTOMERS: Record<string, Record<number, { name: string; plan: string }>> = {
  acme: { 42: { name: 'Ada Lovelace', plan: 'Enterprise' } },
  globex: { 42: { name: 'Hank Scorpio', plan: 'Starter' } },
};

/** One lookup the tool made, with the context values it used. */
export interface CustomerLookup {
  id: number;
  tenantId: unknown;
  region: unknown;
}

/** Customer lookups scoped to the caller's tenant, which comes from the tool context. */
export class CustomerTools {
  readonly lookups: CustomerLookup[] = [];

  @tool({
    description: 'Retrieve customer information',
    inputSchema: z.object({ id: z.number().int() }),
  })
  getCustomerInfo({ id }: { id: number }, context: ToolContext) {
    const { tenantId, region } = context.context;
    this.lookups.push({ id, tenantId, region });
    return CUSTOMERS[String(tenantId)]?.[id] ?? null;
  }
}

/** Stands in for a real model: looks customer 42 up, then describes the result. */
export function scriptedToolContextModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'getCustomerInfo', arguments: { id: 42 } }]),
    (prompt) => {
      const result = prompt.messages.at(-1) as ToolResponseMessage;
      const customer = JSON.parse(result.responses[0]?.responseData ?? 'null') as {
        name: string;
        plan: string;
      };
      return textResponse(`Customer 42 is ${customer.name}, on the ${customer.plan} plan.`);
    },
  ]);
}

/** What the tool context scenario showed. */
export interface ToolContextResult {
  /** The input schema the model sees: only `id`. */
  inputSchema: JsonSchema;
  lookups: CustomerLookup[];
  answer: string | null;
}

/**
 * The client sets a default context (`region`, and a `tenantId` placeholder); the call sets the
 * real `tenantId`. The maps are merged, call-site values winning, and handed to the tool only.
 */
export async function runToolContext(
  chatModel: ChatModel = scriptedToolContextModel(),
  log: (line: string) => void = console.log,
): Promise<ToolContextResult> {
  const customerTools = new CustomerTools();
  const client = ChatClient.create(chatModel, {
    toolContext: { tenantId: 'unknown', region: 'eu-west-1' },
  });
  const answer = await client
    .prompt('Tell me more about the customer with ID 42')
    .tools(customerTools)
    .toolContext({ tenantId: 'acme' })
    .call()
    .content();

  const [definition] = toolCallbacksFrom(customerTools).map((callback) => callback.definition);
  const inputSchema = definition?.inputSchema ?? {};
  log(`schema the model sees: ${JSON.stringify(inputSchema)}`);
  for (const lookup of customerTools.lookups) log(`tool ran with ${JSON.stringify(lookup)}`);
  log(`answer: ${answer}`);
  return { inputSchema, lookups: customerTools.lookups, answer };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runToolContext();
}
