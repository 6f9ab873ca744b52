import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  evaluateIndex,
  loadToolRetrievalData,
  meanOf,
  type RetrievalSet,
} from '../../bench/lib/tool-retrieval-data.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { RegexToolIndex } from './regex-tool-index.js';

// A small version of bench/tool-retrieval.ts on the data sets kept in bench/data (LiveMCPBench,
// BFCL, the BFCL paraphrases): recall@5 floors, so that a change that hurts retrieval fails a
// test, not only a benchmark nobody reads. Floors, not timings; the figures are in
// bench/RESULTS.md and docs/tool-search.md.
const data = loadToolRetrievalData(fileURLToPath(new URL('../../bench/data', import.meta.url)));
const set = (name: string) =>
  data.sets.find((candidate) => candidate.name === name) as RetrievalSet;

async function recall5(index: LexicalToolIndex | RegexToolIndex, of: RetrievalSet) {
  return meanOf(await evaluateIndex(index, of.corpus, of.queries), 'recall5');
}

describe('retrieval quality on the data sets in bench/data', () => {
  it('reads every set, with the sizes their READMEs give', () => {
    expect(set('LiveMCPBench').corpus.tools).toHaveLength(527);
    expect(set('LiveMCPBench').queries).toHaveLength(94);
    expect(set('BFCL live_multiple').corpus.tools).toHaveLength(1438);
    expect(set('BFCL live_multiple').queries).toHaveLength(1053);
    expect(set('BFCL paraphrases').queries).toHaveLength(152);
    expect(data.irrelevance).toHaveLength(240);
  });

  it('the default index finds the gold tools of LiveMCPBench far more often than regex', async () => {
    const live = set('LiveMCPBench');
    const lexical = await recall5(new LexicalToolIndex(), live);
    const regex = await recall5(new RegexToolIndex(), live);
    console.log(`LiveMCPBench recall@5: regex ${regex.toFixed(3)}, default ${lexical.toFixed(3)}`);
    expect(lexical).toBeGreaterThan(FLOORS.liveMcpBench);
    expect(lexical).toBeGreaterThan(regex + 0.1);
  });

  it('the default index holds its recall on BFCL live_multiple and the paraphrases', async () => {
    const liveMultiple = await recall5(new LexicalToolIndex(), set('BFCL live_multiple'));
    const paraphrases = await recall5(new LexicalToolIndex(), set('BFCL paraphrases'));
    console.log(
      `default recall@5: BFCL live_multiple ${liveMultiple.toFixed(3)}, paraphrases ${paraphrases.toFixed(3)}`,
    );
    expect(liveMultiple).toBeGreaterThan(FLOORS.liveMultiple);
    expect(paraphrases).toBeGreaterThan(FLOORS.paraphrases);
  });
});

/**
 * Measured 2026-12-02 (the bench's rule: each BFCL request against its own entry's definitions):
 * LiveMCPBench 0.395 (regex 0.235), BFCL live_multiple 0.867, paraphrases 0.375.
 */
const FLOORS = { liveMcpBench: 0.37, liveMultiple: 0.85, paraphrases: 0.34 };
