// Defining Tools: the three styles, mixed in one .tools() call.
//  1. a function tool whose input is a Zod schema;
//  2. a function tool whose input is a raw JSON Schema, typed with jsonSchema<T>();
//  3. a class whose methods are @tool methods.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/defining-tools.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  ChatClient,
  type ChatModel,
  jsonSchema,
  type ToolDefinition,
  tool,
  toolCallbacksFrom,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** Style 1: a function tool with a Zod schema; `execute` receives the parsed, typed input. */
export const currentWeather = tool({
  name: 'currentWeather',
  description: 'Get the weather in location',
  inputSchema: z.object({
    location: z.string().describe('City name'),
    unit: z.enum(['C', 'F']).optional().describe('Temperature unit, Celsius by default'),
  }),
  execute: ({ location, unit = 'C' }) => ({
    location,
    temperature: unit === 'C' ? 18 : 64,
    unit,
  }),
});

/** Style 2: a raw JSON Schema (validated with ajv); `jsonSchema<T>()` types `execute`'s input. */
export const convertCurrency = tool({
  name: 'convertCurrency',
  description: 'Convert an amount of euros into another currency',
  inputSchema: jsonSchema<{ amount: number; to: 'USD' | 'GBP' }>({
    type: 'object',
    properties: {
      amount: { type: 'number', minimum: 0 },
      to: { type: 'string', enum: ['USD', 'GBP'] },
    },
    required: ['amount', 'to'],
  }),
  execute: ({ amount, to }) => ({ amount: Math.round(amount * RATES[to] * 100) / 100, to }),
});

const RATES = { USD: 1.08, GBP: 0.85 };

const CUSTOMERS = new Map([
  [42, { id: 42, name: 'Ada Lovelace', email: 'ada@example.com' }],
  [7, { id: 7, name: 'Alan Turing', email: 'alan@example.com' }],
]);

/** Style 3: `@tool` methods. The name defaults to the method name. */
export class CustomerTools {
  @tool({ description: 'List the ids of all customers' })
  listCustomerIds() {
    return [...CUSTOMERS.keys()];
  }

  @tool({
    description: 'Retrieve customer information',
    inputSchema: z.object({ id: z.number().int().describe('Customer id') }),
  })
  getCustomerInfo({ id }: { id: number }) {
    return CUSTOMERS.get(id) ?? null;
  }

  @tool({
    name: 'updateCustomerEmail',
    description: 'Update the email address of a customer',
    inputSchema: z.object({
      id: z.number().int(),
      email: z.email().describe('Email address, RFC 5322 format'),
    }),
  })
  updateEmail({ id, email }: { id: number; email: string }) {
    const customer = CUSTOMERS.get(id);
    if (customer === undefined) throw new Error(`No customer with id ${id}`);
    customer.email = email;
    return customer;
  }
}

/** Stands in for a real model: one tool of each style in one batch, then an answer. */
export function scriptedDefiningToolsModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { id: 'w', name: 'currentWeather', arguments: { location: 'Copenhagen' } },
      { id: 'c', name: 'convertCurrency', arguments: { amount: 250, to: 'USD' } },
      { id: 'i', name: 'getCustomerInfo', arguments: { id: 42 } },
    ]),
    textResponse('Ada Lovelace is in Copenhagen (18 °C); €250 is $270.'),
  ]);
}

/** What the model was offered and what it answered. */
export interface DefiningToolsResult {
  /** The definitions the model sees: name, description and the normalised JSON Schema. */
  definitions: ToolDefinition[];
  answer: string | null;
}

/** Passes tools of all three styles in one `.tools()` call and lets the model use each kind. */
export async function runDefiningTools(
  chatModel: ChatModel = scriptedDefiningToolsModel(),
  log: (line: string) => void = console.log,
): Promise<DefiningToolsResult> {
  const customerTools = new CustomerTools();
  const answer = await ChatClient.create(chatModel)
    .prompt('Who is customer 42, what is the weather in Copenhagen, and what is €250 in USD?')
    .tools(currentWeather, convertCurrency, customerTools)
    .call()
    .content();

  // toolCallbacksFrom() turns an object's @tool methods into ToolCallbacks, as .tools() does.
  const definitions = [currentWeather, convertCurrency, ...toolCallbacksFrom(customerTools)].map(
    (callback) => callback.definition,
  );
  for (const { name, inputSchema } of definitions) log(`${name}: ${JSON.stringify(inputSchema)}`);
  log(`answer: ${answer}`);
  return { definitions, answer };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runDefiningTools();
}
