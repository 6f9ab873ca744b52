import { describe, expect, it } from 'vitest';
import { splitIdentifier, words } from './words.js';

describe('splitIdentifier', () => {
  it('splits camelCase, PascalCase with acronyms, snake_case, kebab-case and dots', () => {
    expect(splitIdentifier('getCurrentWeather')).toEqual(['get', 'current', 'weather']);
    expect(splitIdentifier('HTTPServerStatus')).toEqual(['http', 'server', 'status']);
    expect(splitIdentifier('finance_lookup_invoice')).toEqual(['finance', 'lookup', 'invoice']);
    expect(splitIdentifier('get-user.profile_v2')).toEqual(['get', 'user', 'profile', 'v2']);
  });
});

describe('words', () => {
  it('lower-cases words of free text and splits identifiers inside it', () => {
    expect(words('Look up the getInvoice tool, please!')).toEqual([
      'look',
      'up',
      'the',
      'get',
      'invoice',
      'tool',
      'please',
    ]);
  });

  it('turns a CJK run into overlapping character pairs', () => {
    expect(words('查询天气 now')).toEqual(['查询', '询天', '天气', 'now']);
  });

  it('keeps letters of other scripts and digits', () => {
    expect(words('Müller café 42')).toEqual(['müller', 'café', '42']);
  });

  it('handles 100 KB of one upper-case letter without backtracking', () => {
    const started = performance.now();
    expect(words('A'.repeat(100_000))).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
