// Passing Tools to ChatClient: default tools on the client, per-call tools added to them (a union,
// never a replacement), every kind of tool source mixed, and duplicate names rejected.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/passing-tools.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  ChatClient,
  type ChatModel,
  staticToolCallbackProvider,
  ToolDefinitionError,
  tool,
} from '../src/index.js';
import { ScriptedChatModel, textResponse } from '../src/testing/index.js';
import { CustomerTools, convertCurrency, currentWeather } from './defining-tools.js';
import { DateTimeTools } from './quick-start.js';

/** Stands in for a real model: answers the one request that reaches it. */
export function scriptedPassingToolsModel(): ScriptedChatModel {
  return new ScriptedChatModel([textResponse('It is 18 °C in Copenhagen.')]);
}

/** What the two requests showed. */
export interface PassingToolsResult {
  answer: string | null;
  /** The error of the request that added a second `currentWeather`. */
  duplicateError: ToolDefinitionError | undefined;
}

/**
 * A client with default tools; one request adds tools of every kind (a `ToolCallback`, an array,
 * an object with `@tool` methods, a `ToolCallbackProvider`), another adds a tool whose name is
 * already taken and fails when it runs, before the model is called.
 */
export async function runPassingTools(
  chatModel: ChatModel = scriptedPassingToolsModel(),
  log: (line: string) => void = console.log,
): Promise<PassingToolsResult> {
  // Defaults: available on every request built from this client.
  const client = ChatClient.create(chatModel, { tools: [new DateTimeTools()] });

  // A provider is asked for its tools again on every request (as an MCP client would be).
  const customerToolsProvider = staticToolCallbackProvider([
    tool({
      name: 'countCustomers',
      description: 'Count the customers',
      execute: () => 2,
    }),
  ]);

  // Per call: added to the defaults. The model is offered all of them.
  const answer = await client
    .prompt("What's the weather in Copenhagen?")
    .tools(currentWeather, [convertCurrency], new CustomerTools(), customerToolsProvider)
    .call()
    .content();
  log(`answer: ${answer}`);

  // Names must be unique among the defaults and the call's tools together.
  const anotherWeather = tool({
    name: 'currentWeather',
    description: 'Weather from another service',
    inputSchema: z.object({ city: z.string() }),
    execute: ({ city }) => ({ city, temperature: 20 }),
  });
  let duplicateError: ToolDefinitionError | undefined;
  try {
    await client.prompt('Weather?').tools(currentWeather, anotherWeather).call().content();
  } catch (error) {
    if (!(error instanceof ToolDefinitionError)) throw error;
    duplicateError = error;
    log(`duplicate: ${error.message}`);
  }
  return { answer, duplicateError };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runPassingTools();
}
