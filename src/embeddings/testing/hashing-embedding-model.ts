import { InvalidArgumentError } from '../../errors/index.js';
import { STOP_WORDS } from '../../internal/search-text/stop-words.js';
import { stemTerm } from '../../internal/search-text/suffix-stemmer.js';
import { words } from '../../internal/search-text/words.js';
import type { EmbeddingModel } from '../embedding-model.js';

/** Options of {@link HashingEmbeddingModel}. */
export interface HashingEmbeddingModelOptions {
  /** Vector length. Default 1024. */
  readonly dimensions?: number;
  /** Weight of each word's character n-grams relative to the word itself. Default 0.4. */
  readonly charNgramWeight?: number;
  /** Character n-gram lengths. Default `[3, 4]`. */
  readonly charNgramSizes?: readonly number[];
}

/**
 * A deterministic, no-network embedding by feature hashing, for tests: each stemmed word and each
 * of its character n-grams (with word-boundary marks) is hashed into one of `dimensions` slots
 * with a hashed sign, weighted by 1 + log(count), and the vector is L2-normalised. Similar words
 * share n-grams (`invoice` / `invoicing`), but it knows no synonyms. Not part of the package: on
 * the public tool-retrieval sets it ranks below the lexical default (BM25) everywhere that matters
 * (LiveMCPBench recall@5 28.9% vs 39.0%, BFCL live_multiple 73.4% vs 85.6%, the paraphrases 23.7%
 * vs 35.5%), alone or fused with BM25 (docs/semantic-tool-search.md), so no no-network embedding
 * model ships.
 */
export class HashingEmbeddingModel implements EmbeddingModel {
  /** Vector length. */
  readonly dimensions: number;
  readonly #charNgramWeight: number;
  readonly #charNgramSizes: readonly number[];

  constructor(options: HashingEmbeddingModelOptions = {}) {
    const dimensions = options.dimensions ?? 1024;
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new InvalidArgumentError('dimensions must be a positive integer');
    }
    this.dimensions = dimensions;
    this.#charNgramWeight = options.charNgramWeight ?? 0.4;
    this.#charNgramSizes = options.charNgramSizes ?? [3, 4];
  }

  /** {@inheritDoc EmbeddingModel.embed} */
  async embed(
    texts: readonly string[],
    options: { signal?: AbortSignal } = {},
  ): Promise<number[][]> {
    options.signal?.throwIfAborted();
    return texts.map((text) => this.embedOne(text));
  }

  /** Embeds one text synchronously. */
  embedOne(text: string): number[] {
    const stems = new Map<string, number>();
    for (const word of words(text)) {
      if (STOP_WORDS.has(word)) continue;
      const stem = stemTerm(word);
      stems.set(stem, (stems.get(stem) ?? 0) + 1);
    }
    // Features are counted per distinct word, so a text repeating one word stays cheap.
    const counts = new Map<string, number>();
    const add = (feature: string, times: number) =>
      counts.set(feature, (counts.get(feature) ?? 0) + times);
    for (const [stem, times] of stems) {
      add(`w:${stem}`, times);
      if (this.#charNgramWeight > 0) {
        const marked = `<${stem}>`;
        for (const size of this.#charNgramSizes) {
          for (let i = 0; i + size <= marked.length; i++) {
            add(`c:${marked.slice(i, i + size)}`, times);
          }
        }
      }
    }
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const [feature, count] of counts) {
      const hash = fnv1a(feature);
      const slot = hash % this.dimensions;
      const sign = (hash >>> 31) & 1 ? -1 : 1;
      const weight = feature.startsWith('w:') ? 1 : this.#charNgramWeight;
      vector[slot] = (vector[slot] as number) + sign * weight * (1 + Math.log(count));
    }
    let norm = 0;
    for (const value of vector) norm += value * value;
    norm = Math.sqrt(norm);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }
}

/** 32-bit FNV-1a over UTF-16 code units, as an unsigned integer. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
