// Tool search in your users' words: the default index, LexicalToolIndex, is plain field-weighted
// BM25 and ships no word list; a QueryExpansion of your own adds the words your users type for
// your tools' words (jargon, abbreviations, another team's names).
// Run: npx tsc -p tsconfig.demo.json && node dist-demo/examples/tool-search-jargon.js
import { pathToFileURL } from 'node:url';
import {
  ChatClient,
  type ChatModel,
  CONVERSATION_ID,
  LexicalToolIndex,
  type QueryExpansion,
  type QueryExpansionContext,
  ToolSearchToolCallingAdvisor,
  type WeightedWord,
} from '../src/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../src/testing/index.js';
import { type ToolSearchResult, toolLibrary } from './tool-search.js';

/** Each term of your catalogue's jargon, and the words of your tools' descriptions it means. */
export const HR_JARGON: Readonly<Record<string, readonly string[]>> = {
  pto: ['paid leave', 'vacation'],
  headcount: ['open positions'],
  pw: ['password'],
};

/**
 * A query expansion from a jargon table: a query word found in the table also searches for what it
 * means, at 0.8 of the word's own weight.
 */
export function jargonExpansion(
  jargon: Readonly<Record<string, readonly string[]>>,
): QueryExpansion {
  return {
    expand(word: string, context: QueryExpansionContext): WeightedWord[] {
      // A word most tools already use finds them itself: what it means would only add noise.
      if (context.toolsWith(word) > context.toolCount / 2) return [];
      return (jargon[word] ?? []).map((meaning) => ({ word: meaning, weight: 0.8 }));
    },
  };
}

/** Stands in for a real model: searches in its user's words, calls what it found, answers. */
export function scriptedJargonModel(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'toolSearchTool', arguments: { query: 'how much PTO for Ana' } }]),
    toolCallResponse([{ name: 'hr_vacation_balance', arguments: { id: 'ana' } }]),
    textResponse('Ana has 12 days of paid leave left.'),
  ]);
}

export async function runToolSearchJargon(
  chatModel: ChatModel = scriptedJargonModel(),
  toolIndex = new LexicalToolIndex({ queryExpansion: jargonExpansion(HR_JARGON) }),
  log: (line: string) => void = console.log,
): Promise<ToolSearchResult> {
  const offered: string[][] = [];
  const recording: ChatModel = {
    call: (prompt, options) => {
      offered.push((prompt.options.toolCallbacks ?? []).map((t) => t.definition.name));
      return chatModel.call(prompt, options);
    },
  };
  const client = ChatClient.create(recording, {
    tools: toolLibrary(),
    toolCallingAdvisor: new ToolSearchToolCallingAdvisor({ toolIndex, maxResults: 3 }),
  });
  const answer = await client
    .prompt('How much PTO does Ana have?')
    .advisors((a) => a.param(CONVERSATION_ID, 'hr-desk'))
    .call()
    .content();
  for (const [call, names] of offered.entries()) {
    log(`call ${call + 1} offered: ${names.join(', ')}`);
  }
  log(`answer: ${answer}`);
  return { answer, offered };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runToolSearchJargon();
}
