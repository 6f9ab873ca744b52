import { LexicalToolIndex, type ToolReference } from 'toolloop';
import { describe, expect, it } from 'vitest';
import { relatedWordsExpansion } from './related-words-expansion.js';

const ref = (toolName: string, summary: string): ToolReference => ({ toolName, summary });
const payments = [
  ref('finance_pay_vendor_bill', 'Pay an outstanding bill of a vendor'),
  ref('hr_lookup_pto_balance', 'Look up the PTO balance of an employee'),
  ref('crm_create_support_ticket', 'Open a support ticket for a customer'),
  ref('devops_restart_service', 'Restart a service in a cluster'),
];
const names = (index: LexicalToolIndex, query: string) =>
  index.search({ sessionId: 's', query }).toolReferences.map((hit) => hit.toolName);

describe('relatedWordsExpansion', () => {
  it('finds a tool described in other words, which plain BM25 misses', async () => {
    const plain = new LexicalToolIndex();
    const expanded = new LexicalToolIndex({ queryExpansion: await relatedWordsExpansion() });
    plain.indexTools('s', payments);
    expanded.indexTools('s', payments);
    expect(names(plain, 'wire money to a supplier')).toEqual([]);
    expect(names(expanded, 'wire money to a supplier')[0]).toBe('finance_pay_vendor_bill');
  });

  it('weighs synonyms and neighbours apart, and lightens the expansion of long queries', async () => {
    const tools = [ref('film_search', 'Search films')];
    const synonymsOnly = new LexicalToolIndex({
      queryExpansion: await relatedWordsExpansion({ relatedWords: 0 }),
    });
    synonymsOnly.indexTools('s', tools);
    expect(names(synonymsOnly, 'movie')).toEqual(['film_search']);
    const none = new LexicalToolIndex({
      queryExpansion: await relatedWordsExpansion({ relatedWords: 0, synonyms: 0 }),
    });
    none.indexTools('s', tools);
    expect(names(none, 'movie')).toEqual([]);
    const scoreOf = (index: LexicalToolIndex, query: string) =>
      index.search({ sessionId: 's', query }).toolReferences[0]?.relevanceScore ?? 0;
    const long = 'movie please now today quickly again really soon';
    const damped = new LexicalToolIndex({
      queryExpansion: await relatedWordsExpansion({ relatedWords: 0, fullWeightWords: 1 }),
    });
    damped.indexTools('s', tools);
    expect(scoreOf(damped, long)).toBeGreaterThan(0);
    expect(scoreOf(damped, long)).toBeLessThan(scoreOf(synonymsOnly, long));
  });

  it('expands only query words that few tools use', async () => {
    const tools = [
      ref('film_search', 'Search films'),
      ...['ratings', 'reviews', 'trailers', 'quotes'].map((what) =>
        ref(`movie_${what}`, `Movie ${what}`),
      ),
    ];
    const rareOnly = new LexicalToolIndex({
      queryExpansion: await relatedWordsExpansion({ relatedWords: 0 }),
    });
    const everyWord = new LexicalToolIndex({
      queryExpansion: await relatedWordsExpansion({ relatedWords: 0, maxToolShare: 1 }),
    });
    rareOnly.indexTools('s', tools);
    everyWord.indexTools('s', tools);
    // "movie" is in 4 of the 5 tools: they match it as it is, and its synonym "film" is not added.
    expect(names(rareOnly, 'movie')).not.toContain('film_search');
    expect(names(everyWord, 'movie')).toContain('film_search');
    // A word no tool uses is always expanded.
    expect(names(rareOnly, 'flick')).toContain('film_search');
  });

  it('rejects weights and limits out of range', async () => {
    await expect(relatedWordsExpansion({ synonyms: -1 })).rejects.toThrow('must be >= 0');
    await expect(relatedWordsExpansion({ fullWeightWords: 0 })).rejects.toThrow(
      'fullWeightWords > 0',
    );
    await expect(relatedWordsExpansion({ maxToolShare: 1.5 })).rejects.toThrow(
      'maxToolShare must be a number in [0, 1]',
    );
  });
});
