import { describe, expect, it } from 'vitest';
import { loadRelatedWords, RelatedWords } from './related-words.js';

describe('the bundled related-words table', () => {
  it('holds WordNet synonyms and GloVe neighbours of common words, strongest first', async () => {
    const table = await loadRelatedWords();
    expect(table.size).toBeGreaterThan(40_000);
    const film = table.lookup('film');
    expect(film).toContainEqual(expect.objectContaining({ word: 'movie', source: 'synonym' }));
    expect(film).toContainEqual(expect.objectContaining({ word: 'movie', source: 'neighbour' }));
    const vacation = table.lookup('vacation').filter((r) => r.source === 'neighbour');
    expect(vacation.map((r) => r.word)).toContain('holiday');
    const weights = vacation.map((r) => r.weight);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    expect(weights.every((w) => w >= 0.45 && w <= 1)).toBe(true);
    expect(table.lookup('qqqzzz')).toEqual([]);
    expect(await loadRelatedWords()).toBe(table);
  });

  it('rejects bytes that are not a complete version 1 table', () => {
    expect(() => RelatedWords.decode(new Uint8Array([1, 2, 3]))).toThrow('not a version 1');
    const header = new Uint8Array(24);
    header.set(new TextEncoder().encode('TLLX'));
    new DataView(header.buffer).setUint32(4, 1, true);
    new DataView(header.buffer).setUint32(8, 5, true);
    expect(() => RelatedWords.decode(header)).toThrow('truncated');
  });
});
