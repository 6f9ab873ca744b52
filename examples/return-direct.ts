// Return Direct: a tool whose result is the answer. The loop returns it to the caller without a
// second model call. In a batch that also calls an ordinary tool, the results go back to the model.
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/return-direct.js
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ChatClient, type ChatModel, tool } from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';

const PASSAGES = [
  'Per-call tools are added to the default tools.',
  'returnDirect hands the tool result to the caller.',
  'Tool call limits are counted per turn.',
];

/** A retrieval tool: its passages are the answer, so the model need not rephrase them. */
export const searchDocs = tool({
  name: 'searchDocs',
  description: 'Search the documentation and return the matching passages',
  inputSchema: z.object({ query: z.string() }),
  returnDirect: true,
  execute: ({ query }) =>
    PASSAGES.filter((passage) => passage.toLowerCase().includes(query.toLowerCase())),
});

/** An ordinary tool, whose result goes back to the model. */
export const countPassages = tool({
  name: 'countPassages',
  description: 'Count the passages in the documentation',
  execute: () => PASSAGES.length,
});

/** Stands in for a real model: one request uses `searchDocs` alone, the next mixes both tools. */
export function scriptedReturnDirectModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'searchDocs', arguments: { query: 'returnDirect' } }]),
    toolCallResponse([
      { name: 'searchDocs', arguments: { query: 'limits' } },
      { name: 'countPassages' },
    ]),
    textResponse('One of the 3 passages is about limits: they are counted per turn.'),
  ]);
}

/** The answer of one request and how it ended. */
export interface ReturnDirectAnswer {
  answer: string | null;
  finishReason: string | null | undefined;
}

/** What the two requests showed. */
export interface ReturnDirectResult {
  /** Only `searchDocs` was called: its JSON result is the answer. */
  direct: ReturnDirectAnswer;
  /** `searchDocs` and `countPassages` in one batch: the model answered. */
  mixed: ReturnDirectAnswer;
}

/** Runs both cases against one client. */
export async function runReturnDirect(
  chatModel: ChatModel = scriptedReturnDirectModel(),
  log: (line: string) => void = console.log,
): Promise<ReturnDirectResult> {
  const client = ChatClient.create(chatModel, { tools: [searchDocs, countPassages] });

  const ask = async (question: string): Promise<ReturnDirectAnswer> => {
    const response = await client.prompt(question).call().chatResponse();
    const generation = response?.results[0];
    return {
      answer: generation?.output.text ?? null,
      finishReason: generation?.metadata.finishReason,
    };
  };

  const direct = await ask('What does returnDirect do?');
  log(`direct (${direct.finishReason}): ${direct.answer}`);
  const mixed = await ask('How many passages are there, and what do they say about limits?');
  log(`mixed (${mixed.finishReason}): ${mixed.answer}`);
  return { direct, mixed };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runReturnDirect();
}
