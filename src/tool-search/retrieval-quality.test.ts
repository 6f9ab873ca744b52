import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../tools/json-schema.js';
import { Bm25ToolIndex } from './bm25-tool-index.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { RegexToolIndex } from './regex-tool-index.js';
import type { ToolIndex } from './tool-index.js';
import type { ToolReference } from './tool-reference.js';

// A small version of bench/tool-retrieval.ts: recall@5 on LiveMCPBench (527 MCP tools, 95 tasks)
// and on the BFCL paraphrase set (152 reworded requests against BFCL's 1,438 pooled functions), so
// that a change that hurts retrieval fails a test, not only a benchmark nobody reads. Floors, not
// timings; the measured values are in bench/RESULTS.md.
const dataDir = fileURLToPath(new URL('../../../shared/data/tool-retrieval/', import.meta.url));
const liveDir = `${dataDir}livemcpbench/`;
const bfclDir = `${dataDir}bfcl/`;
const paraphrasesPath = fileURLToPath(
  new URL('../../bench/data/bfcl-paraphrases/paraphrases.jsonl', import.meta.url),
);
const present =
  existsSync(`${liveDir}tools.json`) &&
  existsSync(`${liveDir}all_annotations.json`) &&
  existsSync(`${bfclDir}BFCL_v4_live_multiple.json`);

interface Task {
  question: string;
  gold: Set<string>;
}

function loadLiveMcpBench(): { tools: ToolReference[]; tasks: Task[] } {
  const servers = JSON.parse(readFileSync(`${liveDir}tools.json`, 'utf8')) as {
    category: string;
    tools: Record<
      string,
      { tools: { name: string; description?: string; inputSchema?: JsonSchema }[] }
    >;
  }[];
  const tools: ToolReference[] = [];
  for (const server of servers) {
    for (const [serverId, entry] of Object.entries(server.tools)) {
      for (const tool of entry.tools) {
        tools.push({
          toolName: `${serverId}::${tool.name}`,
          summary: tool.description ?? '',
          inputSchema: tool.inputSchema ?? {},
          category: server.category,
        });
      }
    }
  }
  const known = new Set(tools.map((tool) => tool.toolName.split('::')[1]));
  const annotations = JSON.parse(readFileSync(`${liveDir}all_annotations.json`, 'utf8')) as {
    Question: string;
    'Annotator Metadata': { Tools: string };
  }[];
  const tasks = annotations
    .map((task) => ({
      question: task.Question,
      gold: new Set(
        task['Annotator Metadata'].Tools.split('\n')
          .map((line) => line.trim().replace(/^\d+\.\s*/, ''))
          .filter((name) => known.has(name)),
      ),
    }))
    .filter((task) => task.gold.size > 0);
  return { tools, tasks };
}

const jsonLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** BFCL's pooled functions (first definition of each name) and the paraphrase tasks. */
function loadParaphrases(): { tools: ToolReference[]; tasks: Task[] } {
  const tasks = jsonLines(paraphrasesPath).map((entry) => ({
    question: entry.query as string,
    gold: new Set(entry.gold as string[]),
  }));
  return { tools: loadBfclPool(), tasks };
}

/**
 * BFCL's pooled functions and the requests of `live_multiple` (the user messages of each entry's
 * first turn; gold: the functions of its ground truth).
 */
function loadLiveMultiple(): { tools: ToolReference[]; tasks: Task[] } {
  const gold = new Map(
    jsonLines(`${bfclDir}possible_answer/BFCL_v4_live_multiple.json`).map((answer) => [
      answer.id as string,
      new Set((answer.ground_truth as Record<string, unknown>[]).flatMap(Object.keys)),
    ]),
  );
  const tasks = jsonLines(`${bfclDir}BFCL_v4_live_multiple.json`).map((entry) => ({
    question: ((entry.question as { role: string; content: string }[][])[0] ?? [])
      .filter((message) => message.role === 'user')
      .map((message) => message.content)
      .join('\n'),
    gold: gold.get(entry.id as string) ?? new Set<string>(),
  }));
  return { tools: loadBfclPool(), tasks };
}

/** Every BFCL function, the first definition of each name. */
function loadBfclPool(): ToolReference[] {
  const tools = new Map<string, ToolReference>();
  for (const file of [
    'simple_python',
    'multiple',
    'parallel_multiple',
    'live_simple',
    'live_multiple',
    'irrelevance',
  ]) {
    for (const entry of jsonLines(`${bfclDir}BFCL_v4_${file}.json`)) {
      for (const fn of entry.function as {
        name: string;
        description?: string;
        parameters?: JsonSchema;
      }[]) {
        // BFCL's own type names (`dict`, `float`) stay: the indexes read only names and texts.
        if (!tools.has(fn.name)) {
          tools.set(fn.name, {
            toolName: fn.name,
            summary: fn.description ?? '',
            inputSchema: fn.parameters ?? {},
          });
        }
      }
    }
  }
  return [...tools.values()];
}

async function recallAt5(
  tools: readonly ToolReference[],
  index: ToolIndex,
  tasks: readonly Task[],
): Promise<number> {
  await index.indexTools('eval', tools);
  let total = 0;
  for (const task of tasks) {
    const response = await index.search({ sessionId: 'eval', query: task.question, maxResults: 5 });
    const found = new Set(response.toolReferences.map((r) => r.toolName.split('::').pop()));
    total += [...task.gold].filter((name) => found.has(name)).length / Math.min(5, task.gold.size);
  }
  return total / tasks.length;
}

describe.skipIf(!present && !process.env.CI)(
  present
    ? 'retrieval quality on LiveMCPBench and the BFCL paraphrases'
    : 'retrieval quality (skipped: ../shared/data/tool-retrieval is absent)',
  () => {
    it('the data sets are present', () => {
      expect(present, `missing ${dataDir}`).toBe(true);
    });

    it('on LiveMCPBench, BM25 and LexicalToolIndex find the gold tools far more often than regex', async () => {
      const { tools, tasks } = loadLiveMcpBench();
      expect(tools).toHaveLength(527);
      expect(tasks.length).toBeGreaterThanOrEqual(90);
      const bm25 = await recallAt5(tools, new Bm25ToolIndex(), tasks);
      const regex = await recallAt5(tools, new RegexToolIndex(), tasks);
      const lexical = await recallAt5(tools, new LexicalToolIndex(), tasks);
      const expanded = await recallAt5(tools, new LexicalToolIndex({ expansion: true }), tasks);
      const defaultIndex = await recallAt5(
        tools,
        new LexicalToolIndex({ expansion: true, wordVectors: true }),
        tasks,
      );
      console.log(
        `LiveMCPBench recall@5: regex ${regex.toFixed(3)}, BM25 ${bm25.toFixed(3)}, lexical ${lexical.toFixed(3)}, lexical + expansion ${expanded.toFixed(3)}, default (expansion + word vectors) ${defaultIndex.toFixed(3)}`,
      );
      expect(bm25).toBeGreaterThan(LIVE_FLOORS.bm25);
      expect(bm25).toBeGreaterThan(regex + 0.1);
      expect(lexical).toBeGreaterThan(LIVE_FLOORS.lexical);
      expect(expanded).toBeGreaterThan(LIVE_FLOORS.expanded);
      expect(defaultIndex).toBeGreaterThan(LIVE_FLOORS.defaultIndex);
    });

    it('on LiveMCPBench, lifting the tools that produce what the best tools need finds more', async () => {
      const { tools, tasks } = loadLiveMcpBench();
      const chained = await recallAt5(
        tools,
        new LexicalToolIndex({ expansion: true, wordVectors: true }),
        tasks,
      );
      const unchained = await recallAt5(
        tools,
        new LexicalToolIndex({ expansion: true, wordVectors: true, toolChains: false }),
        tasks,
      );
      console.log(
        `LiveMCPBench recall@5: default ${chained.toFixed(3)}, toolChains false ${unchained.toFixed(3)}`,
      );
      expect(chained).toBeGreaterThan(unchained + TOOL_CHAIN_FLOORS.gain);
    });

    it('on LiveMCPBench, English glosses find the tools described only in Chinese', async () => {
      const { tools, tasks } = loadLiveMcpBench();
      const inChinese = new Set(
        tools
          .filter((tool) => /\p{Script=Han}/u.test(tool.summary))
          .map((tool) => tool.toolName.split('::')[1]),
      );
      const found = async (index: LexicalToolIndex) => {
        await index.indexTools('eval', tools);
        let hits = 0;
        let mentions = 0;
        for (const task of tasks) {
          const response = await index.search({
            sessionId: 'eval',
            query: task.question,
            maxResults: 5,
          });
          const top = new Set(response.toolReferences.map((r) => r.toolName.split('::')[1]));
          for (const gold of task.gold) {
            if (!inChinese.has(gold)) continue;
            mentions++;
            if (top.has(gold)) hits++;
          }
        }
        return { hits, mentions };
      };
      const glossed = await found(new LexicalToolIndex());
      const characters = await found(new LexicalToolIndex({ chineseGlosses: false }));
      console.log(
        `LiveMCPBench gold tools described in Chinese found in the first five: ${glossed.hits} of ${glossed.mentions} with glosses, ${characters.hits} by characters only`,
      );
      expect(glossed.mentions).toBeGreaterThanOrEqual(40);
      expect(glossed.hits).toBeGreaterThanOrEqual(characters.hits + CHINESE_GLOSS_FLOORS.gain);
    });

    it('on LiveMCPBench, a calculator is found for every task that needs one, only with impliedArithmetic', async () => {
      const { tools, tasks } = loadLiveMcpBench();
      const needing = tasks.filter((task) => task.gold.has('calculate'));
      const found = async (impliedArithmetic: boolean) => {
        const index = new LexicalToolIndex({
          expansion: true,
          wordVectors: true,
          impliedArithmetic,
        });
        await index.indexTools('eval', tools);
        let hits = 0;
        for (const task of needing) {
          const response = await index.search({
            sessionId: 'eval',
            query: task.question,
            maxResults: 5,
          });
          if (response.toolReferences.some((r) => r.toolName.endsWith('::calculate'))) hits++;
        }
        return hits;
      };
      const [on, off] = [await found(true), await found(false)];
      console.log(
        `LiveMCPBench tasks needing a calculator that find it in the first five: ${on} of ${needing.length} with impliedArithmetic, ${off} without`,
      );
      expect(needing.length).toBeGreaterThanOrEqual(4);
      expect(on).toBe(needing.length);
      expect(off).toBeLessThan(needing.length);
    });

    it('on requests in other words, the default index (expansion + word vectors) finds far more than BM25', async () => {
      const { tools, tasks } = loadParaphrases();
      expect(tasks).toHaveLength(152);
      const bm25 = await recallAt5(tools, new Bm25ToolIndex(), tasks);
      const expanded = await recallAt5(
        tools,
        new LexicalToolIndex({ expansion: true, wordVectors: true }),
        tasks,
      );
      console.log(
        `BFCL paraphrases recall@5: BM25 ${bm25.toFixed(3)}, lexical + expansion + word vectors ${expanded.toFixed(3)}`,
      );
      expect(expanded).toBeGreaterThan(PARAPHRASE_FLOORS.expanded);
      expect(expanded).toBeGreaterThan(bm25 + PARAPHRASE_FLOORS.gainOverBm25);
    });

    it('on BFCL live_multiple, weighing tools by the kinds of value requests carry finds more', async () => {
      const { tools, tasks } = loadLiveMultiple();
      expect(tasks).toHaveLength(1053);
      const withKinds = await recallAt5(
        tools,
        new LexicalToolIndex({ expansion: true, wordVectors: true }),
        tasks,
      );
      const withoutKinds = await recallAt5(
        tools,
        new LexicalToolIndex({ expansion: true, wordVectors: true, valueKinds: false }),
        tasks,
      );
      console.log(
        `BFCL live_multiple recall@5 (pooled definitions): default ${withKinds.toFixed(3)}, valueKinds false ${withoutKinds.toFixed(3)}`,
      );
      expect(withKinds).toBeGreaterThan(LIVE_MULTIPLE_FLOORS.default);
      expect(withKinds).toBeGreaterThan(withoutKinds + LIVE_MULTIPLE_FLOORS.valueKindsGain);
    });

    it('on LiveMCPBench, requests that say where to save their result find the tools that write it', async () => {
      const { tools, tasks } = loadLiveMcpBench();
      const writesFound = async (index: LexicalToolIndex) => {
        await index.indexTools('eval', tools);
        let hits = 0;
        for (const task of tasks) {
          if (!task.gold.has('write_file')) continue;
          const response = await index.search({ sessionId: 'eval', query: task.question });
          const top = response.toolReferences.slice(0, 5).map((r) => r.toolName.split('::')[1]);
          if (top.includes('write_file')) hits++;
        }
        return hits;
      };
      const options = { expansion: true, wordVectors: true } as const;
      const withOutputFiles = await recallAt5(tools, new LexicalToolIndex(options), tasks);
      const without = await recallAt5(
        tools,
        new LexicalToolIndex({ ...options, outputFiles: false }),
        tasks,
      );
      const writers = await writesFound(new LexicalToolIndex(options));
      const writersWithout = await writesFound(
        new LexicalToolIndex({ ...options, outputFiles: false }),
      );
      console.log(
        `LiveMCPBench recall@5: default ${withOutputFiles.toFixed(3)}, outputFiles false ${without.toFixed(3)}; write_file in the first five for ${writers} of its tasks (${writersWithout} without)`,
      );
      expect(withOutputFiles).toBeGreaterThan(OUTPUT_FILES_FLOORS.default);
      expect(withOutputFiles).toBeGreaterThan(without + OUTPUT_FILES_FLOORS.gain);
      expect(writers).toBeGreaterThanOrEqual(writersWithout + OUTPUT_FILES_FLOORS.writersGain);
    });
  },
);

/**
 * Measured 2026-12-01 with each name's first definition pooled (the bench swaps in each request's
 * own): default index 0.904, with `valueKinds: false` 0.877.
 */
const LIVE_MULTIPLE_FLOORS = { default: 0.88, valueKindsGain: 0.015 };
/**
 * Measured 2026-12-01: LiveMCPBench BM25 0.384, lexical 0.390, expansion (rare words) 0.384;
 * paraphrases BM25 0.289, expansion + word vectors 0.493. The default index on LiveMCPBench:
 * 0.430 with BM25 scaled to the second-best hit (0.416 scaled to the best), before value kinds;
 * 0.447 with them; 0.487 with output files; 0.471 with implied arithmetic and named sources (no
 * output files).
 */
const LIVE_FLOORS = { bm25: 0.35, lexical: 0.36, expanded: 0.35, defaultIndex: 0.46 };
/**
 * Measured 2026-12-01 (these tasks, 5 results): the default index 0.515 on LiveMCPBench, 0.487 with
 * `toolChains: false` (before output files: 0.476 and 0.447).
 */
const TOOL_CHAIN_FLOORS = { gain: 0.02 };
/**
 * Measured 2026-12-01: LiveMCPBench recall@5 of the default index 0.487, 0.447 with
 * `outputFiles: false` (two `write_file` tools of two servers can take two of the five places);
 * `write_file` in the first five for 18 of its 18 tasks, 1 without.
 */
const OUTPUT_FILES_FLOORS = { default: 0.47, gain: 0.03, writersGain: 12 };
const PARAPHRASE_FLOORS = { expanded: 0.45, gainOverBm25: 0.15 };
/**
 * Measured 2026-12-01 (plain LexicalToolIndex): 22 of LiveMCPBench's 46 gold mentions of tools
 * described in Chinese in the first five with glosses, 11 by their characters only.
 */
const CHINESE_GLOSS_FLOORS = { gain: 7 };
