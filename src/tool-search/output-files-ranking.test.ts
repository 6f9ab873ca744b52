import { describe, expect, it } from 'vitest';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { generateToolSpecs } from './testing/generate-tool-library.js';
import { pickWith, seededRandom } from './testing/seeded-random.js';
import type { ToolReference, ToolSearchRequest } from './tool-reference.js';

const takes = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
});

/** Tools that write files: one of any format, three of one format each, and a reader. */
const FILE_TOOLS: readonly ToolReference[] = [
  {
    toolName: 'fs_write_file',
    summary: 'Create a new file or overwrite an existing one with new content.',
    inputSchema: takes('path', 'content'),
  },
  {
    toolName: 'fs_read_file',
    summary: 'Read the complete contents of a file.',
    inputSchema: takes('path'),
  },
  {
    toolName: 'slides_create_presentation',
    summary: 'Create a new PowerPoint presentation.',
    inputSchema: takes('presentation_id'),
  },
  {
    toolName: 'sheet_write_values',
    summary: 'Write values to a sheet of an Excel workbook.',
    inputSchema: takes('file_path', 'values'),
  },
  {
    toolName: 'doc_create_document',
    summary: 'Create a new Word document with a title.',
    inputSchema: takes('filename', 'title'),
  },
];

/** The 230 tools of the generated library and the file tools. */
function catalogue(): ToolReference[] {
  const generated = generateToolSpecs().map((spec) => ({
    toolName: spec.name,
    summary: spec.description,
    inputSchema: spec.inputSchema,
    category: spec.domain,
  }));
  return [...generated, ...FILE_TOOLS];
}

/** Destinations, and the tool writing their format besides `fs_write_file` (if any). */
const DESTINATIONS: readonly [string, string | undefined][] = [
  ['and save it in /root/markdown/notes.md', undefined],
  ['then write the summary to ~/reports/summary.txt', undefined],
  ['and save it to /root/ppt/review.pptx', 'slides_create_presentation'],
  ['and export it to /root/excel/totals.xlsx', 'sheet_write_values'],
  ['and store the result in /root/word/report.docx', 'doc_create_document'],
  ['and summarize it in a PowerPoint presentation', 'slides_create_presentation'],
];

/** Requests: a few words of a generated tool's description and where the result must go. */
function requests(next: () => number, tools: readonly ToolReference[]) {
  return Array.from({ length: 60 }, () => {
    const words = pickWith(next, tools.slice(0, 230)).summary.split(' ');
    const start = Math.floor(next() * words.length);
    const topic = words.slice(start, start + 3 + Math.floor(next() * 4)).join(' ');
    const [destination, formatWriter] = pickWith(next, DESTINATIONS);
    return { query: `${topic} ${destination}`, formatWriter };
  });
}

/** The default index and one with `outputFiles: false`, both holding the tools in session `s`. */
async function withAndWithout(
  tools: readonly ToolReference[],
): Promise<[LexicalToolIndex, LexicalToolIndex]> {
  const make = (outputFiles: boolean) =>
    new LexicalToolIndex({ expansion: true, wordVectors: true, outputFiles });
  const indexes: [LexicalToolIndex, LexicalToolIndex] = [make(true), make(false)];
  for (const index of indexes) await index.indexTools('s', tools);
  return indexes;
}

const ranking = async (index: LexicalToolIndex, request: ToolSearchRequest) =>
  (await index.search(request)).toolReferences.map((hit) => [hit.toolName, hit.relevanceScore]);

describe('LexicalToolIndex output files', () => {
  it('puts the writers of the requested file among the first five results', async () => {
    const next = seededRandom(11);
    const tools = catalogue();
    const [index, without] = await withAndWithout(tools);
    let raised = 0;
    for (const { query, formatWriter } of requests(next, tools)) {
      const first = async (of: LexicalToolIndex) =>
        (await of.search({ sessionId: 's', query, maxResults: 25 })).toolReferences.map(
          (hit) => hit.toolName,
        );
      const found = await first(index);
      const writer = formatWriter ?? 'fs_write_file';
      expect(found.slice(0, 5), query).toContain(writer);
      if (!query.includes('PowerPoint'))
        expect(found.slice(0, 5), query).toContain('fs_write_file');
      expect(found.slice(0, 5), query).not.toContain('fs_read_file');
      const rankWithout = (await first(without)).indexOf(writer);
      if (rankWithout >= 0) expect(found.indexOf(writer), query).toBeLessThanOrEqual(rankWithout);
      if (rankWithout < 0 || rankWithout > found.indexOf(writer)) raised++;
    }
    // The destination's words alone ("save", "write", "file") often find the writer too, never
    // higher, and in most requests lower.
    expect(raised).toBeGreaterThan(30);
  });

  it('leaves the ranking of a request that reads a file, or names no file, as it was', async () => {
    const next = seededRandom(5);
    const tools = catalogue();
    const [index, without] = await withAndWithout(tools);
    for (const { query } of requests(next, tools)) {
      const topic = query.replace(/ (and|then) .*/, '');
      for (const text of [topic, `Read /root/data/input.csv and ${topic}`]) {
        const request = { sessionId: 's', query: text, maxResults: 25 };
        expect(await ranking(index, request)).toEqual(await ranking(without, request));
      }
    }
  });

  it('ranks a session whose file tools were replaced by other tools and back like a fresh one', async () => {
    const next = seededRandom(23);
    const tools = catalogue();
    const index = new LexicalToolIndex({ expansion: true, wordVectors: true });
    // Each file tool's name first holds a generated tool's text (it writes nothing), a generated
    // tool's name holds a writer's text for a while; then every tool gets its own text back.
    const disguised = (tool: ToolReference): ToolReference => ({
      ...pickWith(next, tools.slice(0, 230)),
      toolName: tool.toolName,
    });
    await index.indexTools('churned', [...tools.slice(0, 230), ...FILE_TOOLS.map(disguised)]);
    for (let round = 0; round < 10; round++) {
      const writer = pickWith(next, FILE_TOOLS);
      const victim = pickWith(next, tools.slice(0, 230)).toolName;
      await index.indexTools('churned', [{ ...writer, toolName: victim }, disguised(writer)]);
      await index.indexTools('churned', [tools.find((tool) => tool.toolName === victim)!]);
    }
    await index.indexTools('churned', FILE_TOOLS);
    await index.indexTools('fresh', tools);
    expect(index.size('churned')).toBe(tools.length);
    for (const { query } of requests(next, tools)) {
      const request = { query, maxResults: 10 };
      const churned = await ranking(index, { ...request, sessionId: 'churned' });
      const fresh = await ranking(index, { ...request, sessionId: 'fresh' });
      // Same tools, same scores (up to the rounding of sums kept in another order), ties
      // possibly broken the other way, as the tools were indexed in another order.
      const scores = (hits: unknown[][]) => new Map(hits as [string, number][]);
      const expected = scores(fresh);
      expect([...scores(churned).keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [name, score] of scores(churned)) {
        expect(score).toBeCloseTo(expected.get(name) as number, 6);
      }
    }
  });
});
