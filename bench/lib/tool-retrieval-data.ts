import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BfclFunction, bfclQueryText, bfclSchema, readJsonLines } from './bfcl-format.js';

/**
 * The tool-retrieval data sets kept in bench/data (BFCL v4, LiveMCPBench, the BFCL paraphrases)
 * as tools and queries, and the recall of an index on them: shared by bench/tool-retrieval.ts and
 * the retrieval tests, so both measure the same thing. Depends on nothing but Node: the tools
 * are plain objects of the shape toolloop's `ToolReference` has.
 */

/** One tool, shaped as toolloop's `ToolReference`. */
export interface RetrievalTool {
  readonly toolName: string;
  readonly summary: string;
  /** A JSON Schema, as the data set gives it. */
  readonly inputSchema?: unknown;
  readonly category?: string;
}

/** A request and the names of the tools it needs. */
export interface RetrievalQuery {
  readonly id: string;
  readonly text: string;
  readonly gold: ReadonlySet<string>;
  /**
   * BFCL: the functions as the query's own entry defines them. Several entries define one name
   * differently (412 of the 1,438 names); the pool keeps one definition per name, and for this
   * query these replace the pooled ones of their names (see {@link evaluateIndex}).
   */
  readonly ownTools?: readonly RetrievalTool[];
}

/** The tools one index holds for a set's queries. */
export interface RetrievalCorpus {
  readonly tools: readonly RetrievalTool[];
  /** The pooled definition of each tool name (restored after a query's own definitions). */
  readonly byName?: ReadonlyMap<string, RetrievalTool>;
  /** Index tool name → the name gold answers use. */
  goldName(toolName: string): string;
}

/** One data set: its name, the tools searched and the queries. */
export interface RetrievalSet {
  readonly name: string;
  readonly corpus: RetrievalCorpus;
  readonly queries: readonly RetrievalQuery[];
}

/** Every set, and what their READMEs count. */
export interface ToolRetrievalData {
  /** LiveMCPBench, the five BFCL sets with answers, the BFCL paraphrases, in that order. */
  readonly sets: readonly RetrievalSet[];
  /** BFCL `irrelevance`: requests no pooled tool is meant to answer (searched in the BFCL pool). */
  readonly irrelevance: readonly RetrievalQuery[];
  /** BFCL names defined differently by several entries. */
  readonly redefinedNames: number;
  /** LiveMCPBench gold mentions that name no tool of tools.json (dropped). */
  readonly unresolvedGold: number;
}

/** The structural part of toolloop's `ToolIndex` the evaluation calls. */
export interface SearchableIndex {
  indexTools(sessionId: string, references: readonly RetrievalTool[]): unknown;
  search(request: {
    sessionId: string;
    query: string;
    maxResults?: number;
  }):
    | { toolReferences: readonly { toolName: string; relevanceScore?: number }[] }
    | Promise<{ toolReferences: readonly { toolName: string; relevanceScore?: number }[] }>;
}

/** How one query fared. */
export interface QueryOutcome {
  /** Share of the gold tools in the first result (0 or 1). */
  readonly recall1: number;
  /** Share of the gold tools in the first five (of at most five gold tools). */
  readonly recall5: number;
  /** 1 / rank of the first gold tool in the first ten, else 0. */
  readonly reciprocalRank: number;
}

const BFCL_FILES = [
  'simple_python',
  'multiple',
  'parallel_multiple',
  'live_simple',
  'live_multiple',
  'irrelevance',
];
/** The session every evaluation indexes into. */
export const RETRIEVAL_SESSION = 'retrieval';

/**
 * Reads the sets from `dataDirectory` (bench/data): `tool-retrieval/bfcl`,
 * `tool-retrieval/livemcpbench` and `bfcl-paraphrases`.
 * @throws Error naming the missing file when a set is not there.
 */
export function loadToolRetrievalData(dataDirectory: string): ToolRetrievalData {
  const bfcl = loadBfcl(join(dataDirectory, 'tool-retrieval', 'bfcl'));
  const live = loadLiveMcpBench(join(dataDirectory, 'tool-retrieval', 'livemcpbench'));
  const paraphrases = readJsonLines(
    join(dataDirectory, 'bfcl-paraphrases', 'paraphrases.jsonl'),
  ).map(
    (entry): RetrievalQuery => ({
      id: entry.id as string,
      text: entry.query as string,
      gold: new Set(entry.gold as string[]),
      ownTools: bfcl.entryTools.get(entry.id as string) ?? [],
    }),
  );
  return {
    sets: [
      { name: 'LiveMCPBench', corpus: live.corpus, queries: live.queries },
      ...['multiple', 'live_multiple', 'parallel_multiple', 'simple_python', 'live_simple'].map(
        (file) => ({
          name: `BFCL ${file}`,
          corpus: bfcl.corpus,
          queries: bfcl.sets.get(file) ?? [],
        }),
      ),
      { name: 'BFCL paraphrases', corpus: bfcl.corpus, queries: paraphrases },
    ],
    irrelevance: bfcl.sets.get('irrelevance') ?? [],
    redefinedNames: bfcl.redefinedNames,
    unresolvedGold: live.unresolved,
  };
}

/**
 * Indexes the corpus into a new session of `index` and searches each query (10 results): each
 * BFCL query against the pool with its own entry's definitions of its functions in place of the
 * pooled ones of the same names (every other name back to its pooled one), since the request
 * was written against them. Only definitions that differ from the indexed ones are re-indexed.
 */
export async function evaluateIndex(
  index: SearchableIndex,
  corpus: RetrievalCorpus,
  queries: readonly RetrievalQuery[],
): Promise<QueryOutcome[]> {
  await index.indexTools(RETRIEVAL_SESSION, corpus.tools);
  const outcomes: QueryOutcome[] = [];
  const swapped = new Map<string, RetrievalTool>();
  for (const query of queries) {
    const wanted = new Map((query.ownTools ?? []).map((tool) => [tool.toolName, tool]));
    const changes: RetrievalTool[] = [];
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
    if (changes.length > 0) await index.indexTools(RETRIEVAL_SESSION, changes);
    const response = await index.search({
      sessionId: RETRIEVAL_SESSION,
      query: query.text,
      maxResults: 10,
    });
    const ranked: string[] = [];
    for (const reference of response.toolReferences) {
      const name = corpus.goldName(reference.toolName);
      if (!ranked.includes(name)) ranked.push(name);
    }
    const hits = (k: number) => ranked.slice(0, k).filter((name) => query.gold.has(name)).length;
    const first = ranked.findIndex((name) => query.gold.has(name));
    outcomes.push({
      recall1: hits(1) / Math.min(1, query.gold.size),
      recall5: hits(5) / Math.min(5, query.gold.size),
      reciprocalRank: first < 0 ? 0 : 1 / (first + 1),
    });
  }
  if (swapped.size > 0) {
    await index.indexTools(
      RETRIEVAL_SESSION,
      [...swapped.keys()].map((name) => corpus.byName?.get(name) as RetrievalTool),
    );
  }
  return outcomes;
}

/** The mean of one measure over the outcomes. */
export function meanOf(outcomes: readonly QueryOutcome[], measure: keyof QueryOutcome): number {
  return outcomes.reduce((sum, outcome) => sum + outcome[measure], 0) / (outcomes.length || 1);
}

/** How many queries an index improves and worsens at recall@5 against a baseline's outcomes. */
export function changedQueries(
  outcomes: readonly QueryOutcome[],
  baseline: readonly QueryOutcome[],
): { improved: number; worsened: number } {
  let improved = 0;
  let worsened = 0;
  outcomes.forEach((outcome, i) => {
    const before = baseline[i]?.recall5 ?? 0;
    if (outcome.recall5 > before + 1e-9) improved++;
    else if (outcome.recall5 < before - 1e-9) worsened++;
  });
  return { improved, worsened };
}

function sameDefinition(a: RetrievalTool, b: RetrievalTool): boolean {
  return a.summary === b.summary && JSON.stringify(a.inputSchema) === JSON.stringify(b.inputSchema);
}

function readJson<T>(path: string): T {
  if (!existsSync(path)) throw new Error(`tool-retrieval data missing: ${path}`);
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

function loadBfcl(directory: string) {
  const tools = new Map<string, RetrievalTool>();
  const sets = new Map<string, RetrievalQuery[]>();
  const entryTools = new Map<string, RetrievalTool[]>();
  const definitions = new Map<string, Set<string>>();
  for (const file of BFCL_FILES) {
    const entries = readJsonLines(join(directory, `BFCL_v4_${file}.json`));
    for (const entry of entries) {
      const own = (entry.function as BfclFunction[]).map(
        (fn): RetrievalTool => ({
          toolName: fn.name,
          summary: fn.description ?? '',
          inputSchema: bfclSchema(fn.parameters ?? {}),
        }),
      );
      entryTools.set(entry.id as string, own);
      for (const tool of own) {
        if (!tools.has(tool.toolName)) tools.set(tool.toolName, tool);
        const seen = definitions.get(tool.toolName) ?? new Set<string>();
        definitions.set(tool.toolName, seen.add(JSON.stringify([tool.summary, tool.inputSchema])));
      }
    }
    const answersPath = join(directory, 'possible_answer', `BFCL_v4_${file}.json`);
    const gold = new Map<string, Set<string>>();
    if (file !== 'irrelevance') {
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
        ownTools: entryTools.get(entry.id as string) ?? [],
      })),
    );
  }
  const corpus: RetrievalCorpus = {
    tools: [...tools.values()],
    byName: tools,
    goldName: (name) => name,
  };
  const redefinedNames = [...definitions.values()].filter((seen) => seen.size > 1).length;
  return { corpus, sets, entryTools, redefinedNames };
}

interface McpServer {
  category: string;
  tools: Record<string, { tools: { name: string; description?: string; inputSchema?: unknown }[] }>;
}

function loadLiveMcpBench(directory: string) {
  const servers = readJson<McpServer[]>(join(directory, 'tools.json'));
  const tools: RetrievalTool[] = [];
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
          inputSchema: tool.inputSchema ?? {},
          category: server.category,
        });
      }
    }
  }
  const known = new Set(rawName.values());
  const tasks = readJson<
    { task_id: string; Question: string; 'Annotator Metadata': { Tools: string } }[]
  >(join(directory, 'all_annotations.json'));
  let unresolved = 0;
  const queries: RetrievalQuery[] = [];
  for (const task of tasks) {
    const names = task['Annotator Metadata'].Tools.split('\n')
      .map((line) => line.trim().replace(/^\d+\.\s*/, ''))
      .filter((line) => line !== '');
    const gold = new Set(names.filter((name) => known.has(name)));
    unresolved += names.filter((name) => !known.has(name)).length;
    if (gold.size > 0) queries.push({ id: task.task_id, text: task.Question, gold });
  }
  const corpus: RetrievalCorpus = { tools, goldName: (name) => rawName.get(name) ?? name };
  return { corpus, queries, unresolved };
}
