// Quick Start: a class with two @tool methods, passed to ChatClient with .tools(). The model calls
// getCurrentDateTime, then setAlarm with the computed time; the loop handles both round trips.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/quick-start.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ChatClient, type ChatModel, type ToolResponseMessage, tool } from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** The article's `DateTimeTools`; alarms are kept in a list instead of a real alarm clock. */
export class DateTimeTools {
  /** Every alarm set, in order. */
  readonly alarms: Date[] = [];

  @tool({ description: "Get the current date and time in the user's timezone" })
  getCurrentDateTime() {
    return new Date().toISOString();
  }

  @tool({
    description: 'Set a user alarm for the given time, provided in ISO-8601 format',
    inputSchema: z.object({ time: z.string().describe('An ISO-8601 date-time') }),
  })
  setAlarm({ time }: { time: string }) {
    const alarmTime = new Date(time);
    if (Number.isNaN(alarmTime.getTime())) throw new Error(`Not an ISO-8601 date-time: ${time}`);
    this.alarms.push(alarmTime);
  }
}

/**
 * Stands in for a real model: it asks for the current time, then sets an alarm ten minutes
 * after the time the tool returned, then answers.
 */
export function scriptedQuickStartModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'getCurrentDateTime' }]),
    (prompt) => {
      const result = prompt.messages.at(-1) as ToolResponseMessage;
      const now = new Date(JSON.parse(result.responses[0]?.responseData ?? '""') as string);
      const alarm = new Date(now.getTime() + 10 * 60_000).toISOString();
      return toolCallResponse([{ name: 'setAlarm', arguments: { time: alarm } }]);
    },
    (prompt) => {
      const call = prompt.messages.findLast((message) => message.role === 'assistant')
        ?.toolCalls[0];
      const { time } = JSON.parse(call?.arguments ?? '{}') as { time: string };
      return textResponse(`Your alarm is set for ${time}.`);
    },
  ]);
}

/** What the quick start showed. */
export interface QuickStartResult {
  answer: string | null;
  /** The alarms the tool set. */
  alarms: Date[];
}

/** Asks for an alarm ten minutes from now, with the `DateTimeTools` attached to the call. */
export async function runQuickStart(
  chatModel: ChatModel = scriptedQuickStartModel(),
  log: (line: string) => void = console.log,
): Promise<QuickStartResult> {
  const dateTimeTools = new DateTimeTools();
  const answer = await ChatClient.create(chatModel)
    .prompt('Can you set an alarm 10 minutes from now?')
    .tools(dateTimeTools)
    .call()
    .content();
  for (const alarm of dateTimeTools.alarms) log(`Alarm set for ${alarm.toISOString()}`);
  log(`answer: ${answer}`);
  return { answer, alarms: dateTimeTools.alarms };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runQuickStart();
}
