import { describe, expect, it } from 'vitest';
import {
  HR_JARGON,
  jargonExpansion,
  runToolSearchJargon,
  scriptedJargonModel,
} from '../../examples/tool-search-jargon.js';
import { LexicalToolIndex } from '../../src/index.js';

const quiet = () => {};

describe('Tool search in your users’ words (a QueryExpansion of your own)', () => {
  it('finds the tool the jargon names, and offers it on the next call', async () => {
    const model = scriptedJargonModel();
    const { answer, offered } = await runToolSearchJargon(model, undefined, quiet);
    expect(offered[0]).toEqual(['toolSearchTool']);
    expect(offered[1]?.slice(0, 2)).toEqual(['toolSearchTool', 'hr_vacation_balance']);
    expect(answer).toBe('Ana has 12 days of paid leave left.');
    expect(model.callCount).toBe(3);
  });

  it('without the expansion the default index does not find it', async () => {
    const { offered } = await runToolSearchJargon(
      scriptedJargonModel(),
      new LexicalToolIndex(),
      quiet,
    );
    expect(offered[1]).not.toContain('hr_vacation_balance');
  });

  it('expands only the words of the table, and not a word most tools use', () => {
    const expansion = jargonExpansion(HR_JARGON);
    const context = (toolsWith: number) => ({
      queryWords: ['pto'],
      toolCount: 12,
      toolsWith: () => toolsWith,
    });
    expect([...expansion.expand('pto', context(0))]).toEqual([
      { word: 'paid leave', weight: 0.8 },
      { word: 'vacation', weight: 0.8 },
    ]);
    expect([...expansion.expand('ana', context(0))]).toEqual([]);
    expect([...expansion.expand('pto', context(7))]).toEqual([]);
  });
});
