// Tool argument augmentation: every weather call also carries the model's reasoning and confidence.
// The consumer logs them; the weather tool itself receives only `city`, exactly as before.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/tool-argument-augmentation.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { AugmentedToolCallbackProvider, ChatClient, type ChatModel } from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';
import { WeatherTools } from './weather-tools.js';

/** The extra fields the model fills in on every tool call. */
export const AgentThinking = z.object({
  innerThought: z.string().describe('Your reasoning for calling this tool'),
  confidence: z.enum(['low', 'medium', 'high']).optional().describe('Confidence level'),
});

/** Stands in for a real model: it calls the weather tool with its reasoning, then answers. */
export function scriptedAugmentationModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      {
        id: 'call-1',
        name: 'current_weather',
        arguments: {
          city: 'Amsterdam',
          innerThought: 'The user asks about Amsterdam, so I need its current weather',
          confidence: 'high',
        },
      },
    ]),
    textResponse('It is raining in Amsterdam, 11 °C.'),
  ]);
}

/** What the run showed. */
export interface AugmentationResult {
  answer: string | null;
  /** One line per tool call: the tool's name and the model's reasoning. */
  thoughts: string[];
  /** The property names of the schema the model was offered. */
  offeredProperties: string[];
}

/** Asks about the weather with augmented tools and reports what the consumer received. */
export async function runToolArgumentAugmentation(
  chatModel: ChatModel = scriptedAugmentationModel(),
  log: (line: string) => void = console.log,
): Promise<AugmentationResult> {
  const thoughts: string[] = [];
  const tools = new AugmentedToolCallbackProvider({
    tools: new WeatherTools(),
    argumentSchema: AgentThinking,
    argumentConsumer: ({ toolDefinition, arguments: thinking }) => {
      thoughts.push(
        `${toolDefinition.name} (${thinking.confidence ?? 'unstated'}): ${thinking.innerThought}`,
      );
    },
  });
  const offered = await tools.getToolCallbacks();
  const offeredProperties = Object.keys(offered[0]?.definition.inputSchema.properties ?? {});
  log(`offered schema properties: ${offeredProperties.join(', ')}`);

  const client = ChatClient.create(chatModel, { tools: [tools] });
  const answer = await client.prompt('What is the weather in Amsterdam?').call().content();
  for (const thought of thoughts) log(`thought: ${thought}`);
  log(`answer: ${answer}`);
  return { answer, thoughts, offeredProperties };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runToolArgumentAugmentation();
}
