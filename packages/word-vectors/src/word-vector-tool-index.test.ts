import { fileURLToPath } from 'node:url';
import { LexicalToolIndex, type ToolReference } from 'toolloop';
import { describe, expect, it } from 'vitest';
import {
  evaluateIndex,
  loadToolRetrievalData,
  meanOf,
  type RetrievalSet,
} from '../../../bench/lib/tool-retrieval-data.js';
import { relatedWordsExpansion } from './related-words-expansion.js';
import { WordVectorToolIndex } from './word-vector-tool-index.js';

const ref = (toolName: string, summary: string, extra: Partial<ToolReference> = {}) => ({
  toolName,
  summary,
  ...extra,
});
const payments: ToolReference[] = [
  ref('finance_pay_vendor_bill', 'Pay an outstanding bill of a vendor'),
  ref('hr_lookup_pto_balance', 'Look up the PTO balance of an employee'),
  ref('crm_create_support_ticket', 'Open a support ticket for a customer'),
  ref('devops_restart_service', 'Restart a service in a cluster'),
];

async function names(
  index: WordVectorToolIndex | LexicalToolIndex,
  query: string,
  extra: { sessionId?: string; maxResults?: number; categoryFilter?: string } = {},
): Promise<string[]> {
  const response = await index.search({ sessionId: 's', query, ...extra });
  return response.toolReferences.map((hit) => hit.toolName);
}

describe('WordVectorToolIndex', () => {
  it('finds a tool that shares no word with the request, and keeps the best word match on top', async () => {
    const tools = [
      ...payments,
      ref('find_provider', 'Discover a therapist near the user', {
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      }),
      ref('find_movies', 'Search films showing at a theater'),
    ];
    const plain = new LexicalToolIndex();
    const vectors = new WordVectorToolIndex();
    plain.indexTools('s', tools);
    await vectors.indexTools('s', tools);
    expect(await names(plain, 'I need a psychologist')).toEqual([]);
    expect((await names(vectors, 'I need a psychologist'))[0]).toBe('find_provider');
    expect((await names(vectors, 'any good cinema tonight'))[0]).toBe('find_movies');
    expect((await names(vectors, 'restart the service'))[0]).toBe('devops_restart_service');
    const response = await vectors.search({ sessionId: 's', query: 'cinema' });
    expect(response.searchMetadata.searchType).toBe('WordVectorToolIndex');
  });

  it('weighs a word of the name twice a word of the description', async () => {
    // The same words, in the name of one tool and the description of the other: only the
    // name's weight tells the tools apart.
    const therapist = ref('therapist', 'films movies');
    const films = ref('films_movies', 'therapist');
    for (const order of [
      [therapist, films],
      [films, therapist],
    ]) {
      const index = new WordVectorToolIndex();
      await index.indexTools('s', order);
      expect((await names(index, 'psychologist'))[0]).toBe('therapist');
      expect((await names(index, 'cinema'))[0]).toBe('films_movies');
    }
  });

  it('divides the lexical scores by the second-best hit, so one outlier does not flatten the rest', async () => {
    // Made-up words have no vector: the scores are the divided lexical scores alone.
    const index = new WordVectorToolIndex();
    await index.indexTools('s', [
      ref('qqzalpha_qqzalpha', 'qqzalpha qqzalpha qqzbeta', { category: 'x' }),
      ref('qqzbeta_tool', 'qqzbeta', { category: 'x' }),
      ref('qqzgamma_tool', 'qqzgamma', { category: 'y' }),
    ]);
    const scores = async (query: string, categoryFilter?: string) =>
      (await index.search({ sessionId: 's', query, categoryFilter })).toolReferences.map((hit) => [
        hit.toolName,
        hit.relevanceScore,
      ]);
    const [first, second] = await scores('qqzalpha qqzbeta');
    expect(first?.[0]).toBe('qqzalpha_qqzalpha');
    expect(first?.[1]).toBeGreaterThan(1.5);
    expect(second).toEqual(['qqzbeta_tool', 1]);
    // A lone hit divides by itself, also when the category filter leaves it alone.
    expect(await scores('qqzgamma')).toEqual([['qqzgamma_tool', 1]]);
    await index.indexTools('s', [
      ref('qqzalpha_two', 'qqzalpha qqzalpha', { category: 'x' }),
      ref('other_tool', 'qqzgamma among many other words of a long description', { category: 'y' }),
    ]);
    expect((await scores('qqzalpha qqzgamma', 'y'))[1]).toEqual(['other_tool', 1]);
  });

  it('keeps its scores in step with replaced tools, sessions and the category filter', async () => {
    const index = new WordVectorToolIndex({ weight: 2 });
    await index.indexTools('s', [
      ref('a', 'Discover a therapist', { category: 'health' }),
      ref('b', 'Search films', { category: 'media' }),
    ]);
    expect((await names(index, 'psychologist'))[0]).toBe('a');
    await index.indexTool('s', ref('a', 'Tide tables for a harbour', { category: 'health' }));
    expect(index.size('s')).toBe(2);
    expect(await names(index, 'psychologist', { maxResults: 1 })).not.toEqual(['a']);
    expect(await names(index, 'cinema', { categoryFilter: 'health' })).toEqual([]);
    expect(await names(index, 'cinema', { categoryFilter: 'no such category' })).toContain('b');
    expect(await names(index, 'cinema', { sessionId: 'other' })).toEqual([]);
    await index.clearIndex('s');
    expect(index.size('s')).toBe(0);
    expect(await names(index, 'cinema')).toEqual([]);
  });

  it('breaks ties by indexing order, a replaced tool counting as indexed last', async () => {
    const index = new WordVectorToolIndex({
      lexicalIndex: new LexicalToolIndex({ fieldWeights: { name: 0 } }),
    });
    const same = (toolName: string) => ref(toolName, 'Send an email message');
    await index.indexTools('s', ['d', 'b', 'a', 'c'].map(same));
    expect(await names(index, 'email')).toEqual(['d', 'b', 'a', 'c']);
    await index.indexTool('s', same('b'));
    expect(await names(index, 'email')).toEqual(['d', 'a', 'c', 'b']);
    expect(await names(index, 'email', { maxResults: 2 })).toEqual(['d', 'a']);
  });

  it('rejects a negative weight and a bad result count', () => {
    expect(() => new WordVectorToolIndex({ weight: -1 })).toThrow(
      'weight must be a finite number >= 0',
    );
    expect(() => new WordVectorToolIndex({ defaultMaxResults: 0 })).toThrow(
      'defaultMaxResults must be a positive integer',
    );
  });

  it('on requests reworded away from the tools’ words, finds far more than the lexical default', async () => {
    const data = loadToolRetrievalData(
      fileURLToPath(new URL('../../../bench/data', import.meta.url)),
    );
    const paraphrases = data.sets.find((set) => set.name === 'BFCL paraphrases') as RetrievalSet;
    const recall5 = async (index: WordVectorToolIndex | LexicalToolIndex) =>
      meanOf(await evaluateIndex(index, paraphrases.corpus, paraphrases.queries), 'recall5');
    const lexical = await recall5(new LexicalToolIndex());
    const both = await recall5(
      new WordVectorToolIndex({
        lexicalIndex: new LexicalToolIndex({ queryExpansion: await relatedWordsExpansion() }),
      }),
    );
    console.log(
      `BFCL paraphrases recall@5: lexical default ${lexical.toFixed(3)}, word vectors + expansion ${both.toFixed(3)}`,
    );
    // Measured 2026-12-02: 0.375 and 0.553.
    expect(both).toBeGreaterThan(lexical + 0.12);
  });
});
