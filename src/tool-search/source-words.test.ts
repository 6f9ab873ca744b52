import { describe, expect, it } from 'vitest';
import { sourceWords } from './source-words.js';

describe('sourceWords', () => {
  it('finds the capitalised name a request gives as its source', () => {
    expect(sourceWords('An overview of CNNs, referencing Wikipedia.')).toEqual(
      new Set(['wikipedia']),
    );
    expect(sourceWords('a web page about AI based on Wikipedia saved at /root/ai.html')).toEqual(
      new Set(['wikipedia']),
    );
    expect(sourceWords('prices from Amazon and reviews via DuckDuckGo')).toEqual(
      new Set(['amazon', 'duckduckgo']),
    );
    expect(sourceWords('the report from the Government Data portal')).toEqual(
      new Set(['government']),
    );
  });

  it('ignores lower-case words, a capitalised cue and requests naming no source', () => {
    expect(sourceWords('find papers on arxiv about agents')).toEqual(new Set());
    expect(sourceWords('From Paris, book a train')).toEqual(new Set());
    expect(sourceWords('What is the weather like today?')).toEqual(new Set());
    expect(sourceWords('')).toEqual(new Set());
  });
});
