import { resolve } from 'node:path';
import { relatedWordsExpansion, WordVectorToolIndex } from '@toolloop/word-vectors';
import {
  Bm25ToolIndex,
  HybridToolIndex,
  LexicalToolIndex,
  type QueryExpansion,
  RegexToolIndex,
  type ToolIndex,
  type ToolReference,
  VectorToolIndex,
} from 'toolloop';
import {
  check,
  collectGarbage,
  count,
  fmt,
  progress,
  SMOKE,
  table,
  verdict,
} from './lib/harness.js';
import {
  changedQueries,
  evaluateIndex,
  loadToolRetrievalData,
  meanOf,
  type QueryOutcome,
  RETRIEVAL_SESSION,
  type RetrievalQuery,
  type RetrievalSet,
} from './lib/tool-retrieval-data.js';
import { SentenceEncoderEmbeddingModel } from './lib/tool-retrieval-sentence-encoder.js';

/**
 * Tool retrieval: how well each ToolIndex finds the right tool for a request (recall@1, recall@5,
 * MRR@10 on BFCL's pooled functions, LiveMCPBench's 527 MCP tools and the BFCL paraphrase set, all
 * kept in bench/data), each index next to the default field-weighted BM25 with the requests it
 * improves and worsens; how it behaves when no tool fits (BFCL irrelevance); and how long indexing
 * and a search take at 100, 1,000 and 10,000 tools. Prints one markdown section.
 */

const DATA = resolve(process.cwd(), 'bench/data');
/**
 * The one set settings are chosen on; every other set is reported as held out. Anything on by
 * default must also gain on the held-out sets, counted in requests improved and worsened.
 */
const TUNING_SET = 'BFCL live_multiple';
/** The baseline every index is shown next to: plain field-weighted BM25. */
const BASELINE = 'Bm25ToolIndex (plain field-weighted BM25)';
/** The advisor's default index. */
const DEFAULT = 'LexicalToolIndex (default options)';

interface IndexKind {
  name: string;
  /** `timed`: the index is for a latency run (no caches shared between runs). */
  create: (timed?: boolean) => ToolIndex;
  /** Variants (ablations) are measured for quality only. */
  variant?: boolean;
  /** Runs a neural model: timed at fewer sizes and searches. */
  slow?: boolean;
}

/**
 * The Universal Sentence Encoder run in process (bench/lib/tool-retrieval-sentence-encoder.ts).
 * The quality runs share one cache of vectors by text; the latency runs embed every time.
 */
const sentenceEncoder = (cache = true) =>
  new VectorToolIndex({
    embeddingModel: new SentenceEncoderEmbeddingModel({ cache }),
    similarityThreshold: -1,
  });

/** `@toolloop/word-vectors`' query expansion, read once per process (in {@link main}). */
let expansion: QueryExpansion | undefined;
const expanded = () => new LexicalToolIndex({ queryExpansion: expansion });

const ALL_INDEXES: IndexKind[] = [
  { name: 'RegexToolIndex (reference)', create: () => new RegexToolIndex() },
  { name: BASELINE, create: () => new Bm25ToolIndex() },
  { name: DEFAULT, create: () => new LexicalToolIndex() },
  {
    name: '@toolloop/word-vectors: LexicalToolIndex + relatedWordsExpansion()',
    create: expanded,
  },
  { name: '@toolloop/word-vectors: WordVectorToolIndex', create: () => new WordVectorToolIndex() },
  {
    name: '@toolloop/word-vectors: WordVectorToolIndex over LexicalToolIndex + relatedWordsExpansion()',
    create: () => new WordVectorToolIndex({ lexicalIndex: expanded() }),
  },
  {
    name: 'VectorToolIndex, Universal Sentence Encoder',
    create: (timed) => sentenceEncoder(!timed),
    slow: true,
  },
  {
    name: 'HybridToolIndex (LexicalToolIndex; sentence encoder; score fusion)',
    create: () =>
      new HybridToolIndex({
        indexes: [new LexicalToolIndex(), sentenceEncoder()],
        fusion: 'score',
      }),
    slow: true,
    variant: true,
  },
  {
    name: 'HybridToolIndex (LexicalToolIndex; sentence encoder; RRF)',
    create: () => new HybridToolIndex({ indexes: [new LexicalToolIndex(), sentenceEncoder()] }),
    slow: true,
    variant: true,
  },
  {
    name: 'LexicalToolIndex, prefix matching',
    create: () => new LexicalToolIndex({ prefix: true }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, one text field (every field weight 1)',
    create: () =>
      new LexicalToolIndex({
        fieldWeights: { name: 1, description: 1, parameterNames: 1, parameterDescriptions: 1 },
      }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, name + description only',
    create: () =>
      new LexicalToolIndex({ fieldWeights: { parameterNames: 0, parameterDescriptions: 0 } }),
    variant: true,
  },
];

/**
 * `TOOL_RETRIEVAL_LATENCY=0` skips the latency runs.
 * `TOOL_RETRIEVAL_INDEXES=<regular expression>` measures only the indexes whose names match, and
 * always the baseline and the default (for trying a variant without the whole run); RESULTS.md is
 * always made from a run of all of them.
 */
const INDEXES = ALL_INDEXES.filter(
  (kind) =>
    // A smoke run leaves the sentence encoder's rows out: embedding the data sets on TensorFlow.js's
    // CPU backend takes minutes. It checks the encoder on three texts instead (smokeSentenceEncoder).
    !(SMOKE && kind.slow === true) &&
    (kind.name === BASELINE ||
      kind.name === DEFAULT ||
      new RegExp(process.env.TOOL_RETRIEVAL_INDEXES ?? '').test(kind.name)),
);

/** The smoke run's check that the in-process sentence encoder loads and ranks a near text first. */
async function smokeSentenceEncoder(): Promise<void> {
  const model = new SentenceEncoderEmbeddingModel({ cache: false });
  const [query, near, far] = await model.embed([
    'will it rain in Chicago tomorrow',
    'get the weather forecast for a city',
    'delete a row from a database table',
  ]);
  const cosine = (a: number[], b: number[]) => {
    let dot = 0;
    let normA = 0;
    let normB = 0;
    for (let i = 0; i < a.length; i++) {
      dot += (a[i] as number) * (b[i] as number);
      normA += (a[i] as number) ** 2;
      normB += (b[i] as number) ** 2;
    }
    return dot / Math.sqrt(normA * normB);
  };
  if (!query || !near || !far || !(cosine(query, near) > cosine(query, far))) {
    throw new Error('the sentence encoder did not rank the weather tool above the database tool');
  }
}

// ---------------------------------------------------------------- quality

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const points = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)}`;

/** Per index, per set, each query's outcome (filled by the quality section). */
const outcomes = new Map<string, Map<string, QueryOutcome[]>>();

async function buildIndex(
  kind: IndexKind,
  tools: readonly ToolReference[],
  timed = false,
): Promise<ToolIndex> {
  const index = kind.create(timed);
  await index.indexTools(RETRIEVAL_SESSION, tools);
  return index;
}

/** `recall@5 (Δ against the baseline; improved / worsened requests)` of one index on one set. */
function cell(name: string, set: string): string {
  const own = outcomes.get(name)?.get(set) ?? [];
  const base = outcomes.get(BASELINE)?.get(set) ?? [];
  const recall = meanOf(own, 'recall5');
  if (name === BASELINE) return pct(recall);
  const { improved, worsened } = changedQueries(own, base);
  return `${pct(recall)} (${points(recall - meanOf(base, 'recall5'))}; +${improved}/−${worsened})`;
}

async function qualitySection(lines: string[]): Promise<void> {
  const data = loadToolRetrievalData(DATA);
  const take = <T>(items: readonly T[]) => items.slice(0, count(items.length, 15));
  const sets: RetrievalSet[] = data.sets.map((set) => ({ ...set, queries: take(set.queries) }));
  const irrelevance = take(data.irrelevance);
  const liveMultiple = sets.find((set) => set.name === 'BFCL live_multiple') as RetrievalSet;
  const bfclTools = liveMultiple.corpus.tools.length;
  const live = sets[0] as RetrievalSet;

  lines.push(
    `Corpora (bench/data, with their licences): **BFCL v4** — every function of the six files pooled by name: ${bfclTools} tools, one index, holding the first definition of each name; ${data.redefinedNames} names are defined differently by several entries (other descriptions or parameters), so each query is searched with its own entry's definitions in place of the pooled ones of those names (put back after it), as the request was written against them; **LiveMCPBench** — ${live.corpus.tools.length} MCP tools of 70 servers, each indexed as \`<server id>::<tool name>\` with its server category (a hit is the gold tool name on any server); **BFCL paraphrases** — ${data.sets.at(-1)?.queries.length} BFCL requests reworded by hand away from their gold tool's words, searched against the BFCL pool (\`bench/data/bfcl-paraphrases/README.md\` says how they were made).`,
    '',
    `Queries → search text: BFCL — the user messages of the first turn, joined (system messages skipped), unchanged; LiveMCPBench — the task \`Question\`, unchanged. Nothing is rewritten or shortened (the indexes read at most the first 4 KB). Gold: BFCL \`ground_truth\` function names; LiveMCPBench the annotated \`Tools\` list with the \`N. \` prefix stripped (${data.unresolvedGold} gold mentions that name no tool in tools.json are dropped; ${live.queries.length} tasks keep at least one).`,
    '',
    `recall@k = the share of a query's gold tools among the top k (k capped at the number of gold tools); MRR@10 = mean of 1/rank of the first gold tool in the top 10. **Baseline**: every index is shown next to \`${BASELINE}\` — the difference in recall@5 points and the requests whose recall@5 it raises (+) and lowers (−). **Tuning**: settings are chosen on ${TUNING_SET} only; the other sets are held out.`,
    '',
  );

  const irrelevanceRows: string[][] = [];
  for (const kind of INDEXES) {
    progress(`quality: ${kind.name}`);
    const perSet = new Map<string, QueryOutcome[]>();
    outcomes.set(kind.name, perSet);
    for (const set of sets) {
      const result = await evaluateIndex(kind.create(), set.corpus, set.queries);
      check(result.length > 0, `${set.name} has queries`);
      perSet.set(set.name, result);
    }
    if (kind.variant !== true) {
      const bfclIndex = await buildIndex(kind, liveMultiple.corpus.tools as ToolReference[]);
      irrelevanceRows.push([
        kind.name,
        ...(await abstention(bfclIndex, irrelevance, liveMultiple.queries)),
      ]);
    }
  }

  const heldOut = sets.filter((set) => set.name !== TUNING_SET).map((set) => set.name);
  const heldOutMean = (name: string) =>
    heldOut.reduce((sum, set) => sum + meanOf(outcomes.get(name)?.get(set) ?? [], 'recall5'), 0) /
    heldOut.length;
  const setHeader = (name: string) => (name === TUNING_SET ? `${name} (tuning)` : name);
  lines.push(
    `**Recall@5 per index and set**, each next to the baseline (${BASELINE}): recall@5 (difference in points; requests improved / worsened).`,
    '',
    table(
      ['index', ...sets.map((set) => setHeader(set.name)), 'mean of the held-out sets'],
      INDEXES.map((kind) => [
        kind.name,
        ...sets.map((set) => cell(kind.name, set.name)),
        pct(heldOutMean(kind.name)),
      ]),
    ),
    '',
  );
  for (const kind of INDEXES.filter((candidate) => candidate.name === DEFAULT)) {
    const below = sets.filter(
      (set) =>
        meanOf(outcomes.get(kind.name)?.get(set.name) ?? [], 'recall5') <
        meanOf(outcomes.get(BASELINE)?.get(set.name) ?? [], 'recall5') - 1e-9,
    );
    lines.push(
      `- Target: the default index (${kind.name}) is never below plain field-weighted BM25 on any set: ${below.length === 0 ? 'no set below' : `below on ${below.map((set) => set.name).join(', ')}`} — ${verdict(below.length === 0)}.`,
    );
  }
  lines.push('');
  lines.push(
    table(
      ['data set', 'queries', 'index', 'recall@1', 'recall@5', 'Δ recall@5', '+ / −', 'MRR@10'],
      sets.flatMap((set) =>
        INDEXES.map((kind) => {
          const own = outcomes.get(kind.name)?.get(set.name) ?? [];
          const base = outcomes.get(BASELINE)?.get(set.name) ?? [];
          const { improved, worsened } = changedQueries(own, base);
          const same = kind.name === BASELINE;
          return [
            setHeader(set.name),
            String(own.length),
            kind.name,
            pct(meanOf(own, 'recall1')),
            pct(meanOf(own, 'recall5')),
            same ? '—' : points(meanOf(own, 'recall5') - meanOf(base, 'recall5')),
            same ? '—' : `+${improved} / −${worsened}`,
            meanOf(own, 'reciprocalRank').toFixed(3),
          ];
        }),
      ),
    ),
    '',
    `**Irrelevance** (BFCL \`irrelevance\`, ${irrelevance.length} queries no pooled tool is meant to answer, searched against the same ${bfclTools}-tool pool). An index with no score threshold almost always returns *something*; what separates relevant from irrelevant queries is the top score, compared here with the top scores of the ${liveMultiple.queries.length} \`live_multiple\` queries:`,
    '',
    table(
      [
        'index',
        'empty result',
        'median top score, irrelevant',
        'median top score, relevant',
        'irrelevant queries whose top score is below the relevant median',
      ],
      irrelevanceRows,
    ),
    '',
  );
}

async function abstention(
  index: ToolIndex,
  irrelevant: readonly RetrievalQuery[],
  relevant: readonly RetrievalQuery[],
): Promise<string[]> {
  const topScores = async (queries: readonly RetrievalQuery[]) => {
    const scores: number[] = [];
    let empty = 0;
    for (const query of queries) {
      const response = await index.search({
        sessionId: RETRIEVAL_SESSION,
        query: query.text,
        maxResults: 1,
      });
      const top = response.toolReferences[0]?.relevanceScore;
      if (top === undefined) empty++;
      scores.push(top ?? 0);
    }
    return { scores, empty };
  };
  const bad = await topScores(irrelevant);
  const good = await topScores(relevant);
  const goodMedian = median(good.scores);
  const below = bad.scores.filter((score) => score < goodMedian).length;
  return [
    pct(bad.empty / Math.max(1, irrelevant.length)),
    median(bad.scores).toFixed(3),
    goodMedian.toFixed(3),
    pct(below / Math.max(1, irrelevant.length)),
  ];
}

// ---------------------------------------------------------------- latency

function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** `size` tools cut from the pool, repeated under suffixed names when the pool is smaller. */
function toolsOfSize(pool: readonly ToolReference[], size: number): ToolReference[] {
  return Array.from({ length: size }, (_, i) => {
    const base = pool[i % pool.length] as ToolReference;
    const round = Math.floor(i / pool.length);
    return round === 0 ? base : { ...base, toolName: `${base.toolName}_v${round}` };
  });
}

async function latencySection(lines: string[], tableLoads: string): Promise<void> {
  const data = loadToolRetrievalData(DATA);
  const liveMultiple = data.sets.find((set) => set.name === 'BFCL live_multiple') as RetrievalSet;
  const live = data.sets[0] as RetrievalSet;
  const pool = [...liveMultiple.corpus.tools, ...live.corpus.tools] as ToolReference[];
  const poolQueries = [...liveMultiple.queries, ...live.queries].map((query) => query.text);
  const sizes = SMOKE ? [100, 1000] : [100, 1000, 10_000];
  const builds = count(7, 2);
  const queryCount = count(1000, 30);
  const queries = Array.from(
    { length: queryCount },
    (_, i) => poolQueries[i % poolQueries.length] as string,
  );
  const rows: string[][] = [];
  /** Per index, [build median, search median, build CPU median] in ms at 1,000 tools. */
  const atThousand = new Map<string, [number, number, number]>();
  // The neural model last: its weights (and TensorFlow.js) would otherwise sit in the heap every
  // other build collects around.
  const timed = INDEXES.filter((k) => k.variant !== true);
  for (const kind of [...timed.filter((k) => k.slow !== true), ...timed.filter((k) => k.slow)]) {
    progress(`latency: ${kind.name}`);
    // Its weights are read once per process (about a second), outside the timings.
    if (kind.slow === true) await SentenceEncoderEmbeddingModel.load();
    // A neural model embeds every tool at build (seconds at 1,000 tools): fewer sizes and runs.
    for (const size of kind.slow === true ? sizes.filter((size) => size <= 1000) : sizes) {
      const tools = toolsOfSize(pool, size);
      const buildTimes: number[] = [];
      const buildCpuTimes: number[] = [];
      let index: ToolIndex | undefined;
      for (let i = 0; i < (kind.slow === true ? 1 : builds); i++) {
        collectGarbage();
        const cpu = process.cpuUsage();
        const started = performance.now();
        index = await buildIndex(kind, tools, true);
        buildTimes.push(performance.now() - started);
        const used = process.cpuUsage(cpu);
        buildCpuTimes.push((used.user + used.system) / 1000);
      }
      const built = index as ToolIndex;
      for (const query of queries.slice(0, 20)) {
        await built.search({ sessionId: RETRIEVAL_SESSION, query });
      }
      const searchTimes: number[] = [];
      for (const query of kind.slow === true ? queries.slice(0, 100) : queries) {
        const started = performance.now();
        await built.search({ sessionId: RETRIEVAL_SESSION, query, maxResults: 5 });
        searchTimes.push(performance.now() - started);
      }
      const buildMedian = median(buildTimes);
      if (size === 1000) {
        atThousand.set(kind.name, [buildMedian, median(searchTimes), median(buildCpuTimes)]);
      }
      rows.push([
        kind.name,
        fmt(size),
        ms(buildMedian),
        ms(median(buildCpuTimes)),
        ms(Math.max(...buildTimes)),
        `${((buildMedian * 1000) / size).toFixed(1)} µs`,
        ms(median(searchTimes)),
        ms(quantile(searchTimes, 0.99)),
      ]);
    }
  }
  lines.push(
    `**Latency** on this machine (measured before the quality runs, a full garbage collection before each build): index build (${builds} builds: wall-time median, this process's CPU-time median, slowest) and one search (${queryCount} real queries from the data sets, median and p99), at each size; tools beyond the ${pool.length} of BFCL and LiveMCPBench are copies under suffixed names. The vector indexes embed in process (an embeddings API would add its network time): the Universal Sentence Encoder runs in process on TensorFlow.js's CPU backend, built once and searched ${Math.min(100, queryCount)} times, at up to 1,000 tools (its model load, about a second, is not counted). ${tableLoads}`,
    '',
    table(
      [
        'index',
        'tools',
        'build median',
        'build CPU time, median',
        'build max',
        'build per tool',
        'search median',
        'search p99',
      ],
      rows,
    ),
    '',
  );
  const [build, search, buildCpu] = atThousand.get(DEFAULT) ?? [Number.NaN, Number.NaN, Number.NaN];
  lines.push(
    `Targets at 1,000 tools, for the default ${DEFAULT}: median search ≤ 100 µs: ${ms(search)} — ${verdict(search <= 0.1)}; build ≤ 100 ms: ${ms(build)} (CPU time ${ms(buildCpu)}) — ${verdict(build <= 100)}. On a machine shared with other work the wall times grow with its load (in the head of this file); the CPU time of a build, this process's own (user + system, the collector's threads included), grows less.`,
    '',
  );
}

function ms(value: number): string {
  return value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

async function main(): Promise<void> {
  const lines: string[] = ['## Tool retrieval', ''];
  // The package's tables are read once per process, on first use: timed here, before anything
  // else uses them, and left out of the index builds below.
  let started = performance.now();
  expansion = await relatedWordsExpansion();
  const expansionLoad = performance.now() - started;
  started = performance.now();
  await new WordVectorToolIndex().indexTools('load', [{ toolName: 'load', summary: 'a table' }]);
  const vectorsLoad = performance.now() - started;
  const tableLoads = `The default index reads no file. \`@toolloop/word-vectors\` reads its tables once per process, not counted in the builds below: \`relatedWordsExpansion()\` reads \`data/related-words.bin.gz\` (${ms(expansionLoad)} here) and the first \`WordVectorToolIndex\` indexing reads \`data/word-vectors.bin.gz\` (${ms(vectorsLoad)}); with word vectors the first search after the tools change also computes the catalogue's common direction, which the warm-up searches before the timed ones include.`;
  // Latency first, before the quality runs fill the heap with the sentence encoder's weights and
  // vectors; printed after them. `TOOL_RETRIEVAL_LATENCY=0` leaves it out (for iterating on quality).
  const latency: string[] = [];
  if (process.env.TOOL_RETRIEVAL_LATENCY !== '0') await latencySection(latency, tableLoads);
  if (SMOKE) await smokeSentenceEncoder();
  await qualitySection(lines);
  process.stdout.write(`${[...lines, ...latency].join('\n')}\n`);
}

await main();
