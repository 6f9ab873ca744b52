import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ToolIndex, ToolReference } from 'toolloop';
import { type BfclFunction, bfclQueryText, bfclSchema, readJsonLines } from './bfcl-format.js';

/**
 * The tool-retrieval data sets as the benchmarks read them: BFCL v4 (its functions pooled by name)
 * and its hand-written paraphrases, and LiveMCPBench's MCP tools and tasks, with the tuning /
 * held-out split and the search-and-score loop. Data: bench/data/tool-retrieval (or
 * TOOL_RETRIEVAL_DATA).
 */

/** Where the data sets are. */
export const TOOL_RETRIEVAL_DATA = resolve(
  process.env.TOOL_RETRIEVAL_DATA ?? resolve(process.cwd(), 'bench/data/tool-retrieval'),
);
const BFCL = resolve(TOOL_RETRIEVAL_DATA, 'bfcl');
const LIVE_MCP = resolve(TOOL_RETRIEVAL_DATA, 'livemcpbench');
const PARAPHRASES = resolve(process.cwd(), 'bench/data/bfcl-paraphrases/paraphrases.jsonl');
const ENTERPRISE = resolve(process.cwd(), 'bench/data/enterprise-tools');

/** The session every benchmark index holds its tools under. */
export const SESSION = 'bench';

/** One request and the tools that answer it. */
export interface Query {
  /** The data set's id of the request (BFCL `id`, LiveMCPBench `task_id`). */
  id: string;
  text: string;
  gold: Set<string>;
  /** The held-out half (see {@link isHeldOut}); the others are the tuning half. */
  heldOut: boolean;
  /**
   * BFCL: the functions as the query's own entry defines them. Several entries define one name
   * differently; the pool keeps one definition per name, and for this query these replace the
   * pooled ones of their names (see {@link searchEach}).
   */
  ownTools?: readonly ToolReference[];
  /** The enterprise set's request kind (literal, jargon, paraphrased, multi-tool, indirect). */
  kind?: string;
}

/**
 * The split: a query is held out when the first byte of the SHA-256 of its id (BFCL `id`,
 * LiveMCPBench `task_id`, paraphrase `id`) is odd. Settings are chosen on the other half only.
 */
export function isHeldOut(id: string): boolean {
  return ((createHash('sha256').update(id).digest()[0] as number) & 1) === 1;
}

/** The tools a set of queries is searched against. */
export interface Corpus {
  tools: ToolReference[];
  /** The pooled definition of each tool name (restored after a query's own definitions). */
  byName?: ReadonlyMap<string, ToolReference>;
  /** Index tool name → the name gold answers use. */
  goldName: (toolName: string) => string;
}

/** True when the data sets are present. */
export function toolRetrievalDataPresent(): boolean {
  return existsSync(BFCL) && existsSync(LIVE_MCP);
}

/** BFCL's files, in the order they are pooled. */
export const BFCL_FILES = [
  'simple_python',
  'multiple',
  'parallel_multiple',
  'live_simple',
  'live_multiple',
  'irrelevance',
];

function bfclTool(fn: BfclFunction): ToolReference {
  return {
    toolName: fn.name,
    summary: fn.description ?? '',
    inputSchema: bfclSchema(fn.parameters ?? {}) as ToolReference['inputSchema'],
  };
}

/** BFCL v4: the pooled functions and the queries of each file. */
export interface Bfcl {
  corpus: Corpus;
  sets: Map<string, Query[]>;
  /** Each entry's own function definitions, by entry id. */
  entryTools: Map<string, ToolReference[]>;
  /** Names that several entries define differently. */
  redefinedNames: number;
}

/** Reads BFCL v4: every function of the six files pooled by name (first definition kept). */
export function loadBfcl(): Bfcl {
  const tools = new Map<string, ToolReference>();
  const sets = new Map<string, Query[]>();
  const entryTools = new Map<string, ToolReference[]>();
  const definitions = new Map<string, Set<string>>();
  for (const file of BFCL_FILES) {
    const entries = readJsonLines(resolve(BFCL, `BFCL_v4_${file}.json`));
    for (const entry of entries) {
      const own = (entry.function as BfclFunction[]).map(bfclTool);
      entryTools.set(entry.id as string, own);
      for (const tool of own) {
        if (!tools.has(tool.toolName)) tools.set(tool.toolName, tool);
        const seen = definitions.get(tool.toolName) ?? new Set<string>();
        definitions.set(tool.toolName, seen.add(JSON.stringify([tool.summary, tool.inputSchema])));
      }
    }
    const answersPath = resolve(BFCL, 'possible_answer', `BFCL_v4_${file}.json`);
    const gold = new Map<string, Set<string>>();
    if (existsSync(answersPath)) {
      for (const answer of readJsonLines(answersPath)) {
        const names = (answer.ground_truth as Record<string, unknown>[]).flatMap((call) =>
          Object.keys(call),
        );
        gold.set(answer.id as string, new Set(names));
      }
    }
    sets.set(
      file,
      entries.map((entry) => ({
        id: entry.id as string,
        text: bfclQueryText(entry),
        gold: gold.get(entry.id as string) ?? new Set(),
        heldOut: isHeldOut(entry.id as string),
        ownTools: entryTools.get(entry.id as string) ?? [],
      })),
    );
  }
  return {
    corpus: { tools: [...tools.values()], byName: tools, goldName: (name) => name },
    sets,
    entryTools,
    redefinedNames: [...definitions.values()].filter((seen) => seen.size > 1).length,
  };
}

/** The paraphrases; each keeps the BFCL entry it rewords (its `id`) for that entry's definitions. */
export function loadParaphrases(entryTools: ReadonlyMap<string, ToolReference[]>): Query[] {
  return readJsonLines(PARAPHRASES).map((entry) => ({
    id: entry.id as string,
    text: entry.query as string,
    gold: new Set(entry.gold as string[]),
    heldOut: isHeldOut(entry.id as string),
    ownTools: entryTools.get(entry.id as string) ?? [],
  }));
}

/**
 * The enterprise set (bench/data/enterprise-tools): 237 tools of a fictional company and 300
 * requests of five kinds, written before any tuning and never tuned on, so every request counts as
 * held out.
 */
export function loadEnterprise(): { corpus: Corpus; queries: Query[] } {
  const directory = resolve(ENTERPRISE, 'tools');
  const tools: ToolReference[] = readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) =>
      (
        JSON.parse(readFileSync(resolve(directory, file), 'utf8')) as {
          name: string;
          description: string;
          inputSchema: ToolReference['inputSchema'];
        }[]
      ).map((tool) => ({
        toolName: tool.name,
        summary: tool.description,
        inputSchema: tool.inputSchema,
      })),
    );
  const queries = readJsonLines(resolve(ENTERPRISE, 'requests.jsonl')).map((entry) => ({
    id: entry.id as string,
    text: entry.query as string,
    gold: new Set(entry.gold as string[]),
    heldOut: true,
    kind: entry.kind as string,
  }));
  return { corpus: { tools, goldName: (name) => name }, queries };
}

interface McpServer {
  name: string;
  category: string;
  tools: Record<string, { tools: { name: string; description?: string; inputSchema?: unknown }[] }>;
}

/**
 * LiveMCPBench: 527 MCP tools of 70 servers, each indexed as `<server id>::<tool name>` with its
 * server category (a hit is the gold tool name on any server), and the tasks whose annotated tools
 * name at least one of them.
 */
export function loadLiveMcpBench(): { corpus: Corpus; queries: Query[]; unresolved: number } {
  const servers = JSON.parse(readFileSync(resolve(LIVE_MCP, 'tools.json'), 'utf8')) as McpServer[];
  const tools: ToolReference[] = [];
  const rawName = new Map<string, string>();
  for (const server of servers) {
    for (const [serverId, entry] of Object.entries(server.tools)) {
      for (const tool of entry.tools) {
        // The server id namespaces the 13 names that several servers share.
        const toolName = `${serverId}::${tool.name}`;
        rawName.set(toolName, tool.name);
        tools.push({
          toolName,
          summary: tool.description ?? '',
          inputSchema: (tool.inputSchema ?? {}) as ToolReference['inputSchema'],
          category: server.category,
        });
      }
    }
  }
  const known = new Set(rawName.values());
  const tasks = JSON.parse(readFileSync(resolve(LIVE_MCP, 'all_annotations.json'), 'utf8')) as {
    task_id: string;
    Question: string;
    'Annotator Metadata': { Tools: string };
  }[];
  let unresolved = 0;
  const queries: Query[] = [];
  for (const task of tasks) {
    const names = task['Annotator Metadata'].Tools.split('\n')
      .map((line) => line.trim().replace(/^\d+\.\s*/, ''))
      .filter((line) => line !== '');
    const gold = new Set(names.filter((name) => known.has(name)));
    unresolved += names.filter((name) => !known.has(name)).length;
    if (gold.size > 0) {
      queries.push({
        id: task.task_id,
        text: task.Question,
        gold,
        heldOut: isHeldOut(task.task_id),
      });
    }
  }
  return { corpus: { tools, goldName: (name) => rawName.get(name) ?? name }, queries, unresolved };
}

function sameDefinition(a: ToolReference, b: ToolReference): boolean {
  return a.summary === b.summary && JSON.stringify(a.inputSchema) === JSON.stringify(b.inputSchema);
}

/**
 * Searches each query with `search` and hands its ranking (gold names, best first, no repeats) to
 * `score`. Each query is searched against the pool with its own entry's definitions of its
 * functions in place of the pooled ones of the same names (every other name back to its pooled
 * one): the gold tool is the one the request was written for, and every name has one definition
 * in the index. Only definitions that differ from the indexed ones are indexed again.
 */
export async function searchEach(
  index: ToolIndex,
  corpus: Corpus,
  queries: readonly Query[],
  search: (query: Query) => Promise<readonly string[]>,
  score: (query: Query, ranked: readonly string[]) => void,
): Promise<void> {
  const swapped = new Map<string, ToolReference>();
  for (const query of queries) {
    const wanted = new Map((query.ownTools ?? []).map((tool) => [tool.toolName, tool]));
    const changes: ToolReference[] = [];
    for (const [name, tool] of swapped) {
      if (!wanted.has(name)) {
        changes.push(corpus.byName?.get(name) ?? tool);
        swapped.delete(name);
      }
    }
    for (const [name, tool] of wanted) {
      const indexed = swapped.get(name) ?? corpus.byName?.get(name);
      if (indexed !== undefined && sameDefinition(indexed, tool)) continue;
      changes.push(tool);
      swapped.set(name, tool);
    }
    if (changes.length > 0) await index.indexTools(SESSION, changes);
    const ranked: string[] = [];
    for (const toolName of await search(query)) {
      const name = corpus.goldName(toolName);
      if (!ranked.includes(name)) ranked.push(name);
    }
    score(query, ranked);
  }
  if (swapped.size > 0) {
    await index.indexTools(
      SESSION,
      [...swapped.keys()].map((name) => corpus.byName?.get(name) as ToolReference),
    );
  }
}

/** recall@k of one ranking: the share of the gold tools among the top k (k capped at their count). */
export function recallAt(query: Query, ranked: readonly string[], k: number): number {
  const hits = ranked.slice(0, k).filter((name) => query.gold.has(name)).length;
  return hits / Math.min(k, query.gold.size);
}

/** 1 / rank of the first gold tool among the top 10, 0 when none is. */
export function reciprocalRank(query: Query, ranked: readonly string[]): number {
  const first = ranked.slice(0, 10).findIndex((name) => query.gold.has(name));
  return first < 0 ? 0 : 1 / (first + 1);
}
