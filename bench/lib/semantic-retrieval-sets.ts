import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import { LexicalToolIndex, type ToolIndex } from 'toolloop';
import { SqliteToolEmbeddingCache } from 'toolloop/memory/sqlite';
import { CachedEmbeddingModel } from './cached-embedding-model.js';
import { SMOKE } from './harness.js';
import {
  type Corpus,
  loadBfcl,
  loadEnterprise,
  loadLiveMcpBench,
  loadParaphrases,
  type Query,
} from './semantic-retrieval-data.js';
import { SentenceEncoderEmbeddingModel } from './tool-retrieval-sentence-encoder.js';

/**
 * What the semantic tool-retrieval benchmarks share: the data sets (the public ones and the
 * held-out enterprise set), the lexical default they are measured against, and the sentence
 * encoder behind a file of every vector it ever embedded.
 */

/** The lexical default: plain field-weighted BM25 (`new LexicalToolIndex()`). */
export const lexicalDefault = (): ToolIndex => new LexicalToolIndex();

/** Every vector the quality runs embedded (git-ignored). */
export const CACHE_FILE = resolve(process.cwd(), 'bench/.cache/sentence-encoder.db');
/** The held-out set, written before any tuning (bench/data/enterprise-tools). */
export const ENTERPRISE = 'Enterprise (held out)';
/** Its request kinds. */
export const KINDS = ['literal', 'jargon', 'paraphrased', 'multi-tool', 'indirect'];
/** The set the fusion settings are chosen on (its tuning half). */
export const TUNING_SET = 'BFCL live_multiple';

/** A named set of requests and the tools they are searched against. */
export interface DataSet {
  name: string;
  corpus: Corpus;
  queries: Query[];
}

/** The data sets; a smoke run keeps 3 queries per set and a small pool around their answers. */
export function semanticDataSets(): { sets: DataSet[]; rephrasable: Map<string, DataSet> } {
  const bfcl = loadBfcl();
  const live = loadLiveMcpBench();
  const paraphrases = loadParaphrases(bfcl.entryTools);
  const enterprise = loadEnterprise();
  let sets: DataSet[] = [
    { name: 'LiveMCPBench', corpus: live.corpus, queries: live.queries },
    ...['multiple', 'live_multiple', 'parallel_multiple', 'simple_python', 'live_simple'].map(
      (name) => ({
        name: `BFCL ${name}`,
        corpus: bfcl.corpus,
        queries: bfcl.sets.get(name) ?? [],
      }),
    ),
    { name: 'BFCL paraphrases', corpus: bfcl.corpus, queries: paraphrases },
    { name: ENTERPRISE, corpus: enterprise.corpus, queries: enterprise.queries },
  ];
  if (SMOKE) sets = sets.map(smokeSet);
  return {
    sets,
    rephrasable: new Map([
      ['LiveMCPBench', sets[0] as DataSet],
      ['BFCL paraphrases', sets[sets.length - 2] as DataSet],
    ]),
  };
}

function smokeSet(set: DataSet): DataSet {
  const queries = set.queries.slice(0, 3);
  const wanted = new Set(queries.flatMap((query) => [...query.gold]));
  const tools = [
    ...set.corpus.tools.slice(0, 20),
    ...set.corpus.tools.filter((tool) => wanted.has(set.corpus.goldName(tool.toolName))),
  ];
  const byName = new Map(tools.map((tool) => [tool.toolName, tool]));
  return {
    name: set.name,
    queries: queries.map((query) => ({ ...query, ownTools: [] })),
    corpus: { tools: [...byName.values()], byName, goldName: set.corpus.goldName },
  };
}

/** The model the quality runs use: the sentence encoder behind a SQLite file of every vector. */
export function qualityModel(): CachedEmbeddingModel {
  let database: Database.Database;
  if (SMOKE) {
    database = new Database(':memory:');
  } else {
    mkdirSync(resolve(CACHE_FILE, '..'), { recursive: true });
    database = new Database(CACHE_FILE);
  }
  return new CachedEmbeddingModel(
    new SentenceEncoderEmbeddingModel(),
    new SqliteToolEmbeddingCache({ database }),
  );
}
