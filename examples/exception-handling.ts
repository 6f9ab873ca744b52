// Exception Handling: a tool error goes back to the model as text by default, so it can recover;
// throwExceptionOnError makes the request fail instead; arguments that fail the schema are never
// passed to the tool, and the model is told what was wrong.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/exception-handling.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  ChatClient,
  type ChatModel,
  createToolCallingManager,
  ToolCallingAdvisor,
  ToolExecutionError,
  tool,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** A weather tool whose upstream service is down for Atlantis. */
export class WeatherTools {
  /** The cities the tool actually ran for. */
  readonly calls: string[] = [];

  @tool({
    description: 'Current temperature of a city',
    inputSchema: z.object({ city: z.string() }),
  })
  weather({ city }: { city: string }) {
    this.calls.push(city);
    if (city === 'Atlantis') throw new Error('Weather service unavailable for Atlantis');
    return { city, temperatureCelsius: 21 };
  }
}

/**
 * Stands in for a real model, over three requests: it calls the failing city and apologises; it
 * calls it again (the request fails this time); it sends a number as the city, reads the
 * validation error and calls again correctly.
 */
export function scriptedExceptionHandlingModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'weather', arguments: { city: 'Atlantis' } }]),
    textResponse('Sorry, the weather service is unavailable for Atlantis.'),
    toolCallResponse([{ name: 'weather', arguments: { city: 'Atlantis' } }]),
    toolCallResponse([{ name: 'weather', arguments: { city: 42 } }]),
    toolCallResponse([{ name: 'weather', arguments: { city: 'Paris' } }]),
    textResponse('It is 21 °C in Paris.'),
  ]);
}

/** What the three requests showed. */
export interface ExceptionHandlingResult {
  /** Default: the model saw the error text and answered. */
  recoveredAnswer: string | null;
  /** `throwExceptionOnError: true`: the error the request failed with. */
  thrown: ToolExecutionError | undefined;
  /** Invalid arguments, corrected by the model. */
  correctedAnswer: string | null;
  /** The cities the tool ran for (never the invalid `42`). */
  toolRanFor: string[];
}

/** Runs the three cases against the same model. */
export async function runExceptionHandling(
  chatModel: ChatModel = scriptedExceptionHandlingModel(),
  log: (line: string) => void = console.log,
): Promise<ExceptionHandlingResult> {
  const weatherTools = new WeatherTools();
  // 1. Default: the error's message is the tool result the model receives.
  const client = ChatClient.create(chatModel, { tools: [weatherTools] });
  const recoveredAnswer = await client.prompt('Weather in Atlantis?').call().content();
  log(`recovered: ${recoveredAnswer}`);

  // 2. throwExceptionOnError: the request fails with a ToolExecutionError.
  const strictClient = ChatClient.create(chatModel, {
    tools: [weatherTools],
    toolCallingAdvisor: new ToolCallingAdvisor({
      toolCallingManager: createToolCallingManager({ throwExceptionOnError: true }),
    }),
  });
  let thrown: ToolExecutionError | undefined;
  try {
    await strictClient.prompt('Weather in Atlantis?').call().content();
  } catch (error) {
    if (!(error instanceof ToolExecutionError)) throw error;
    thrown = error;
    log(`thrown: ${error.name} from tool '${error.toolName}': ${error.message}`);
  }

  // 3. Invalid arguments: validated before execute, answered with the problems, never run.
  const correctedAnswer = await client.prompt('Weather in Paris?').call().content();
  log(`corrected: ${correctedAnswer}`);
  return { recoveredAnswer, thrown, correctedAnswer, toolRanFor: weatherTools.calls };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runExceptionHandling();
}
