import { describe, expect, it } from 'vitest';
import { ChatClient } from '../client/index.js';
import { CONVERSATION_ID } from '../memory/index.js';
import type { Prompt } from '../model/index.js';
import { ScriptedChatModel, textResponse, toolCallResponse } from '../testing/index.js';
import type { ToolCallback } from '../tools/tool-callback.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { RegexToolIndex } from './regex-tool-index.js';
import { generateToolLibrary, TOOL_LIBRARY_DOMAINS } from './testing/generate-tool-library.js';
import type { ToolIndex } from './tool-index.js';
import { toolSearchTool } from './tool-search-tool.js';
import { ToolSearchToolCallingAdvisor } from './tool-search-tool-calling-advisor.js';

/** Characters of name + description + input schema (JSON text), as the seed article measures. */
const footprint = (tools: readonly ToolCallback[]) =>
  tools.reduce(
    (sum, { definition }) =>
      sum +
      definition.name.length +
      definition.description.length +
      JSON.stringify(definition.inputSchema).length,
    0,
  );

const offered = (prompt: Prompt | undefined) =>
  (prompt?.options.toolCallbacks ?? []).map((callback) => callback.definition.name);

describe('the seed article experiment: 230 tools behind one search tool', () => {
  const library = generateToolLibrary();

  it('generates 230 tools across six domains, deterministically', () => {
    expect(library).toHaveLength(230);
    const perDomain = Object.fromEntries(
      TOOL_LIBRARY_DOMAINS.map((domain) => [
        domain.name,
        library.filter((tool) => tool.metadata.category === domain.name).length,
      ]),
    );
    expect(perDomain).toEqual({
      crm: 40,
      devops: 38,
      finance: 40,
      hr: 36,
      logistics: 40,
      security: 36,
    });
    expect(new Set(library.map((tool) => tool.definition.name)).size).toBe(230);
    expect(library.map((t) => t.definition.name)).toEqual(
      generateToolLibrary().map((t) => t.definition.name),
    );
    expect(library.map((t) => t.definition.name)).toEqual(
      expect.arrayContaining([
        'finance_lookup_invoice',
        'hr_lookup_pto_balance',
        'crm_lookup_support_ticket',
      ]),
    );
  });

  // Measured: 83,765 vs 924 characters, a 98.9% cut (the search tool also takes `queries` and says
  // how to use them). The reference reports 69,958 vs 463 (99.3%),
  // but its 463 cannot include the search tool's schema (the description alone is 396 characters,
  // spec §20); with the full schema counted, the cut passes 99% only above ~93,000 characters.
  it('cuts the first call tool-definition footprint by about 99%', () => {
    const all = footprint(library);
    const searchOnly = footprint([toolSearchTool({ toolIndex: new RegexToolIndex() })]);
    const cut = 1 - searchOnly / all;
    console.log(
      `230 tools: ${all} characters of name + description + schema; toolSearchTool only: ${searchOnly}; cut ${(cut * 100).toFixed(1)}%`,
    );
    expect(searchOnly).toBeLessThan(1100);
    expect(all).toBeGreaterThan(60_000);
    expect(cut).toBeGreaterThan(0.985);
  });

  const cases: { name: string; index: () => ToolIndex }[] = [
    { name: 'RegexToolIndex', index: () => new RegexToolIndex() },
    { name: 'LexicalToolIndex', index: () => new LexicalToolIndex() },
  ];

  describe.each(cases)('with $name', ({ index }) => {
    it.each(['call', 'stream'] as const)(
      'offers one tool on call 1, the search tool plus the found ones on call 2 (%s)',
      async (mode) => {
        const model = new ScriptedChatModel([
          toolCallResponse([
            { id: 's1', name: 'toolSearchTool', arguments: { query: 'look up an invoice' } },
          ]),
          toolCallResponse([
            { id: 'i1', name: 'finance_lookup_invoice', arguments: { invoice_id: 'INV-1001' } },
          ]),
          (prompt) => {
            const last = prompt.messages.at(-1);
            const record =
              last?.role === 'tool' ? JSON.parse(last.responses[0]?.responseData ?? '{}') : {};
            return textResponse(
              `Invoice ${record.invoice_id} was ${record.status} in the ${record.system}.`,
            );
          },
        ]);
        const client = ChatClient.create(model, {
          tools: library,
          toolCallingAdvisor: new ToolSearchToolCallingAdvisor({
            toolIndex: index(),
            maxResults: 5,
          }),
        });
        const spec = client
          .prompt('Can you look up invoice INV-1001 for me?')
          .advisors((a) => a.param(CONVERSATION_ID, 'article-session'));
        let answer = '';
        if (mode === 'call') answer = (await spec.call().content()) ?? '';
        else for await (const text of spec.stream().content()) answer += text;

        expect(offered(model.prompts[0])).toEqual(['toolSearchTool']);
        const second = offered(model.prompts[1]);
        expect(second[0]).toBe('toolSearchTool');
        expect(second).toHaveLength(6);
        expect(second).toContain('finance_lookup_invoice');
        expect(offered(model.prompts[2])).toEqual(second);
        expect(answer).toBe('Invoice INV-1001 was found in the finance system.');
        console.log(`${mode}: call 2 offered [${second.join(', ')}]`);
      },
    );
  });

  it('the default index ranks the invoice tool first for "look up an invoice"', async () => {
    const index = new LexicalToolIndex();
    const advisor = new ToolSearchToolCallingAdvisor({ toolIndex: index, maxResults: 5 });
    const model = new ScriptedChatModel([textResponse('ok')]);
    await ChatClient.create(model, { tools: library, toolCallingAdvisor: advisor })
      .prompt('q')
      .advisors((a) => a.param(CONVERSATION_ID, 'rank'))
      .call()
      .content();
    const found = index.search({ sessionId: 'rank', query: 'look up an invoice', maxResults: 5 });
    expect(found.toolReferences[0]?.toolName).toBe('finance_lookup_invoice');
  });
});
