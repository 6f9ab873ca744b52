// Tool Call Limits: a per-tool cap for one turn. With 'THROW' (the default) a breach ends the turn
// with one generation whose finish reason is 'toolCallLimitExceeded'; with 'RETURN_ERROR_RESPONSE'
// the model is told the limit was reached and the turn goes on.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/tool-call-limits.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import {
  ChatClient,
  type ChatModel,
  createToolCallingManager,
  ToolCallingAdvisor,
  type ToolCallLimitBehavior,
  ToolCallLimitExceededError,
  type ToolResponse,
  tool,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

/** A search tool that counts how often it really ran. */
export function createSearchTool(ran: string[]) {
  return tool({
    name: 'search',
    description: 'Search the web',
    inputSchema: z.object({ query: z.string() }),
    execute: ({ query }) => {
      ran.push(query);
      return [`Result for ${query}`];
    },
  });
}

/**
 * Stands in for a real model that asks for three searches at once (one more than allowed), then,
 * if the turn goes on, answers from what it got.
 */
export function scriptedLimitsModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([
      { name: 'search', arguments: { query: 'alpha' } },
      { name: 'search', arguments: { query: 'beta' } },
      { name: 'search', arguments: { query: 'gamma' } },
    ]),
    textResponse('I found results for alpha and beta; the search limit stopped gamma.'),
  ]);
}

/** How one turn ended under a limit behaviour. */
export interface LimitOutcome {
  text: string | null;
  finishReason: string | null | undefined;
  /** With 'THROW': the responses of the calls that ran before the breach. */
  partialToolResponses: ToolResponse[] | undefined;
  /** The queries the tool really ran. */
  ran: string[];
}

/** Runs one turn with `search` capped at two calls, under the given behaviour. */
export async function runToolCallLimits(
  onLimitExceeded: ToolCallLimitBehavior = 'THROW',
  chatModel: ChatModel = scriptedLimitsModel(),
  log: (line: string) => void = console.log,
): Promise<LimitOutcome> {
  const toolCallingManager = createToolCallingManager({
    limits: {
      maxCallsPerTool: 40, // the default for every tool
      perTool: { search: 2 }, // override for one tool
      excludedTools: ['getCurrentTime'], // no per-tool cap (still counts toward the total)
      maxTotalToolCalls: 150, // cap across all tools in the turn
      onLimitExceeded,
    },
  });
  const ran: string[] = [];
  const client = ChatClient.create(chatModel, {
    tools: [createSearchTool(ran)],
    toolCallingAdvisor: new ToolCallingAdvisor({ toolCallingManager }),
  });
  const response = await client.prompt('Research alpha, beta and gamma').call().chatResponse();
  const generation = response?.results[0];
  const outcome: LimitOutcome = {
    text: generation?.output.text ?? null,
    finishReason: generation?.metadata.finishReason,
    partialToolResponses: generation?.metadata[
      ToolCallLimitExceededError.METADATA_PARTIAL_TOOL_RESPONSES
    ] as ToolResponse[] | undefined,
    ran,
  };
  log(`${onLimitExceeded}: (${outcome.finishReason}) ${outcome.text}`);
  log(`  the tool ran for: ${ran.join(', ')}`);
  return outcome;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runToolCallLimits('THROW');
  await runToolCallLimits('RETURN_ERROR_RESPONSE');
}
