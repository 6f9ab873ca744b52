import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/index.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
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

  it('indexes the values parameters allow (enum, const), and drops them when weighted 0', async () => {
    const tools = [
      ref('Movies_1_FindMovies', 'Search for movies at theaters', {
        inputSchema: {
          type: 'object',
          properties: {
            show_type: { type: 'string', enum: ['regular', '3d', 'imax'] },
            genre: { type: 'string', description: 'The genre of the movie' },
          },
        },
      }),
      ref('Movies_1_GetTimesForMovie', 'Show times of a movie at theaters', {
        inputSchema: {
          type: 'object',
          properties: { movie_name: { type: 'string', description: 'The title of the movie' } },
        },
      }),
    ];
    const index = new LexicalToolIndex();
    await index.indexTools('s', tools);
    expect(await names(index, 'imax')).toEqual(['Movies_1_FindMovies']);
    expect((await names(index, 'a 3d movie in a theater'))[0]).toBe('Movies_1_FindMovies');
    const withoutValues = new LexicalToolIndex({ fieldWeights: { parameterValues: 0 } });
    await withoutValues.indexTools('s', tools);
    expect(await names(withoutValues, 'imax')).toEqual([]);
  });

  it('ranks tools by the kinds of value the request carries, unless valueKinds is false', async () => {
    const object = (required: string[], ...names: string[]) => ({
      type: 'object',
      required,
      properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
    });
    const tools = [
      ref('weather_now', 'Weather in a city', { inputSchema: object(['city'], 'city') }),
      ref('weather_on_day', 'Forecast for a city on a day', {
        inputSchema: object(['city'], 'city', 'date'),
      }),
      ref('hotel_reserve', 'Reserve a hotel room', {
        inputSchema: object(['city', 'check_in_date'], 'city', 'check_in_date'),
      }),
      ref('hotel_lookup', 'Look up hotel rooms in a city', {
        inputSchema: object(['city'], 'city'),
      }),
    ];
    const index = new LexicalToolIndex();
    await index.indexTools('s', tools);
    const plain = new LexicalToolIndex({ valueKinds: false });
    await plain.indexTools('s', tools);
    // A date in the request favours the tool that takes one.
    expect((await names(plain, 'weather in Portland on April 5th'))[0]).toBe('weather_now');
    expect((await names(index, 'weather in Portland on April 5th'))[0]).toBe('weather_on_day');
    // A request without a date disfavours the tool that requires one.
    expect((await names(plain, 'a hotel room in Paris'))[0]).toBe('hotel_reserve');
    expect((await names(index, 'a hotel room in Paris'))[0]).toBe('hotel_lookup');
    // With one, it no longer does; scores stay positive, and a request with no kind of value
    // changes only the tools requiring one.
    expect((await names(index, 'a hotel room in Paris on May 3rd'))[0]).toBe('hotel_reserve');
    const response = await index.search({ sessionId: 's', query: 'hotel', maxResults: 10 });
    const scores = Object.fromEntries(
      response.toolReferences.map((r) => [r.toolName, r.relevanceScore as number]),
    );
    const plainResponse = await plain.search({ sessionId: 's', query: 'hotel', maxResults: 10 });
    for (const reference of plainResponse.toolReferences) {
      expect(scores[reference.toolName]).toBeGreaterThan(0);
    }
    const plainScore = (name: string) =>
      plainResponse.toolReferences.find((r) => r.toolName === name)?.relevanceScore as number;
    expect(scores.hotel_lookup).toBeCloseTo(plainScore('hotel_lookup') * 0.85, 10);
    expect(scores.hotel_reserve).toBeCloseTo(plainScore('hotel_reserve') * 0.85 ** 2, 10);
  });

  it('brings a calculator to the first results when the request implies arithmetic', async () => {
    const calculator = ref('calculate', 'Calculates/evaluates the given expression.', {
      inputSchema: { type: 'object', properties: { expression: { type: 'string' } } },
    });
    const tools = [
      ref('get_asset_price', 'Get the current price of gold, silver or oil', {
        inputSchema: { type: 'object', properties: { symbol: { type: 'string' } } },
      }),
      ref('get_asset_history', 'Historical prices of gold, silver or oil'),
      ref('get_stock_price', 'Current price of a stock'),
      ref('convert_currency', 'Convert an amount of money between currencies'),
      ref('gold_news', 'News about the gold market'),
      ref('silver_news', 'News about the silver market'),
      calculator,
    ];
    const request =
      'I have 9.5g gold, please estimate its value based on the current price of gold';
    for (const options of [{}, { expansion: true, wordVectors: true }]) {
      const index = new LexicalToolIndex(options);
      await index.indexTools('s', tools);
      const found = await names(index, request, { maxResults: 3 });
      expect(found).toContain('calculate');
      expect(found[0]).toBe('get_asset_price');
      // A request asking for no number worked out leaves the calculator where its words put it.
      expect(await names(index, 'the current price of gold', { maxResults: 3 })).not.toContain(
        'calculate',
      );
      const off = new LexicalToolIndex({ ...options, impliedArithmetic: false });
      await off.indexTools('s', tools);
      expect(await names(off, request, { maxResults: 3 })).not.toContain('calculate');
      // A calculator replaced by a tool that evaluates nothing loses the bonus with its definition.
      await index.indexTool('s', ref('calculate', 'Show the weather'));
      expect(await names(index, request, { maxResults: 3 })).not.toContain('calculate');
      await index.indexTool('s', calculator);
      expect(await names(index, request, { maxResults: 3 })).toContain('calculate');
    }
  });

  it('weighs a source the request names more than its other words, unless sourceNames is false', async () => {
    const tools = [
      ref('history_timeline', 'A history timeline of a topic'),
      ref('search_wikipedia', 'Search articles by a query'),
    ];
    const request = 'Make a web page about the history of AI based on Wikipedia';
    const index = new LexicalToolIndex();
    await index.indexTools('s', tools);
    expect(await names(index, request)).toEqual(['search_wikipedia', 'history_timeline']);
    const off = new LexicalToolIndex({ sourceNames: false });
    await off.indexTools('s', tools);
    expect(await names(off, request)).toEqual(['history_timeline', 'search_wikipedia']);
    // A lower-case word is no name.
    expect(await names(index, request.replace('Wikipedia', 'wikipedia'))).toEqual([
      'history_timeline',
      'search_wikipedia',
    ]);
    // A name found only in a tool's description keeps the weight of any other word.
    const described = [ref('search', 'Search Wikipedia articles by a query')];
    const score = async (sourceNames: boolean) => {
      const one = new LexicalToolIndex({ sourceNames });
      await one.indexTools('s', described);
      const response = await one.search({ sessionId: 's', query: request });
      return response.toolReferences[0]?.relevanceScore;
    };
    expect(await score(true)).toBe(await score(false));
  });

  it('lifts the tools that produce what a best tool requires and the request lacks, unless toolChains is false', async () => {
    const object = (required: string[], descriptions: Record<string, string> = {}) => ({
      type: 'object',
      required,
      properties: Object.fromEntries(
        required.map((name) => [name, { type: 'string', description: descriptions[name] ?? '' }]),
      ),
    });
    const tools = [
      ref('maps::find_nearby_places', 'Find interesting places to visit near a location', {
        inputSchema: object(['latitude', 'longitude']),
      }),
      ref('maps::geocode_address', 'Convert an address or place name to coordinates', {
        inputSchema: object(['address']),
      }),
      ref('travel::plan_visit', 'Plan a visit to interesting places'),
      ref('travel::city_guide', 'A guide to the interesting places of a city'),
      ref('travel::museum_hours', 'Opening hours of places to visit such as museums'),
      ref('travel::nearby_events', 'Events near you this week'),
      ref('rail::get_tickets', 'Search train tickets between two stations', {
        inputSchema: object(['from_station'], {
          from_station: 'Departure station code, as given by `get_station_code`',
        }),
      }),
      ref('rail::get_station_code', 'Look up the code of a station by its name'),
      ref('rail::train_timetable', 'Timetable of trains between two stations'),
      ref('rail::train_delays', 'Delays of trains at stations'),
      ref('rail::seat_map', 'Seat map of a train for tickets'),
      ref('rail::ticket_refund', 'Refund train tickets'),
    ];
    const index = new LexicalToolIndex();
    await index.indexTools('s', tools);
    const plain = new LexicalToolIndex({ toolChains: false });
    await plain.indexTools('s', tools);
    const top = async (search: LexicalToolIndex, query: string) =>
      names(search, query, { maxResults: 5 });

    const near = 'interesting places to visit near the Forbidden City';
    expect((await top(plain, near)).slice(0, 3)).toContain('maps::find_nearby_places');
    expect(await top(plain, near)).not.toContain('maps::geocode_address');
    expect(await top(index, near)).toContain('maps::geocode_address');
    // Coordinates in the request: the geocoder is not needed.
    expect(await top(index, `${near}, at 39.916, 116.397`)).not.toContain('maps::geocode_address');

    const trains = 'train tickets from Beijing station to Shanghai station';
    expect(await top(plain, trains)).not.toContain('rail::get_station_code');
    expect(await top(index, trains)).toContain('rail::get_station_code');
    // A code-like value in the request is taken as the code.
    expect(await top(index, 'train tickets from station VNP1 to AOH2')).not.toContain(
      'rail::get_station_code',
    );
    // The lifted tool scores 0.8 of the tool that needs it.
    const response = await index.search({ sessionId: 's', query: near, maxResults: 5 });
    const score = (name: string) =>
      response.toolReferences.find((hit) => hit.toolName === name)?.relevanceScore as number;
    expect(score('maps::geocode_address')).toBeCloseTo(0.8 * score('maps::find_nearby_places'), 10);
  });

  it('ranks the tools writing the file a request says to save, unless outputFiles is false', async () => {
    const takes = (...names: string[]) => ({
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
      },
    });
    const tools = [
      ref('crypto_research', 'Research a cryptocurrency such as bitcoin in depth', takes('coin')),
      ref('crypto_price', 'Current price of a cryptocurrency such as bitcoin', takes('coin')),
      ref('write_file', 'Create a new file or overwrite one', takes('path', 'content')),
      ref('read_file', 'Read the contents of a file', takes('path')),
      ref('create_presentation', 'Create a new PowerPoint presentation', takes('id')),
    ];
    // Without value kinds, which would multiply both path-taking tools' scores by 1.3 here.
    const index = new LexicalToolIndex({ valueKinds: false });
    await index.indexTools('s', tools);
    const plain = new LexicalToolIndex({ valueKinds: false, outputFiles: false });
    await plain.indexTools('s', tools);
    const scores = async (of: LexicalToolIndex, query: string) =>
      Object.fromEntries(
        (await of.search({ sessionId: 's', query, maxResults: 10 })).toolReferences.map((r) => [
          r.toolName,
          r.relevanceScore as number,
        ]),
      );

    const report = 'Research bitcoin in depth and save it in /root/markdown/bitcoin.md';
    const before = await scores(plain, report);
    const after = await scores(index, report);
    // No word of the request is the writer's; the destination adds the second-best score.
    expect(before.write_file).toBeUndefined();
    expect(after.write_file).toBeCloseTo(before.crypto_price as number, 10);
    expect(after.crypto_research).toBe(before.crypto_research);
    // A reader, and a writer of another format, gain nothing.
    expect(after.read_file).toBe(before.read_file);
    expect(after.create_presentation).toBeUndefined();
    // Both writers of slides gain the second-best score: they tie with it, after it (indexed later).
    const slides = await names(index, 'summarize bitcoin and save it to /root/ppt/btc.pptx');
    expect(slides).toEqual([
      'crypto_research',
      'crypto_price',
      'write_file',
      'create_presentation',
    ]);
    // A file the request reads is no destination.
    const reading = 'Read the bitcoin prices in /root/markdown/bitcoin.md';
    expect(await scores(index, reading)).toEqual(await scores(plain, reading));
  });

  it('expands abbreviations and file extensions on both sides', async () => {
    const index = new LexicalToolIndex({ abbreviations: true });
    await index.indexTools('s', [
      ref('get_repo_cfg', 'Read settings'),
      ref('create_word_document', 'Create a Word document'),
      ref('send_email', 'Send mail'),
    ]);
    expect(await names(index, 'repository configuration')).toEqual(['get_repo_cfg']);
    expect(await names(index, 'save it as /root/report.docx')).toEqual(['create_word_document']);
    const literal = new LexicalToolIndex();
    await literal.indexTools('s', [ref('get_repo_cfg', 'Read settings')]);
    expect(await names(literal, 'repository configuration')).toEqual([]);
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

  it('finds a tool described in other words only with query expansion', async () => {
    const plain = new LexicalToolIndex();
    const expanded = new LexicalToolIndex({ expansion: true });
    await plain.indexTools('s', payments);
    await expanded.indexTools('s', payments);
    expect(await names(plain, 'wire money to a supplier')).toEqual([]);
    expect((await names(expanded, 'wire money to a supplier'))[0]).toBe('finance_pay_vendor_bill');
    expect((await names(expanded, 'how many vacation days does Ana have left'))[0]).toBe(
      'hr_lookup_pto_balance',
    );
  });

  it('with word vectors, finds a tool that shares no word with the request', async () => {
    const tools = [
      ...payments,
      ref('find_provider', 'Discover a therapist near the user', {
        inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      }),
      ref('find_movies', 'Search films showing at a theater'),
    ];
    const plain = new LexicalToolIndex();
    const vectors = new LexicalToolIndex({ wordVectors: true });
    await plain.indexTools('s', tools);
    await vectors.indexTools('s', tools);
    expect(await names(plain, 'I need a psychologist')).toEqual([]);
    expect((await names(vectors, 'I need a psychologist'))[0]).toBe('find_provider');
    expect((await names(vectors, 'any good cinema tonight'))[0]).toBe('find_movies');
    // A word match still counts: the best lexical hit keeps the top.
    expect((await names(vectors, 'restart the service'))[0]).toBe('devops_restart_service');
  });

  it('finds a tool described only in Chinese from an English request, and the reverse', async () => {
    const tools = [
      ...payments,
      ref('get-tickets', '查询12306余票信息。', {
        inputSchema: {
          type: 'object',
          properties: { date: { type: 'string', description: '查询日期，格式为 "yyyy-MM-dd"' } },
        },
      }),
      ref(
        'mcp_howtocook_getRecipeById',
        '根据菜谱名称查询指定菜谱的完整详情，包括所需食材和制作步骤',
      ),
      ref(
        'get-bbc-news',
        '获取 BBC 新闻，提供全球新闻、英国新闻、商业、政治、健康、教育、科技、娱乐等资讯',
      ),
    ];
    const glossed = new LexicalToolIndex();
    const characters = new LexicalToolIndex({ chineseGlosses: false });
    await glossed.indexTools('s', tools);
    await characters.indexTools('s', tools);
    expect(await names(characters, 'which ingredients and steps does it take')).toEqual([]);
    expect((await names(glossed, 'which ingredients and steps does it take'))[0]).toBe(
      'mcp_howtocook_getRecipeById',
    );
    expect((await names(glossed, 'latest technology and politics news'))[0]).toBe('get-bbc-news');
    expect((await names(glossed, 'check remaining train tickets'))[0]).toBe('get-tickets');
    // The characters still match themselves, and a request in Chinese finds an English tool.
    expect((await names(characters, '菜谱'))[0]).toBe('mcp_howtocook_getRecipeById');
    expect((await names(glossed, '支付供应商的账单'))[0]).toBe('finance_pay_vendor_bill');
  });

  it('with word vectors, weighs a word of the name twice a word of the description', async () => {
    // The same three words, placed in the name of one tool and the description of the other: only
    // the name's weight tells the tools apart.
    const therapist = ref('therapist', 'films movies');
    const films = ref('films_movies', 'therapist');
    for (const order of [
      [therapist, films],
      [films, therapist],
    ]) {
      const index = new LexicalToolIndex({ wordVectors: true });
      await index.indexTools('s', order);
      expect((await names(index, 'psychologist'))[0]).toBe('therapist');
      expect((await names(index, 'cinema'))[0]).toBe('films_movies');
    }
  });

  it('with word vectors, scales BM25 scores to the second-best hit, so one outlier does not flatten the rest', async () => {
    // Made-up words have no word vector: the scores are the scaled BM25 scores alone.
    const index = new LexicalToolIndex({ wordVectors: true });
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
    // A lone hit scales to itself, also when the category filter leaves it alone.
    expect(await scores('qqzgamma')).toEqual([['qqzgamma_tool', 1]]);
    await index.indexTools('s', [
      ref('qqzalpha_two', 'qqzalpha qqzalpha', { category: 'x' }),
      ref('other_tool', 'qqzgamma among many other words of a long description', { category: 'y' }),
    ]);
    // Scaled among the tools the category filter keeps.
    expect((await scores('qqzalpha qqzgamma', 'y'))[1]).toEqual(['other_tool', 1]);
  });

  it('keeps word-vector scores in step with replaced tools, sessions and the category filter', async () => {
    const index = new LexicalToolIndex({ wordVectors: 2 });
    await index.indexTools('s', [
      ref('a', 'Discover a therapist', { category: 'health' }),
      ref('b', 'Search films', { category: 'media' }),
    ]);
    expect((await names(index, 'psychologist'))[0]).toBe('a');
    await index.indexTool('s', ref('a', 'Tide tables for a harbour', { category: 'health' }));
    expect(await names(index, 'psychologist', { maxResults: 1 })).not.toEqual(['a']);
    expect(await names(index, 'cinema', { categoryFilter: 'health' })).toEqual([]);
    expect(await names(index, 'cinema', { sessionId: 'other' })).toEqual([]);
    index.clearIndex('s');
    expect(await names(index, 'cinema')).toEqual([]);
  });

  it('weighs expansion per source, and lightens it for long queries', async () => {
    const synonymsOnly = new LexicalToolIndex({ expansion: { relatedWords: 0 } });
    await synonymsOnly.indexTools('s', [ref('film_search', 'Search films')]);
    expect(await names(synonymsOnly, 'movie')).toEqual(['film_search']);
    const scoreOf = async (index: LexicalToolIndex, query: string) =>
      (await index.search({ sessionId: 's', query })).toolReferences[0]?.relevanceScore ?? 0;
    const long = 'movie please now today quickly again really soon';
    const damped = new LexicalToolIndex({ expansion: { relatedWords: 0, fullWeightWords: 1 } });
    await damped.indexTools('s', [ref('film_search', 'Search films')]);
    expect(await scoreOf(damped, long)).toBeLessThan(await scoreOf(synonymsOnly, long));
  });

  it('expands only query words that few tools use', async () => {
    const tools = [
      ref('film_search', 'Search films'),
      ...['ratings', 'reviews', 'trailers', 'quotes'].map((what) =>
        ref(`movie_${what}`, `Movie ${what}`),
      ),
    ];
    const rareOnly = new LexicalToolIndex({ expansion: { relatedWords: 0 } });
    const everyWord = new LexicalToolIndex({ expansion: { relatedWords: 0, maxToolShare: 1 } });
    await rareOnly.indexTools('s', tools);
    await everyWord.indexTools('s', tools);
    // "movie" is in 4 of the 5 tools: they match it as it is, and its synonym "film" is not added.
    expect(await names(rareOnly, 'movie')).not.toContain('film_search');
    expect(await names(everyWord, 'movie')).toContain('film_search');
    // A word no tool uses is always expanded.
    expect(await names(rareOnly, 'flick')).toContain('film_search');
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

  it('rejects field weights that are negative or all 0, and bad expansion settings', () => {
    expect(() => new LexicalToolIndex({ fieldWeights: { name: -1 } })).toThrow(
      InvalidArgumentError,
    );
    expect(
      () =>
        new LexicalToolIndex({
          fieldWeights: {
            name: 0,
            description: 0,
            parameterNames: 0,
            parameterDescriptions: 0,
            parameterValues: 0,
          },
        }),
    ).toThrow('at least one field weight must be positive');
    expect(() => new LexicalToolIndex({ expansion: { fullWeightWords: 0 } })).toThrow(
      InvalidArgumentError,
    );
    expect(() => new LexicalToolIndex({ expansion: { synonyms: Number.NaN } })).toThrow(
      InvalidArgumentError,
    );
    expect(() => new LexicalToolIndex({ expansion: { maxToolShare: 1.5 } })).toThrow(
      'maxToolShare a number in [0, 1]',
    );
    expect(() => new LexicalToolIndex({ wordVectors: -1 })).toThrow(
      'wordVectors must be a boolean or a number >= 0',
    );
  });

  it('rejects switches that are not booleans and limits that are not numbers', () => {
    // A JavaScript caller's 'false' (a string) would otherwise switch the feature on.
    const flags = [
      'chineseGlosses',
      'valueKinds',
      'toolChains',
      'outputFiles',
      'impliedArithmetic',
      'sourceNames',
      'prefix',
      'abbreviations',
    ] as const;
    for (const flag of flags) {
      expect(() => new LexicalToolIndex({ [flag]: 'false' as unknown as boolean })).toThrow(
        `${flag} must be a boolean`,
      );
    }
    expect(() => new LexicalToolIndex({ expansion: 'yes' as unknown as boolean })).toThrow(
      'expansion must be a boolean or an object',
    );
    expect(() => new LexicalToolIndex({ minScore: Number.NaN })).toThrow(
      'minScore must be a finite number',
    );
    expect(() => new LexicalToolIndex({ defaultMaxResults: 0 })).toThrow(
      'defaultMaxResults must be a positive integer',
    );
    expect(() => new LexicalToolIndex({ defaultMaxResults: 2.5 })).toThrow(InvalidArgumentError);
    expect(() => new LexicalToolIndex({ valueKinds: false, prefix: true })).not.toThrow();
  });
});
