// Structured output: .entity(schema) asks for JSON matching a Zod schema, after any tool rounds,
// and returns the validated, typed value. A wrong answer is sent back with its problems.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/structured-output.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ChatClient, type ChatModel, type ToolResponseMessage } from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';
import { currentWeather } from './defining-tools.js';

/** The answer's shape. */
export const WeatherReport = z.object({
  location: z.string(),
  temperatureCelsius: z.number(),
  advice: z.string(),
});

/** The typed value `.entity(WeatherReport)` resolves to. */
export type WeatherReport = z.infer<typeof WeatherReport>;

/**
 * Stands in for a real model: it calls the weather tool, first answers with a wrong field type,
 * then, told what was wrong, with a valid JSON object built from the tool result.
 */
export function scriptedStructuredOutputModel(): ScriptedChatModel {
  let temperature = 0;
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'currentWeather', arguments: { location: 'Copenhagen' } }]),
    (prompt) => {
      const result = prompt.messages.at(-1) as ToolResponseMessage;
      temperature = (
        JSON.parse(result.responses[0]?.responseData ?? '{}') as { temperature: number }
      ).temperature;
      return textResponse(
        `{"location":"Copenhagen","temperatureCelsius":"${temperature} degrees","advice":"Bring a jacket"}`,
      );
    },
    () =>
      textResponse(
        `{"location":"Copenhagen","temperatureCelsius":${temperature},"advice":"Bring a jacket"}`,
      ),
  ]);
}

/** Asks for a weather report as a typed object. */
export async function runStructuredOutput(
  chatModel: ChatModel = scriptedStructuredOutputModel(),
  log: (line: string) => void = console.log,
): Promise<WeatherReport> {
  const report = await ChatClient.create(chatModel)
    .prompt('Give me a weather report for Copenhagen')
    .tools(currentWeather)
    .call()
    .entity(WeatherReport);
  log(`${report.location}: ${report.temperatureCelsius} °C. ${report.advice}.`);
  return report;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runStructuredOutput();
}
