import {
  HybridToolIndex,
  LexicalToolIndex,
  type QueryExpansion,
  type ToolIndex,
  toolSearchText,
  type WeightedWord,
} from 'toolloop';
import { check, progress, SMOKE, table } from './lib/harness.js';
import { type Query, recallAt, SESSION, searchEach } from './lib/semantic-retrieval-data.js';
import {
  type DataSet,
  ENTERPRISE,
  qualityModel,
  semanticDataSets,
  TUNING_SET,
} from './lib/semantic-retrieval-sets.js';
import { SentenceEncoderEmbeddingModel } from './lib/tool-retrieval-sentence-encoder.js';
import { dot, unitVector } from './lib/unit-vectors.js';

/**
 * A study, not an option of the library: can the user's own sentence encoder translate a request's
 * words into the tool library's words? Every word of the library (names split, descriptions,
 * parameters) and of the requests is embedded on its own; each request word is expanded, for the
 * lexical index, to the library words nearest to it (cosine), weighted by that similarity. This is
 * the word-vector expansion of `@toolloop/word-vectors` without bundled tables: the table comes
 * from the library itself and the user's model. Measured alone and under the default hybrid, next
 * to BM25, on every set; settings would be judged on the tuning half of BFCL live_multiple.
 *
 * Uses the vector file of the other quality runs (bench/.cache/sentence-encoder.db); the first run
 * embeds every distinct word of the data sets once (about 20,000 short texts).
 */

/** Words too common to translate (the index leaves them out anyway). */
const COMMON = new Set(
  'the and for with from that this what which who how when where why you your our can could would should will does did have has had not are was were been into about over more most very their them they its get please some any all just also'.split(
    ' ',
  ),
);

/** Lower-case words of three letters or more; camelCase and snake_case identifiers split. */
const wordsOf = (text: string) =>
  (
    text
      .replace(/([a-z0-9])(?=[A-Z])/g, '$1 ')
      .toLowerCase()
      .match(/[a-z]+/g) ?? []
  ).filter((word) => word.length > 2 && !COMMON.has(word));

/** How request words are translated. */
interface Translation {
  name: string;
  /** Library words kept per request word. */
  neighbours: number;
  /** Lowest cosine similarity kept. */
  threshold: number;
  /** Translate only the words no tool of the library contains. */
  unknownOnly: boolean;
  /** A kept word weighs its similarity × this (the request's own words weigh 1). */
  scale: number;
}

const TRANSLATIONS: Translation[] = [
  {
    name: 'every word, 3 nearest ≥ 0.5, weight 0.5 × cosine',
    neighbours: 3,
    threshold: 0.5,
    unknownOnly: false,
    scale: 0.5,
  },
  {
    name: 'words the library lacks, 3 nearest ≥ 0.5, weight 0.7 × cosine',
    neighbours: 3,
    threshold: 0.5,
    unknownOnly: true,
    scale: 0.7,
  },
];

const model = qualityModel();

/** Per request word, the library words nearest to it. */
async function translationTable(
  set: DataSet,
  translation: Translation,
): Promise<Map<string, WeightedWord[]>> {
  const library = [...new Set(set.corpus.tools.flatMap((tool) => wordsOf(toolSearchText(tool))))];
  const known = new Set(library);
  const requestWords = [...new Set(set.queries.flatMap((query) => wordsOf(query.text)))].filter(
    (word) => !(translation.unknownOnly && known.has(word)),
  );
  const libraryVectors = (await model.embed(library)).map(unitVector);
  const requestVectors = (await model.embed(requestWords)).map(unitVector);
  const translated = new Map<string, WeightedWord[]>();
  requestWords.forEach((word, i) => {
    const q = requestVectors[i] as Float32Array;
    const near: WeightedWord[] = [];
    libraryVectors.forEach((vector, j) => {
      const similarity = dot(q, vector);
      if (similarity >= translation.threshold && library[j] !== word) {
        near.push({ word: library[j] as string, weight: similarity });
      }
    });
    near.sort((a, b) => b.weight - a.weight);
    translated.set(
      word,
      near.slice(0, translation.neighbours).map(({ word: nearWord, weight }) => ({
        word: nearWord,
        weight: weight * translation.scale,
      })),
    );
  });
  return translated;
}

const expansion = (translated: Map<string, WeightedWord[]>): QueryExpansion => ({
  expand: (word) => translated.get(word) ?? [],
});

/** Recall@5 of each request, in the set's order. */
async function recalls(index: ToolIndex, set: DataSet): Promise<number[]> {
  await index.indexTools(SESSION, set.corpus.tools);
  const out: number[] = [];
  await searchEach(
    index,
    set.corpus,
    set.queries,
    async (query) =>
      (
        await index.search({ sessionId: SESSION, query: query.text, maxResults: 10 })
      ).toolReferences.map((tool) => tool.toolName),
    (query, ranked) => out.push(recallAt(query, ranked, 5)),
  );
  index.clearIndex(SESSION);
  return out;
}

/** Mean recall@5 over the chosen requests, with how many are better / worse than the baseline. */
function cell(
  recall: readonly number[],
  baseline: readonly number[],
  chosen: readonly number[],
  counts: boolean,
): string {
  if (chosen.length === 0) return '—';
  const mean = chosen.reduce((sum, i) => sum + (recall[i] as number), 0) / chosen.length;
  const value = `${(100 * mean).toFixed(1)}%`;
  if (!counts) return value;
  const up = chosen.filter((i) => (recall[i] as number) > (baseline[i] as number) + 1e-9).length;
  const down = chosen.filter((i) => (recall[i] as number) < (baseline[i] as number) - 1e-9).length;
  return `${value} (+${up} / −${down})`;
}

async function main(): Promise<void> {
  await SentenceEncoderEmbeddingModel.load();
  const { sets } = semanticDataSets();
  const rowNames = [
    'BM25 (lexical default)',
    ...TRANSLATIONS.map((t) => `BM25 + translation: ${t.name}`),
    'Hybrid (default)',
    ...TRANSLATIONS.map((t) => `Hybrid over BM25 + translation: ${t.name}`),
  ];
  const columns: { name: string; cells: string[] }[] = [];
  for (const set of sets) {
    progress(`searching ${set.name}`);
    const tables = await Promise.all(TRANSLATIONS.map((t) => translationTable(set, t)));
    const lexical = (i: number) =>
      new LexicalToolIndex({ queryExpansion: expansion(tables[i] as Map<string, WeightedWord[]>) });
    const runs = [
      await recalls(new LexicalToolIndex(), set),
      ...(await Promise.all(TRANSLATIONS.map((_, i) => recalls(lexical(i), set)))),
      await recalls(new HybridToolIndex({ embeddingModel: model }), set),
    ];
    for (let i = 0; i < TRANSLATIONS.length; i++) {
      runs.push(
        await recalls(
          new HybridToolIndex({ embeddingModel: model, lexicalIndex: lexical(i) }),
          set,
        ),
      );
    }
    check(
      runs.every((run) => run.length === set.queries.length),
      `every request of ${set.name} searched`,
    );
    const baseline = runs[0] as number[];
    const all = set.queries.map((_, i) => i);
    const pick = (test: (query: Query) => boolean) =>
      all.filter((i) => test(set.queries[i] as Query));
    const add = (name: string, chosen: number[]) =>
      columns.push({
        name,
        cells: runs.map((run, row) => cell(run, baseline, chosen, row > 0)),
      });
    if (set.name === TUNING_SET)
      add(
        `${set.name} tuning half`,
        pick((query) => !query.heldOut),
      );
    add(set.name, all);
    if (set.name === ENTERPRISE) {
      add(
        'enterprise paraphrased',
        pick((query) => query.kind === 'paraphrased'),
      );
    }
  }
  const lines = [
    '## Semantic word translation study',
    '',
    "Can the user's sentence encoder (USE lite) translate a request's words into the tool library's own words for BM25? Every distinct word of the library and of the requests is embedded alone; a request word is searched with the library words nearest to it, weighted by their cosine (bench/semantic-expansion-study.ts). Recall@5, requests better / worse than BM25 in parentheses.",
    '',
    table(
      ['index', ...columns.map((column) => column.name)],
      rowNames.map((name, row) => [name, ...columns.map((column) => column.cells[row] as string)]),
    ),
    '',
    `It helps paraphrases a little and costs on the tuning half, so it is not an option of the library.${SMOKE ? ' Smoke run: 3 requests per set.' : ''}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
