import { describe, expect, it } from 'vitest';
import { Bm25ToolIndex } from './bm25-tool-index.js';
import { generateToolLibrary } from './testing/generate-tool-library.js';
import type { ToolReference } from './tool-reference.js';

const ref = (
  toolName: string,
  summary: string,
  extra: Partial<ToolReference> = {},
): ToolReference => ({
  toolName,
  summary,
  ...extra,
});
const names = (response: { toolReferences: readonly ToolReference[] }) =>
  response.toolReferences.map((r) => r.toolName);

const library = (): ToolReference[] =>
  generateToolLibrary().map((callback) => ({
    toolName: callback.definition.name,
    summary: callback.definition.description,
    inputSchema: callback.definition.inputSchema,
    category: callback.metadata.category as string,
  }));

describe('Bm25ToolIndex', () => {
  it('matches words of a camelCase, snake_case, kebab-case or dotted name', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('s', [
      ref('getCurrentWeather', 'Conditions now'),
      ref('finance_lookup_invoice', 'Finds a bill'),
      ref('deploy-service', 'Ships code'),
      ref('calendar.events.list', 'Shows the agenda'),
    ]);
    expect(names(index.search({ sessionId: 's', query: 'weather' }))).toEqual([
      'getCurrentWeather',
    ]);
    expect(names(index.search({ sessionId: 's', query: 'invoice' }))).toEqual([
      'finance_lookup_invoice',
    ]);
    expect(names(index.search({ sessionId: 's', query: 'deploy' }))).toEqual(['deploy-service']);
    expect(names(index.search({ sessionId: 's', query: 'calendar events' }))).toEqual([
      'calendar.events.list',
    ]);
  });

  it('matches parameter names and descriptions from the input schema', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('s', [
      ref('convert', 'Converts an amount', {
        inputSchema: {
          type: 'object',
          properties: {
            sourceCurrency: { type: 'string', description: 'ISO 4217 code, e.g. EUR' },
            amount: { type: 'number' },
          },
        },
      }),
      ref('translate', 'Translates text'),
    ]);
    expect(names(index.search({ sessionId: 's', query: 'currency' }))).toEqual(['convert']);
    expect(names(index.search({ sessionId: 's', query: 'ISO 4217' }))).toEqual(['convert']);
  });

  it('weighs a name hit above a description hit above a parameter hit', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('s', [
      ref('list_orders', 'Lists orders', {
        inputSchema: { type: 'object', properties: { weather: { type: 'string' } } },
      }),
      ref('forecast', 'Returns the weather forecast'),
      ref('weather', 'Current conditions'),
    ]);
    expect(names(index.search({ sessionId: 's', query: 'weather' }))).toEqual([
      'weather',
      'forecast',
      'list_orders',
    ]);
  });

  it('leaves out a field whose weight is 0, and needs one positive weight', () => {
    const index = new Bm25ToolIndex({ boost: { parameters: 0 } });
    index.indexTools('s', [
      ref('convert', 'Converts an amount', {
        inputSchema: { type: 'object', properties: { currency: { type: 'string' } } },
      }),
    ]);
    expect(index.search({ sessionId: 's', query: 'currency' }).toolReferences).toEqual([]);
    expect(names(index.search({ sessionId: 's', query: 'amount' }))).toEqual(['convert']);
    expect(() => new Bm25ToolIndex({ boost: { name: 0, description: 0, parameters: 0 } })).toThrow(
      'at least one field weight must be positive',
    );
  });

  it('matches a word by its prefix unless prefix search is off', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('s', [ref('ship', 'Schedules a deployment of a service')]);
    expect(names(index.search({ sessionId: 's', query: 'deploy' }))).toEqual(['ship']);
    const exact = new Bm25ToolIndex({ prefix: false });
    exact.indexTools('s', [ref('ship', 'Schedules a deployment of a service')]);
    expect(exact.search({ sessionId: 's', query: 'deploy' }).toolReferences).toEqual([]);
  });

  it('stems plurals and -ing forms, and ignores stop words', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('s', [ref('billing', 'Creates invoices for customers')]);
    expect(names(index.search({ sessionId: 's', query: 'create an invoice' }))).toEqual([
      'billing',
    ]);
    expect(index.search({ sessionId: 's', query: 'the of and' }).toolReferences).toEqual([]);
    const unstemmed = new Bm25ToolIndex({ stemming: false, prefix: false });
    unstemmed.indexTools('s', [ref('billing', 'Creates invoices for customers')]);
    expect(unstemmed.search({ sessionId: 's', query: 'invoice' }).toolReferences).toEqual([]);
  });

  it('ranks the rare word above the common one: "look up an invoice" finds the invoice tool first', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('s', library());
    const found = names(
      index.search({ sessionId: 's', query: 'look up an invoice', maxResults: 5 }),
    );
    expect(found[0]).toBe('finance_lookup_invoice');
    expect(found).toHaveLength(5);
  });

  it('is isolated per session, clears, replaces by name, and finds nothing for unknown sessions', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('a', [ref('weatherA', 'weather in session a')]);
    index.indexTools('b', [ref('weatherB', 'weather in session b')]);
    expect(names(index.search({ sessionId: 'a', query: 'weather' }))).toEqual(['weatherA']);
    expect(names(index.search({ sessionId: 'b', query: 'weather' }))).toEqual(['weatherB']);
    index.indexTool('a', ref('weatherA', 'now about tides'));
    expect(index.size('a')).toBe(1);
    expect(index.search({ sessionId: 'a', query: 'session' }).toolReferences).toEqual([]);
    expect(names(index.search({ sessionId: 'a', query: 'tides' }))).toEqual(['weatherA']);
    index.clearIndex('a');
    expect(index.size('a')).toBe(0);
    expect(index.search({ sessionId: 'a', query: 'tides' }).toolReferences).toEqual([]);
    expect(index.search({ sessionId: 'zzz', query: 'weather' }).toolReferences).toEqual([]);
    expect(index.search({ sessionId: '', query: 'weather' }).toolReferences).toEqual([]);
  });

  it('stays correct while tools are replaced again and again between searches', async () => {
    const index = new Bm25ToolIndex();
    const tools = Array.from({ length: 300 }, (_, i) =>
      ref(`tool_${i}`, `Handles record number ${i} of the archive`),
    );
    index.indexTools('s', tools);
    for (let round = 0; round < 60; round++) {
      const replaced = tools.slice((round * 7) % 290, ((round * 7) % 290) + 10);
      index.indexTools(
        's',
        replaced.map((tool) => ref(tool.toolName, `${tool.summary}, revision ${round}`)),
      );
      // Lets a deferred clean-up of the replaced entries start between two changes.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(names(index.search({ sessionId: 's', query: `revision ${round}` }))).toHaveLength(10);
    }
    expect(index.size('s')).toBe(300);
    expect(
      names(index.search({ sessionId: 's', query: 'archive', maxResults: 1000 })),
    ).toHaveLength(300);
  });

  it('honours maxResults (default 10), minScore and the category filter', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('s', library());
    expect(index.search({ sessionId: 's', query: 'lookup' }).toolReferences).toHaveLength(10);
    expect(index.search({ sessionId: 's', query: 'lookup', maxResults: 3 }).totalMatches).toBe(3);
    const hr = index.search({
      sessionId: 's',
      query: 'lookup',
      categoryFilter: 'hr',
      maxResults: 50,
    });
    expect(hr.toolReferences.length).toBeGreaterThan(0);
    expect(hr.toolReferences.every((r) => r.toolName.startsWith('hr_'))).toBe(true);
    const strict = new Bm25ToolIndex({ minScore: 1e9 });
    strict.indexTools('s', library());
    expect(strict.search({ sessionId: 's', query: 'invoice' }).toolReferences).toEqual([]);
  });

  it('returns scores in descending order with its search type', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('s', library());
    const response = index.search({ sessionId: 's', query: 'cancel shipment' });
    const scores = response.toolReferences.map((r) => r.relevanceScore ?? 0);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(response.searchMetadata.searchType).toBe('Bm25ToolIndex');
  });
});
