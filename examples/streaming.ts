// Streaming: .stream().content() yields the text deltas of every model round as they arrive;
// the tool round runs between the model's streams, inside the same iteration.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/streaming.js
import { pathToFileURL } from 'node:url';
import { ChatClient, type ChatModel, type ToolResponseMessage } from '../src/index.js';
import {
  ScriptedChatModel,
  streamedResponse,
  textResponse,
  toolCallResponse,
} from '../src/testing/index.js';
import { currentWeather } from './defining-tools.js';

/**
 * Stands in for a real streaming model: round 1 streams a sentence and asks for the weather,
 * round 2 streams the answer built from the tool result.
 */
export function scriptedStreamingModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    streamedResponse(
      toolCallResponse([{ name: 'currentWeather', arguments: { location: 'Copenhagen' } }], {
        text: 'Let me check the weather. ',
      }),
      { textChunks: 2 },
    ),
    (prompt) => {
      const result = prompt.messages.at(-1) as ToolResponseMessage;
      const { temperature } = JSON.parse(result.responses[0]?.responseData ?? '{}') as {
        temperature: number;
      };
      return streamedResponse(textResponse(`It is ${temperature} °C in Copenhagen.`), {
        textChunks: 4,
      });
    },
  ]);
}

/** Prints each delta as it arrives and returns them all. */
export async function runStreaming(
  chatModel: ChatModel = scriptedStreamingModel(),
  write: (delta: string) => void = (delta) => process.stdout.write(delta),
): Promise<string[]> {
  const client = ChatClient.create(chatModel, { tools: [currentWeather] });
  const deltas: string[] = [];
  for await (const delta of client.prompt("What's the weather in Copenhagen?").stream().content()) {
    write(delta);
    deltas.push(delta);
  }
  return deltas;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runStreaming();
  process.stdout.write('\n');
}
