import { describe, expect, it } from 'vitest';
import {
  isValidRegexPattern,
  MAX_REGEX_PATTERN_LENGTH,
  queryToRegexPattern,
  RegexToolIndex,
} from './regex-tool-index.js';
import type { ToolReference } from './tool-reference.js';

const ref = (toolName: string, summary: string, category?: string): ToolReference => ({
  toolName,
  summary,
  ...(category === undefined ? {} : { category }),
});

const names = (response: { toolReferences: readonly ToolReference[] }) =>
  response.toolReferences.map((r) => r.toolName);

describe('queryToRegexPattern', () => {
  it('converts queries as the reference does', () => {
    expect(queryToRegexPattern('weather tools')).toBe('(weather|tools)');
    expect(queryToRegexPattern('get user data')).toBe('(get|user|data)');
    expect(queryToRegexPattern('GET INVENTORY')).toBe('(get|inventory)');
    expect(queryToRegexPattern('get_user and the-data')).toBe('(get_user|the-data)');
  });

  it('drops stop words and 1-character tokens, de-duplicating in first-occurrence order', () => {
    expect(queryToRegexPattern('find the weather, x, and weather for a city')).toBe(
      '(find|weather|city)',
    );
  });

  it('falls back to all tokens when only stop words remain, and to .* for a blank query', () => {
    expect(queryToRegexPattern('the a of')).toBe('(the|a|of)');
    expect(queryToRegexPattern('   ')).toBe('.*');
    expect(queryToRegexPattern('')).toBe('.*');
    expect(queryToRegexPattern(null)).toBe('.*');
    expect(queryToRegexPattern(',;:')).toBe('.*');
  });

  it('escapes every regex metacharacter', () => {
    expect(queryToRegexPattern('a+b* c|d ^$ \\x')).toBe('(a\\+b\\*|c\\|d|\\^\\$|\\\\x)');
  });

  it('caps the pattern at 200 characters by dropping tokens from the end', () => {
    const query = Array.from({ length: 60 }, (_, i) => `token${i}`).join(' ');
    const pattern = queryToRegexPattern(query);
    expect(pattern.length).toBeLessThanOrEqual(MAX_REGEX_PATTERN_LENGTH);
    expect(pattern.startsWith('(token0|token1|')).toBe(true);
    expect(queryToRegexPattern('x'.repeat(500))).toBe(`(${'x'.repeat(64)})`);
  });

  it("counts the reference's inline (?i) flag toward the 200 characters: the same tokens survive", () => {
    // The reference builds '(?i)(token0|…|token24)' (195 characters); token25 would take it to 203.
    const query = Array.from({ length: 60 }, (_, i) => `token${i}`).join(' ');
    const expected = `(${Array.from({ length: 25 }, (_, i) => `token${i}`).join('|')})`;
    expect(queryToRegexPattern(query)).toBe(expected);
    expect(`(?i)${queryToRegexPattern(query)}`.length).toBeLessThanOrEqual(
      MAX_REGEX_PATTERN_LENGTH,
    );
  });
});

describe('isValidRegexPattern', () => {
  it('accepts valid patterns and rejects invalid, blank, null and over-long ones', () => {
    expect(isValidRegexPattern('(weather|tools)')).toBe(true);
    expect(isValidRegexPattern('[invalid')).toBe(false);
    expect(isValidRegexPattern(null)).toBe(false);
    expect(isValidRegexPattern('  ')).toBe(false);
    expect(isValidRegexPattern('a'.repeat(201))).toBe(false);
  });
});

describe('RegexToolIndex', () => {
  const sample = () => {
    const index = new RegexToolIndex();
    index.indexTools('s1', [
      ref('weatherTool', 'Get the current weather for a city'),
      ref('toolA', 'Look up the stock price of a company'),
      ref('calculator', 'Evaluate an arithmetic expression'),
    ]);
    return index;
  };

  it('reports its search type', () => {
    expect(sample().search({ sessionId: 's1', query: 'weather' }).searchMetadata.searchType).toBe(
      'RegexToolIndex',
    );
  });

  it('matches by name and by description', () => {
    const index = sample();
    expect(names(index.search({ sessionId: 's1', query: 'weather' }))).toEqual(['weatherTool']);
    expect(names(index.search({ sessionId: 's1', query: 'stock price' }))).toEqual(['toolA']);
  });

  it('ranks a name match above a description match', () => {
    const index = new RegexToolIndex();
    index.indexTools('s', [
      ref('forecastService', 'Returns the weather forecast'),
      ref('weatherService', 'Returns current conditions'),
    ]);
    expect(names(index.search({ sessionId: 's', query: 'weather' }))).toEqual([
      'weatherService',
      'forecastService',
    ]);
  });

  it('scores name hits twice description hits, with earlier hits weighing more', () => {
    const index = new RegexToolIndex();
    index.indexTools('s', [ref('weather', 'no match here')]);
    const [hit] = index.search({ sessionId: 's', query: 'weather' }).toolReferences;
    expect(hit?.relevanceScore).toBeCloseTo(2 + 1 / (1 + 0));
    expect(hit?.summary).toBe('no match here');
  });

  it('keeps indexing order among equal scores and honours maxResults (default 10)', () => {
    const index = new RegexToolIndex();
    index.indexTools(
      's',
      Array.from({ length: 12 }, (_, i) => ref(`tool${i}`, 'same text')),
    );
    expect(names(index.search({ sessionId: 's', query: 'same', maxResults: 3 }))).toEqual([
      'tool0',
      'tool1',
      'tool2',
    ]);
    const all = index.search({ sessionId: 's', query: 'same' });
    expect(all.toolReferences).toHaveLength(10);
    expect(all.totalMatches).toBe(10);
  });

  it('counts sizes, clears a session, and keeps sessions isolated', () => {
    const index = sample();
    index.indexTools('s2', [ref('weatherOther', 'weather for session two')]);
    expect(index.size('s1')).toBe(3);
    expect(index.totalSize()).toBe(4);
    expect(names(index.search({ sessionId: 's1', query: 'weather' }))).toEqual(['weatherTool']);
    expect(names(index.search({ sessionId: 's2', query: 'weather' }))).toEqual(['weatherOther']);
    index.clearIndex('s1');
    expect(index.size('s1')).toBe(0);
    expect(index.search({ sessionId: 's1', query: 'weather' }).toolReferences).toEqual([]);
    expect(names(index.search({ sessionId: 's2', query: 'weather' }))).toEqual(['weatherOther']);
  });

  it('finds nothing for an empty, unknown or blank session', () => {
    const index = sample();
    expect(index.search({ sessionId: 'nobody', query: 'weather' }).toolReferences).toEqual([]);
    expect(index.search({ sessionId: '  ', query: 'weather' }).toolReferences).toEqual([]);
  });

  it('replaces an entry re-indexed under the same name', () => {
    const index = sample();
    index.indexTool('s1', ref('weatherTool', 'Now about tides'));
    expect(index.size('s1')).toBe(3);
    expect(index.search({ sessionId: 's1', query: 'tides' }).toolReferences[0]?.summary).toBe(
      'Now about tides',
    );
  });

  it('matches everything for a blank query', () => {
    expect(sample().search({ sessionId: 's1', query: '' }).toolReferences).toHaveLength(3);
  });

  it('narrows by category, ignoring a category no tool has', () => {
    const index = new RegexToolIndex();
    index.indexTools('s', [
      ref('finance_lookup_invoice', 'Look up an invoice', 'finance'),
      ref('crm_lookup_contact', 'Look up a contact', 'crm'),
    ]);
    const filtered = index.search({ sessionId: 's', query: 'lookup', categoryFilter: 'CRM' });
    expect(names(filtered)).toEqual(['crm_lookup_contact']);
    expect(filtered.searchMetadata.categoryFilterApplied).toBe(true);
    const guessed = index.search({ sessionId: 's', query: 'lookup', categoryFilter: 'billing' });
    expect(names(guessed)).toHaveLength(2);
    expect(guessed.searchMetadata.categoryFilterApplied).toBe(false);
  });

  it('clears everything on close', () => {
    const index = sample();
    index.close();
    expect(index.totalSize()).toBe(0);
  });
});
