import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import type { QueryExpansion, WeightedWord } from './query-expansion.js';
import { generateToolLibrary } from './testing/generate-tool-library.js';
import type { ToolReference, ToolSearchResponse } from './tool-reference.js';

const ref = (
  toolName: string,
  summary: string,
  extra: Partial<ToolReference> = {},
): ToolReference => ({ toolName, summary, ...extra });

async function names(
  index: LexicalToolIndex,
  query: string,
  extra: { sessionId?: string; maxResults?: number; categoryFilter?: string } = {},
): Promise<string[]> {
  const response: ToolSearchResponse = await index.search({
    sessionId: extra.sessionId ?? 's',
    query,
    ...(extra.maxResults === undefined ? {} : { maxResults: extra.maxResults }),
    ...(extra.categoryFilter === undefined ? {} : { categoryFilter: extra.categoryFilter }),
  });
  return response.toolReferences.map((reference) => reference.toolName);
}

const payments = [
  ref('finance_pay_vendor_bill', 'Pay an outstanding bill of a vendor'),
  ref('hr_lookup_pto_balance', 'Look up the PTO balance of an employee'),
  ref('crm_create_support_ticket', 'Open a support ticket for a customer'),
  ref('devops_restart_service', 'Restart a service in a cluster'),
];

describe('LexicalToolIndex', () => {
  it('refuses a query that is not a string with an InvalidArgumentError', () => {
    const index = new LexicalToolIndex();
    index.indexTools('s', [{ toolName: 'getWeather', summary: 'Weather of a city' }]);
    expect(() => index.search({ sessionId: 's', query: 42 as unknown as string })).toThrow(
      'query must be a string',
    );
    expect(index.search({ sessionId: 's', query: 'weather' }).toolReferences).toHaveLength(1);
  });

  it('splits camelCase, snake_case, kebab-case and dotted names into words', async () => {
    const index = new LexicalToolIndex();
    await index.indexTools('s', [
      ref('getCurrentWeather', 'Conditions now'),
      ref('finance_lookup_invoice', 'Finds a bill'),
      ref('deploy-service', 'Ships code'),
      ref('calendar.events.list', 'Shows the agenda'),
    ]);
    expect(await names(index, 'weather')).toEqual(['getCurrentWeather']);
    expect(await names(index, 'invoice')).toEqual(['finance_lookup_invoice']);
    expect(await names(index, 'calendar events')).toEqual(['calendar.events.list']);
  });

  it('weighs a word in the name above the same word in a description or parameter', async () => {
    const index = new LexicalToolIndex();
    await index.indexTools('s', [
      ref('notes_search', 'Search the notes', {
        inputSchema: { type: 'object', properties: { invoice: { type: 'string' } } },
      }),
      ref('list_items', 'Lists every invoice item of an account, with amounts'),
      ref('get_invoice', 'Fetch one record'),
    ]);
    expect(await names(index, 'invoice')).toEqual(['get_invoice', 'list_items', 'notes_search']);
  });

  it('indexes parameter names and descriptions, and drops fields weighted 0', async () => {
    const tools = [
      ref('convert', 'Converts an amount', {
        inputSchema: {
          type: 'object',
          properties: {
            sourceCurrency: { type: 'string', description: 'ISO 4217 code, e.g. EUR' },
          },
        },
      }),
      ref('translate', 'Translates text'),
    ];
    const index = new LexicalToolIndex();
    await index.indexTools('s', tools);
    expect(await names(index, 'currency')).toEqual(['convert']);
    expect(await names(index, 'ISO 4217')).toEqual(['convert']);
    const nameAndDescription = new LexicalToolIndex({
      fieldWeights: { parameterNames: 0, parameterDescriptions: 0 },
    });
    await nameAndDescription.indexTools('s', tools);
    expect(await names(nameAndDescription, 'currency')).toEqual([]);
  });

  it('indexes the values parameters allow (enum, const) with the parameter descriptions', async () => {
    const tools = [
      ref('find_films', 'Search for films at theaters', {
        inputSchema: {
          type: 'object',
          properties: {
            show_type: { type: 'string', enum: ['regular', '3d', 'imax'] },
            genre: { type: 'string', description: 'The genre of the film' },
          },
        },
      }),
      ref('film_times', 'Show times of a film at theaters', {
        inputSchema: {
          type: 'object',
          properties: { title: { type: 'string', description: 'The title of the film' } },
        },
      }),
    ];
    const index = new LexicalToolIndex();
    await index.indexTools('s', tools);
    expect(await names(index, 'imax')).toEqual(['find_films']);
    expect((await names(index, 'a 3d film in a theater'))[0]).toBe('find_films');
    const withoutParameterText = new LexicalToolIndex({
      fieldWeights: { parameterDescriptions: 0 },
    });
    await withoutParameterText.indexTools('s', tools);
    expect(await names(withoutParameterText, 'imax')).toEqual([]);
  });

  it('matches a request in Chinese by its characters, with no glossary', async () => {
    const index = new LexicalToolIndex();
    await index.indexTools('s', [...payments, ref('get_dish', '根据菜谱名称查询菜谱的完整详情')]);
    expect(await names(index, '菜谱')).toEqual(['get_dish']);
    // An English request shares no word with a tool described only in Chinese.
    expect(await names(index, 'recipe ingredients')).toEqual([]);
  });

  it('searches synchronously and reads no file: the search is a response, not a promise', () => {
    const index = new LexicalToolIndex();
    expect(index.indexTools('s', payments)).toBeUndefined();
    const response = index.search({ sessionId: 's', query: 'vendor bill' });
    expect(response).not.toBeInstanceOf(Promise);
    expect(response.toolReferences[0]?.toolName).toBe('finance_pay_vendor_bill');
    expect(response.searchMetadata.searchType).toBe('LexicalToolIndex');
  });

  it('lets a query word of 4+ letters match longer words it begins, below exact hits', async () => {
    const index = new LexicalToolIndex({ prefix: true });
    await index.indexTools('s', [
      ref('ship', 'Run a deployment of the app'),
      ref('deploy_now', 'Deploy the app'),
    ]);
    expect(await names(index, 'deploy')).toEqual(['deploy_now', 'ship']);
    const exact = new LexicalToolIndex();
    await exact.indexTools('s', [ref('ship', 'Run a deployment of the app')]);
    expect(await names(exact, 'deploy')).toEqual([]);
  });

  describe('with a queryExpansion', () => {
    const synonyms = (table: Record<string, readonly WeightedWord[]>): QueryExpansion => ({
      expand: (word) => table[word] ?? [],
    });

    it('finds a tool by the words the expansion relates to the query, below its own words', async () => {
      const index = new LexicalToolIndex({
        queryExpansion: synonyms({
          vacation: [{ word: 'pto', weight: 0.8 }],
          supplier: [{ word: 'vendor', weight: 0.5 }],
        }),
      });
      await index.indexTools('s', payments);
      const plain = new LexicalToolIndex();
      await plain.indexTools('s', payments);
      expect(await names(plain, 'vacation left for Ana')).toEqual([]);
      expect(await names(index, 'vacation left for Ana')).toEqual(['hr_lookup_pto_balance']);
      const related = await index.search({ sessionId: 's', query: 'supplier' });
      const own = await index.search({ sessionId: 's', query: 'vendor' });
      expect(related.toolReferences[0]?.toolName).toBe('finance_pay_vendor_bill');
      expect(related.toolReferences[0]?.relevanceScore).toBeCloseTo(
        0.5 * (own.toolReferences[0]?.relevanceScore as number),
        10,
      );
    });

    it('counts a weight above 1 as 1, drops words of no positive weight, splits a phrase into words', async () => {
      const score = async (related: WeightedWord[]) => {
        const index = new LexicalToolIndex({ queryExpansion: synonyms({ holiday: related }) });
        await index.indexTools('s', payments);
        const response = await index.search({ sessionId: 's', query: 'holiday' });
        return response.toolReferences.map((hit) => [hit.toolName, hit.relevanceScore]);
      };
      const own = new LexicalToolIndex();
      await own.indexTools('s', payments);
      const ownScore = (await own.search({ sessionId: 's', query: 'pto' })).toolReferences[0]
        ?.relevanceScore;
      expect(await score([{ word: 'pto', weight: 5 }])).toEqual([
        ['hr_lookup_pto_balance', ownScore],
      ]);
      expect(
        await score([
          { word: 'pto', weight: 0 },
          { word: 'pto', weight: -1 },
          { word: 'pto', weight: Number.NaN },
        ]),
      ).toEqual([]);
      expect((await score([{ word: 'paid time off (PTO)', weight: 1 }]))[0]?.[0]).toBe(
        'hr_lookup_pto_balance',
      );
    });

    it('tells the expansion the query words and how many tools hold a word', async () => {
      const seen: { word: string; queryWords: readonly string[]; count: number; with: number }[] =
        [];
      const index = new LexicalToolIndex({
        queryExpansion: {
          expand(word, context) {
            seen.push({
              word,
              queryWords: context.queryWords,
              count: context.toolCount,
              with: context.toolsWith(word),
            });
            return [];
          },
        },
      });
      await index.indexTools('s', payments);
      await index.search({ sessionId: 's', query: 'Restart the restarting Service' });
      expect(seen).toEqual([
        { word: 'restart', queryWords: ['restart', 'restarting', 'service'], count: 4, with: 1 },
        { word: 'restarting', queryWords: ['restart', 'restarting', 'service'], count: 4, with: 1 },
        { word: 'service', queryWords: ['restart', 'restarting', 'service'], count: 4, with: 1 },
      ]);
    });
  });

  it('replaces a tool indexed again under the same name, and keeps sessions apart', async () => {
    const index = new LexicalToolIndex();
    await index.indexTools('a', [ref('weather', 'Weather forecast')]);
    await index.indexTool('a', ref('weather', 'Tide tables'));
    await index.indexTools('b', [ref('other', 'Weather forecast')]);
    expect(index.size('a')).toBe(1);
    expect(await names(index, 'forecast', { sessionId: 'a' })).toEqual([]);
    expect(await names(index, 'tides', { sessionId: 'a' })).toEqual(['weather']);
    expect(await names(index, 'forecast', { sessionId: 'b' })).toEqual(['other']);
    index.clearIndex('a');
    expect(index.size('a')).toBe(0);
    expect(await names(index, 'tides', { sessionId: 'a' })).toEqual([]);
    expect(await names(index, 'tides', { sessionId: ' ' })).toEqual([]);
  });

  it('stays correct when most tools are replaced many times', async () => {
    const index = new LexicalToolIndex();
    for (let round = 0; round < 5; round++) {
      await index.indexTools(
        's',
        Array.from({ length: 20 }, (_, i) => ref(`tool_${i}`, `round${round} item${i}`)),
      );
    }
    expect(index.size('s')).toBe(20);
    expect(await names(index, 'round0')).toEqual([]);
    expect((await names(index, 'round4 item7'))[0]).toBe('tool_7');
    expect(await names(index, 'round4', { maxResults: 50 })).toHaveLength(20);
  });

  it('applies maxResults, minScore and a category filter that matches some tool', async () => {
    const index = new LexicalToolIndex({ minScore: 0.5, defaultMaxResults: 3 });
    const tools = generateToolLibrary().map((callback) => ({
      toolName: callback.definition.name,
      summary: callback.definition.description,
      inputSchema: callback.definition.inputSchema,
      category: callback.metadata.category as string,
    }));
    await index.indexTools('s', tools);
    expect(await names(index, 'look up an invoice')).toHaveLength(3);
    expect((await names(index, 'look up an invoice'))[0]).toBe('finance_lookup_invoice');
    const hr = await names(index, 'look up', { categoryFilter: 'HR', maxResults: 20 });
    expect(hr.length).toBeGreaterThan(0);
    expect(hr.every((name) => name.startsWith('hr_'))).toBe(true);
    const unknown = await names(index, 'look up', { categoryFilter: 'nope', maxResults: 20 });
    expect(unknown.some((name) => !name.startsWith('hr_'))).toBe(true);
    const strict = new LexicalToolIndex({ minScore: 1_000 });
    await strict.indexTools('s', tools);
    expect(await names(strict, 'invoice')).toEqual([]);
  });

  it('reads at most 64 distinct words of at most 4 KB of query', async () => {
    const index = new LexicalToolIndex();
    await index.indexTools('s', payments);
    const filler = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    expect(await names(index, `${filler} vendor`)).toEqual([]);
    expect(await names(index, `vendor ${filler}`)).toEqual(['finance_pay_vendor_bill']);
    expect(await names(index, `${'x'.repeat(5000)} vendor`)).toEqual([]);
  });

  it('rejects field weights that are negative or all 0', () => {
    expect(() => new LexicalToolIndex({ fieldWeights: { name: -1 } })).toThrow(
      InvalidArgumentError,
    );
    expect(
      () =>
        new LexicalToolIndex({
          fieldWeights: { name: 0, description: 0, parameterNames: 0, parameterDescriptions: 0 },
        }),
    ).toThrow('at least one field weight must be positive');
  });

  it('rejects an option or a field it does not have, so a misspelt or removed one is not ignored', () => {
    // A JavaScript caller can pass anything; the names below are not options of this index.
    const loose = (options: object) =>
      new LexicalToolIndex(options as ConstructorParameters<typeof LexicalToolIndex>[0]);
    expect(() => loose({ wordVectors: true })).toThrow(
      "LexicalToolIndex has no option 'wordVectors'",
    );
    expect(() => loose({ prefx: true })).toThrow("LexicalToolIndex has no option 'prefx'");
    expect(() => loose({ fieldWeights: { names: 2 } })).toThrow(
      "fieldWeights has no field 'names'",
    );
    expect(() => loose({ fieldWeights: 'heavy' })).toThrow('fieldWeights must be an object');
  });

  it('rejects a prefix that is not a boolean, a queryExpansion without expand, and bad limits', () => {
    // A JavaScript caller's 'false' (a string) would otherwise switch prefix matching on.
    expect(() => new LexicalToolIndex({ prefix: 'false' as unknown as boolean })).toThrow(
      'prefix must be a boolean',
    );
    expect(() => new LexicalToolIndex({ queryExpansion: {} as unknown as QueryExpansion })).toThrow(
      'queryExpansion must be an object with an expand function',
    );
    expect(() => new LexicalToolIndex({ minScore: Number.NaN })).toThrow(
      'minScore must be a finite number',
    );
    expect(() => new LexicalToolIndex({ defaultMaxResults: 0 })).toThrow(
      'defaultMaxResults must be a positive integer',
    );
    expect(() => new LexicalToolIndex({ defaultMaxResults: 2.5 })).toThrow(InvalidArgumentError);
    expect(() => new LexicalToolIndex({ prefix: false, minScore: 1 })).not.toThrow();
  });
});
