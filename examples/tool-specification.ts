// Tool Specification Reference: the interfaces underneath every tool.
//  - ToolCallback written by hand: its definition (name, description, raw JSON Schema) and a
//    `call(input)` that proxies a remote source (here an in-process stand-in for one);
//  - JSON Schema: parameter descriptions and optional parameters, as the model is sent them;
//  - what cannot be a tool's input (functions, dates, a non-object): refused when the tool is
//    defined, with a ToolDefinitionError, never at call time.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/tool-specification.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  ChatClient,
  type ChatModel,
  type ToolCallback,
  type ToolDefinition,
  ToolDefinitionError,
  tool,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** A remote weather service, as a hand-written ToolCallback would reach it. */
const remoteWeather = async (location: string, unit: 'C' | 'F') => ({
  location,
  temperature: unit === 'C' ? 18 : 64,
  unit,
});

/** The definition the model sees: name, description and input schema, written out. */
export const currentWeatherDefinition: ToolDefinition = {
  name: 'currentWeather',
  description: 'Get the weather in location',
  inputSchema: {
    type: 'object',
    properties: {
      location: { type: 'string' },
      unit: { type: 'string', enum: ['C', 'F'] },
    },
    required: ['location', 'unit'],
  },
};

/** A ToolCallback implemented directly: full control over parsing and the result text. */
export const currentWeatherCallback: ToolCallback = {
  definition: currentWeatherDefinition,
  metadata: { readOnly: true },
  async call(input) {
    const { location, unit } = JSON.parse(input) as { location: string; unit: 'C' | 'F' };
    return JSON.stringify(await remoteWeather(location, unit));
  },
};

/** A tool whose schema carries parameter descriptions and an optional parameter. */
export const updateCustomerInfo = tool({
  name: 'updateCustomerInfo',
  description: 'Update customer information',
  inputSchema: z.object({
    id: z.number().int(),
    name: z.string(),
    email: z.string().describe('Email address, RFC 5322 format').optional(),
  }),
  execute: ({ id }) => ({ id, updated: true }),
});

/** Stands in for a real model: calls the hand-written tool, then answers. */
export function scriptedToolSpecificationModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { id: 'call-1', name: 'currentWeather', arguments: { location: 'Paris', unit: 'C' } },
    ]),
    textResponse('It is 18 °C in Paris.'),
  ]);
}

/** What the run showed. */
export interface ToolSpecificationResult {
  answer: string | null;
  /** The schema of updateCustomerInfo as the model is sent it. */
  customerSchema: ToolDefinition['inputSchema'];
  /** The ToolDefinitionError messages for inputs that cannot be a tool's. */
  refused: string[];
}

export async function runToolSpecification(
  chatModel: ChatModel = scriptedToolSpecificationModel(),
  log: (line: string) => void = console.log,
): Promise<ToolSpecificationResult> {
  const answer = await ChatClient.create(chatModel)
    .prompt('What is the weather in Paris, in Celsius?')
    .tools(currentWeatherCallback, updateCustomerInfo)
    .call()
    .content();
  log(`answer: ${answer}`);
  const customerSchema = updateCustomerInfo.definition.inputSchema;
  log(`updateCustomerInfo schema: ${JSON.stringify(customerSchema)}`);

  const refused: string[] = [];
  const unsupported = {
    function: z.object({ callback: z.function() }),
    date: z.object({ when: z.date() }),
    'not an object': z.string(),
  };
  for (const [kind, inputSchema] of Object.entries(unsupported)) {
    try {
      tool({ name: 'unsupported', description: kind, inputSchema, execute: () => null });
    } catch (error) {
      if (!(error instanceof ToolDefinitionError)) throw error;
      refused.push(error.message);
      log(`${kind}: ${error.message}`);
    }
  }
  return { answer, customerSchema, refused };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runToolSpecification();
}
