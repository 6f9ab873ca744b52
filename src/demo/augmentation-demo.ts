import { z } from 'zod';
import { AugmentedToolCallbackProvider, ChatClient, type ChatModel } from '../index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { WeatherTools } from './weather-and-status-tools.js';

/** What the augmentation scenario showed. */
export interface AugmentationDemoResult {
  /** The properties of the schema the model was offered: the tool's own and the added ones. */
  offeredProperties: string[];
  /** `tool (confidence): reasoning`, one per call. */
  thoughts: string[];
  answer: string | null;
}

/** The scripted model: calls the weather tool with its reasoning and confidence, then answers. */
export function augmentationDemoScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      {
        id: 'call-boston',
        name: 'current_weather',
        arguments: {
          city: 'Boston',
          innerThought: 'The user asks about Boston, so I need its current weather',
          confidence: 'high',
        },
      },
    ]),
    textResponse('It is 14.5 °C and overcast in Boston.'),
  ]);
}

/**
 * Tool argument augmentation: the weather tool's schema gains `innerThought` and `confidence`,
 * the model fills them in, a consumer logs them, and the tool still receives only `city`.
 */
export async function runAugmentationDemo(
  model: ChatModel = augmentationDemoScript(),
  log: (line: string) => void = console.log,
): Promise<AugmentationDemoResult> {
  const thoughts: string[] = [];
  const tools = new AugmentedToolCallbackProvider({
    tools: new WeatherTools(),
    argumentSchema: z.object({
      innerThought: z.string().describe('Your reasoning for calling this tool'),
      confidence: z.enum(['low', 'medium', 'high']).optional().describe('Confidence level'),
    }),
    argumentConsumer: ({ toolDefinition, arguments: added }) => {
      thoughts.push(
        `${toolDefinition.name} (${added.confidence ?? 'unstated'}): ${added.innerThought}`,
      );
    },
  });
  const offered = await tools.getToolCallbacks();
  const offeredProperties = Object.keys(offered[0]?.definition.inputSchema.properties ?? {});
  log(`offered schema properties: ${offeredProperties.join(', ')}`);
  const answer = await ChatClient.create(model, { tools: [tools] })
    .prompt("What's the weather in Boston?")
    .call()
    .content();
  for (const thought of thoughts) log(`thought: ${thought}`);
  log(`answer: ${answer ?? '(no text)'}`);
  log('');
  return { offeredProperties, thoughts, answer };
}
