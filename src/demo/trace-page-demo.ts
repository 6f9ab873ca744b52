import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ChatClient, type ChatModel, tool } from '../index.js';
import type { TurnEvent } from '../observability/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import { renderTracePage, TurnEventRecorder } from '../trace/index.js';
import { WeatherTools } from './weather-and-status-tools.js';

/** A forecast service that is down: its calls end with an error result the model reads. */
const forecast = tool({
  name: 'weekly_forecast',
  description: 'Get the forecast of the coming week for a named city.',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }): Promise<string> => {
    await new Promise((done) => setTimeout(done, 15));
    throw new Error(`forecast service unavailable for ${city}`);
  },
});

/** The demo conversation's script: two cities in one round, then a failing forecast tool. */
export function traceDemoScript(): ScriptedChatModel {
  const usage = (promptTokens: number, completionTokens: number) => ({
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
  });
  return new ScriptedChatModel([
    toolCallResponse(
      [
        { id: 'call-boston', name: 'current_weather', arguments: { city: 'Boston' } },
        { id: 'call-paris', name: 'current_weather', arguments: { city: 'Paris' } },
      ],
      { usage: usage(182, 41) },
    ),
    textResponse('Boston: 14.5C and overcast. I have no data for Paris.', {
      usage: usage(260, 18),
    }),
    toolCallResponse(
      [{ id: 'call-forecast', name: 'weekly_forecast', arguments: { city: 'Boston' } }],
      {
        usage: usage(301, 22),
      },
    ),
    textResponse('The forecast service is down right now; please try again later.', {
      usage: usage(350, 15),
    }),
  ]);
}

/**
 * Runs the demo conversation (a call turn with two parallel tool calls, then a streamed turn
 * whose tool fails) and returns its recorded turn events, content included.
 */
export async function recordDemoTurns(model: ChatModel = traceDemoScript()): Promise<TurnEvent[]> {
  const recorder = new TurnEventRecorder({ recordContent: true });
  const client = ChatClient.create(model, {
    tools: [new WeatherTools(), forecast],
    listeners: [recorder.listener],
  });
  await client.prompt("What's the weather in Boston and in Paris?").call().content();
  for await (const _delta of client
    .prompt("And next week's forecast for Boston?")
    .stream()
    .content());
  return [...recorder.events];
}

/**
 * `npm start`: writes the trace page of the demo turns and prints its path. Default directory: a
 * new folder in the system's temporary directory (`toolloop-demo-…`), so that the demo writes
 * nothing into the project it is run from.
 */
export async function runTracePageDemo(
  model?: ChatModel,
  log: (line: string) => void = console.log,
  directory?: string,
): Promise<string> {
  const events = await recordDemoTurns(model);
  if (directory === undefined) directory = mkdtempSync(join(tmpdir(), 'toolloop-demo-'));
  else mkdirSync(directory, { recursive: true });
  const file = join(directory, 'demo-turns.html');
  writeFileSync(
    file,
    renderTracePage(events, { title: 'toolloop demo turns', includeContent: true }),
  );
  log(`${events.length} events recorded; open the trace page: ${pathToFileURL(file).href}`);
  log('');
  return file;
}
