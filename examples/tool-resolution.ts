// Tool Resolution: a ToolCallbackResolver looks tools up by name. Only with the resolution
// fallback on may the model run a tool the resolver knows but the request did not attach; off (the
// default), such a call is answered with an error that lists the attached tools.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/tool-resolution.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  ChatClient,
  type ChatModel,
  createToolCallingManager,
  staticToolCallbackResolver,
  ToolCallingAdvisor,
  type ToolResponseMessage,
  tool,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** A tool the request attaches. */
export const currentTime = tool({
  name: 'currentTime',
  description: 'The current time, ISO-8601',
  execute: () => new Date().toISOString(),
});

/** What one request showed. */
export interface ResolutionRun {
  answer: string | null;
  /** Order ids `lookupOrder` ran for. */
  lookups: string[];
}

/** Stands in for a real model: it calls `lookupOrder`, then answers from the result it got. */
export function scriptedResolutionModel(): ScriptedChatModel {
  const answer = (prompt: { messages: readonly unknown[] }) => {
    const result = (prompt.messages.at(-1) as ToolResponseMessage).responses[0];
    return textResponse(
      result?.isError
        ? `I could not look the order up: ${result.responseData}`
        : `Order: ${result?.responseData}`,
    );
  };
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'lookupOrder', arguments: { orderId: 'A-1' } }]),
    answer,
    toolCallResponse([{ name: 'lookupOrder', arguments: { orderId: 'A-1' } }]),
    answer,
  ]);
}

/** Runs the same question with the fallback off, then on. */
export async function runToolResolution(
  chatModel: ChatModel = scriptedResolutionModel(),
  log: (line: string) => void = console.log,
): Promise<{ fallbackOff: ResolutionRun; fallbackOn: ResolutionRun }> {
  const lookups: string[] = [];
  const lookupOrder = tool({
    name: 'lookupOrder',
    description: 'Look an order up by id',
    inputSchema: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      lookups.push(orderId);
      return { orderId, status: 'shipped' };
    },
  });
  // Knows tools by name, e.g. every tool the application defines.
  const toolCallbackResolver = staticToolCallbackResolver([lookupOrder, currentTime]);

  const ask = async (resolutionFallbackEnabled: boolean): Promise<ResolutionRun> => {
    const toolCallingManager = createToolCallingManager({
      toolCallbackResolver,
      resolutionFallbackEnabled,
    });
    const client = ChatClient.create(chatModel, {
      toolCallingAdvisor: new ToolCallingAdvisor({ toolCallingManager }),
    });
    const before = lookups.length;
    const answer = await client.prompt('Where is order A-1?').tools(currentTime).call().content();
    log(`fallback ${resolutionFallbackEnabled ? 'on' : 'off'}: ${answer}`);
    return { answer, lookups: lookups.slice(before) };
  };

  const fallbackOff = await ask(false);
  const fallbackOn = await ask(true);
  return { fallbackOff, fallbackOn };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runToolResolution();
}
