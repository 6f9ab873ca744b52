import { describe, expect, it } from 'vitest';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { generateToolSpecs } from './testing/generate-tool-library.js';
import { pickWith, seededRandom } from './testing/seeded-random.js';
import type { ToolReference, ToolSearchRequest } from './tool-reference.js';

const coordinates = {
  type: 'object',
  required: ['latitude', 'longitude'],
  properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
};
const sourced = (source: string) => ({
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', description: `A code from \`${source}\`` } },
});

/**
 * Tools that call for others (a coordinate user, a parameter naming its source) and those they
 * call for, on two servers, so a search lifts producers.
 */
const chainTools: ToolReference[] = ['maps', 'geo'].flatMap((server) => [
  {
    toolName: `${server}::find_nearby_places`,
    summary: 'Find places to visit near a location',
    inputSchema: coordinates,
  },
  {
    toolName: `${server}::find_parking`,
    summary: 'Find parking near a spot',
    inputSchema: coordinates,
  },
  { toolName: `${server}::geocode_address`, summary: 'Convert an address to coordinates' },
  { toolName: `${server}::lookup_code`, summary: 'Look up the code of a station' },
  {
    toolName: `${server}::get_tickets`,
    summary: 'Search tickets between stations',
    inputSchema: sourced('lookup_code'),
  },
]);

/**
 * 413 tools: the generated library's 230, 170 more whose descriptions mix two of them, the chain
 * tools, and three calculators (raised when a request implies arithmetic).
 */
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
  for (const name of ['calculate', 'evaluate_math', 'compute']) {
    tools.push({
      toolName: name,
      summary: 'Evaluates the given expression.',
      inputSchema: { type: 'object', properties: { expression: { type: 'string' } } },
      category: 'math',
    });
  }
  return [...tools, ...chainTools.map((tool) => ({ ...tool, category: 'travel' }))];
}

/** Requests made of words of the tools' descriptions, sometimes with a word none of them uses. */
function requests(next: () => number, tools: readonly ToolReference[]): string[] {
  const extra = [
    'please',
    'psychologist',
    'wire money',
    'tonight',
    'quickly',
    'supplier',
    'and estimate the total',
    'near the Old Town',
    'tickets from the central station',
  ];
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
    const index = new LexicalToolIndex({ expansion: true, wordVectors: true });
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
    // The same tools without tool chains, to prove some requests lift producers.
    const unchained = new LexicalToolIndex({
      expansion: true,
      wordVectors: true,
      toolChains: false,
    });
    await unchained.indexTools('fresh', freshTools);
    let lifted = 0;

    for (const [i, query] of requests(next, tools).entries()) {
      const categoryFilter = i % 5 === 0 ? pickWith(next, tools).category : undefined;
      for (const maxResults of [5, 25]) {
        const request = { query, maxResults, ...(categoryFilter ? { categoryFilter } : {}) };
        const fresh = await ranking(index, { ...request, sessionId: 'fresh' });
        expect(await ranking(index, { ...request, sessionId: 'churned' })).toEqual(fresh);
        const plain = await ranking(unchained, { ...request, sessionId: 'fresh' });
        if (JSON.stringify(plain) !== JSON.stringify(fresh)) lifted++;
      }
    }
    expect(lifted).toBeGreaterThan(0);
  });

  it('returns the first k of the full ranking, whatever k and filter', async () => {
    const next = seededRandom(7);
    const tools = catalogue(next);
    for (const options of [{}, { expansion: true, wordVectors: true, minScore: 0.2 }]) {
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
    const index = new LexicalToolIndex({
      expansion: true,
      wordVectors: true,
      fieldWeights: { name: 0 },
    });
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
