import {
  Bm25ToolIndex,
  ChatClient,
  type ChatModel,
  type Prompt,
  RegexToolIndex,
  type ToolCallback,
  ToolSearchToolCallingAdvisor,
  toolSearchTool,
} from '../index.js';
import { CONVERSATION_ID } from '../memory/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import {
  generateToolLibrary,
  TOOL_LIBRARY_DOMAINS,
} from '../tool-search/testing/generate-tool-library.js';
import { RecordingChatModel } from './recording-chat-model.js';

/** What the tool-search scenario showed. */
export interface ToolSearchDemoResult {
  totalTools: number;
  allToolsCharacters: number;
  searchToolCharacters: number;
  offeredOnCall1: string[];
  offeredOnCall2: string[];
  content: string | null;
}

/** Characters of name + description + input schema (JSON text), as the article measures them. */
function footprint(tools: readonly ToolCallback[]): number {
  return tools.reduce(
    (sum, { definition }) =>
      sum +
      definition.name.length +
      definition.description.length +
      JSON.stringify(definition.inputSchema).length,
    0,
  );
}

/** The article's script: search, call the invoice tool, answer from its result. */
export function toolSearchScript(): ScriptedChatModel {
  return new ScriptedChatModel([
    toolCallResponse([{ name: 'toolSearchTool', arguments: { query: 'look up an invoice' } }]),
    toolCallResponse([{ name: 'finance_lookup_invoice', arguments: { invoice_id: 'INV-1001' } }]),
    (prompt) => {
      const last = prompt.messages.at(-1);
      const data = last?.role === 'tool' ? (last.responses[0]?.responseData ?? '{}') : '{}';
      const record = JSON.parse(data) as { invoice_id?: string; status?: string; system?: string };
      return textResponse(
        `Invoice ${record.invoice_id} was ${record.status} in the ${record.system}.`,
      );
    },
  ]);
}

const offered = (prompt: Prompt | undefined) =>
  (prompt?.options.toolCallbacks ?? []).map((callback) => callback.definition.name);

/**
 * "A 230-tool library": registering every tool puts all definitions in front of the model on every
 * call; the ToolSearchToolCallingAdvisor offers one search tool first, then only what was found.
 */
export async function runToolSearchDemo(
  model: ChatModel = toolSearchScript(),
  log: (line: string) => void = console.log,
): Promise<ToolSearchDemoResult> {
  const library = generateToolLibrary();
  log(`total tools: ${library.length}`);
  for (const domain of TOOL_LIBRARY_DOMAINS) {
    const count = library.filter((tool) => tool.metadata.category === domain.name).length;
    log(`  ${domain.name} ${count} tools`);
  }
  const allToolsCharacters = footprint(library);
  const searchToolCharacters = footprint([toolSearchTool({ toolIndex: new RegexToolIndex() })]);
  log(
    `total characters of name + description + input schema, ALL ${library.length} tools: ${allToolsCharacters}`,
  );
  log(
    `characters of name + description + input schema, toolSearchTool ONLY: ${searchToolCharacters}`,
  );
  log(
    `first-call tool-definition footprint cut: ${((1 - searchToolCharacters / allToolsCharacters) * 100).toFixed(1)}%`,
  );

  const recorder = new RecordingChatModel(model);
  const client = ChatClient.create(recorder, {
    tools: library,
    toolCallingAdvisor: new ToolSearchToolCallingAdvisor({
      toolIndex: new RegexToolIndex(),
      maxResults: 5,
    }),
  });
  const content = await client
    .prompt('Can you look up invoice INV-1001 for me?')
    .advisors((a) => a.param(CONVERSATION_ID, 'tool-search-demo'))
    .call()
    .content();

  const offeredOnCall1 = offered(recorder.prompts[0]);
  const offeredOnCall2 = offered(recorder.prompts[1]);
  log(`tools registered on the ChatClient: ${library.length}`);
  log(`tools OFFERED to the model on call 1: ${offeredOnCall1.length}`);
  log(`[${offeredOnCall1.join(', ')}]`);
  log(
    `tools OFFERED to the model on call 2 (after it searched for "look up an invoice"): ${offeredOnCall2.length}`,
  );
  log(`[${offeredOnCall2.join(', ')}]`);
  log(`final answer: ${content ?? '(no text)'}`);

  const bm25 = new Bm25ToolIndex();
  bm25.indexTools(
    'compare',
    library.map((tool) => ({
      toolName: tool.definition.name,
      summary: tool.definition.description,
      inputSchema: tool.definition.inputSchema,
    })),
  );
  const ranked = bm25
    .search({ sessionId: 'compare', query: 'look up an invoice', maxResults: 5 })
    .toolReferences.map((reference) => reference.toolName);
  log(`the same search with Bm25ToolIndex (rare words weigh more): [${ranked.join(', ')}]`);
  log('');
  return {
    totalTools: library.length,
    allToolsCharacters,
    searchToolCharacters,
    offeredOnCall1,
    offeredOnCall2,
    content,
  };
}
