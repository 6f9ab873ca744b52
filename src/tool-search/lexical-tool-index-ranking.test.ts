import { describe, expect, it } from 'vitest';
import { LexicalToolIndex } from './lexical-tool-index.js';
import type { QueryExpansion } from './query-expansion.js';
import { generateToolSpecs } from './testing/generate-tool-library.js';
import { pickWith, seededRandom } from './testing/seeded-random.js';
import type { ToolReference, ToolSearchRequest } from './tool-reference.js';

/** A query expansion of a few words, so the churned index also runs its expansion path. */
const expansion: QueryExpansion = {
  expand: (word) =>
    ({
      bill: [{ word: 'invoice', weight: 0.6 }],
      holiday: [{ word: 'pto', weight: 0.8 }],
      server: [
        { word: 'service', weight: 0.5 },
        { word: 'cluster', weight: 0.3 },
      ],
    })[word] ?? [],
};

/** 400 tools: the generated library's 230 and 170 more whose descriptions mix two of them. */
function catalogue(next: () => number): ToolReference[] {
  const specs = generateToolSpecs();
  const tools: ToolReference[] = specs.map((spec) => ({
    toolName: spec.name,
    summary: spec.description,
    inputSchema: spec.inputSchema,
    category: spec.domain,
  }));
  for (let i = 0; i < 170; i++) {
    const a = pickWith(next, specs);
    const b = pickWith(next, specs);
    tools.push({
      toolName: `${a.name}_with_${b.name}`,
      summary: `${a.description} Also: ${b.description.split(' ').slice(0, 6).join(' ')}`,
      inputSchema: b.inputSchema,
      category: a.domain,
    });
  }
  return tools;
}

/** Requests made of words of the tools' descriptions, sometimes with a word none of them uses. */
function requests(next: () => number, tools: readonly ToolReference[]): string[] {
  const extra = ['please', 'bill', 'holiday', 'tonight', 'quickly', 'server', 'for the team'];
  return Array.from({ length: 150 }, () => {
    const words = pickWith(next, tools).summary.split(' ');
    const start = Math.floor(next() * words.length);
    const taken = words.slice(start, start + 2 + Math.floor(next() * 4)).join(' ');
    return next() < 0.4 ? `${taken} ${pickWith(next, extra)}` : taken;
  });
}

const ranking = async (index: LexicalToolIndex, request: ToolSearchRequest) =>
  (await index.search(request)).toolReferences.map((hit) => [hit.toolName, hit.relevanceScore]);

describe('LexicalToolIndex ranking', () => {
  it('ranks a session whose tools were replaced many times exactly like a freshly built one', async () => {
    const next = seededRandom(42);
    const tools = catalogue(next);
    const index = new LexicalToolIndex({ queryExpansion: expansion, prefix: true });
    // Churn: every tool indexed with another tool's text, then random tools re-indexed with a
    // wrong or their right text, in batches; last, the tools still wrong get their right text.
    const wrong = (tool: ToolReference): ToolReference => ({
      ...pickWith(next, tools),
      toolName: tool.toolName,
      category: tool.category as string,
    });
    const current = new Map<string, ToolReference>();
    const lastIndexed: string[] = [];
    const indexBatch = async (batch: ToolReference[]) => {
      await index.indexTools('churned', batch);
      for (const tool of batch) {
        current.set(tool.toolName, tool);
        const at = lastIndexed.indexOf(tool.toolName);
        if (at >= 0) lastIndexed.splice(at, 1);
        lastIndexed.push(tool.toolName);
      }
    };
    await indexBatch([...tools].sort(() => next() - 0.5).map(wrong));
    for (let round = 0; round < 30; round++) {
      const batch = Array.from({ length: 1 + Math.floor(next() * 40) }, () => {
        const tool = pickWith(next, tools);
        return next() < 0.5 ? wrong(tool) : tool;
      });
      await indexBatch([...new Map(batch.map((tool) => [tool.toolName, tool])).values()]);
    }
    await indexBatch(tools.filter((tool) => current.get(tool.toolName) !== tool));
    const byName = new Map(tools.map((tool) => [tool.toolName, tool]));
    const freshTools = lastIndexed.map((name) => byName.get(name) as ToolReference);
    await index.indexTools('fresh', freshTools);
    expect(index.size('churned')).toBe(tools.length);
    // The same tools without the expansion, to prove some requests use it.
    const plain = new LexicalToolIndex({ prefix: true });
    plain.indexTools('fresh', freshTools);
    let expanded = 0;

    for (const [i, query] of requests(next, tools).entries()) {
      const categoryFilter = i % 5 === 0 ? pickWith(next, tools).category : undefined;
      for (const maxResults of [5, 25]) {
        const request = { query, maxResults, ...(categoryFilter ? { categoryFilter } : {}) };
        const fresh = await ranking(index, { ...request, sessionId: 'fresh' });
        expect(await ranking(index, { ...request, sessionId: 'churned' })).toEqual(fresh);
        const unexpanded = await ranking(plain, { ...request, sessionId: 'fresh' });
        if (JSON.stringify(unexpanded) !== JSON.stringify(fresh)) expanded++;
      }
    }
    expect(expanded).toBeGreaterThan(0);
  });

  it('returns the first k of the full ranking, whatever k and filter', async () => {
    const next = seededRandom(7);
    const tools = catalogue(next);
    for (const options of [{}, { queryExpansion: expansion, prefix: true, minScore: 0.2 }]) {
      const index = new LexicalToolIndex(options);
      await index.indexTools('s', tools);
      for (const [i, query] of requests(next, tools).entries()) {
        const filter =
          i % 3 === 0 ? { categoryFilter: pickWith(next, tools).category as string } : {};
        const full = await ranking(index, { sessionId: 's', query, maxResults: 1000, ...filter });
        const scores = full.map(([, score]) => score as number);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
        for (const maxResults of [1, 3, 10]) {
          expect(await ranking(index, { sessionId: 's', query, maxResults, ...filter })).toEqual(
            full.slice(0, maxResults),
          );
        }
      }
    }
  });

  it('breaks ties by indexing order, a replaced tool counting as indexed last', async () => {
    const index = new LexicalToolIndex({ queryExpansion: expansion, fieldWeights: { name: 0 } });
    const same = (toolName: string) => ({ toolName, summary: 'Send an email message' });
    await index.indexTools('s', ['d', 'b', 'a', 'c'].map(same));
    const names = async (maxResults: number) =>
      (await index.search({ sessionId: 's', query: 'email', maxResults })).toolReferences.map(
        (hit) => hit.toolName,
      );
    expect(await names(10)).toEqual(['d', 'b', 'a', 'c']);
    await index.indexTool('s', same('b'));
    expect(await names(10)).toEqual(['d', 'a', 'c', 'b']);
    expect(await names(2)).toEqual(['d', 'a']);
    await index.indexTool('s', same('e'));
    await index.indexTool('s', same('d'));
    expect(await names(10)).toEqual(['a', 'c', 'b', 'e', 'd']);
  });
});
