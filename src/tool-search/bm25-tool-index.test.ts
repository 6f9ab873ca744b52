import { describe, expect, it } from 'vitest';
import { Bm25ToolIndex } from './bm25-tool-index.js';
import { LexicalToolIndex } from './lexical-tool-index.js';
import { generateToolLibrary } from './testing/generate-tool-library.js';
import type { ToolReference } from './tool-reference.js';

const library = (): ToolReference[] =>
  generateToolLibrary().map((callback) => ({
    toolName: callback.definition.name,
    summary: callback.definition.description,
    inputSchema: callback.definition.inputSchema,
    category: callback.metadata.category as string,
  }));

const ranking = (index: LexicalToolIndex, query: string, categoryFilter?: string) =>
  index
    .search({ sessionId: 's', query, maxResults: 20, categoryFilter })
    .toolReferences.map((hit) => [hit.toolName, hit.relevanceScore]);

describe('Bm25ToolIndex', () => {
  it('ranks exactly as a LexicalToolIndex with its default options', () => {
    const bm25 = new Bm25ToolIndex({ fieldWeights: { parameterNames: 0.5 }, minScore: 0.1 });
    const lexical = new LexicalToolIndex({ fieldWeights: { parameterNames: 0.5 }, minScore: 0.1 });
    expect(bm25).toBeInstanceOf(LexicalToolIndex);
    bm25.indexTools('s', library());
    lexical.indexTools('s', library());
    for (const query of ['look up an invoice', 'cancel a shipment', 'rotate the API key']) {
      expect(ranking(bm25, query)).toEqual(ranking(lexical, query));
      expect(ranking(bm25, query, 'security')).toEqual(ranking(lexical, query, 'security'));
    }
    expect(ranking(bm25, 'look up an invoice')[0]?.[0]).toBe('finance_lookup_invoice');
  });

  it('names itself in the search metadata', () => {
    const index = new Bm25ToolIndex();
    index.indexTools('s', library());
    const response = index.search({ sessionId: 's', query: 'invoice' });
    expect(response.searchMetadata.searchType).toBe('Bm25ToolIndex');
  });

  it('takes no option that changes the scoring, and names the one it refuses', () => {
    // A JavaScript caller can pass anything: prefix matching and query expansion belong to
    // LexicalToolIndex, and `boost` and `stemming` were options of an earlier implementation.
    const loose = (options: object) =>
      new Bm25ToolIndex(options as ConstructorParameters<typeof Bm25ToolIndex>[0]);
    expect(() => loose({ prefix: true })).toThrow("Bm25ToolIndex has no option 'prefix'");
    expect(() => loose({ queryExpansion: { expand: () => [] } })).toThrow(
      "Bm25ToolIndex has no option 'queryExpansion'",
    );
    expect(() => loose({ boost: { name: 2 } })).toThrow("Bm25ToolIndex has no option 'boost'");
    expect(() => loose({ stemming: false })).toThrow("Bm25ToolIndex has no option 'stemming'");
    expect(() => new Bm25ToolIndex({ fieldWeights: { name: -1 } })).toThrow(
      'field weights must be numbers >= 0',
    );
  });
});
