import { bundledTableLoader, openTable, TABLE_HEADER_BYTES } from './bundled-table.js';

/** The table's location: `data/` at the package root (beside this file's folder, src or dist). */
const TABLE_URL = new URL('../data/word-vectors.bin.gz', import.meta.url);
/**
 * Smooth inverse frequency (Arora, Liang and Ma, 2017): a word of probability p weighs
 * a / (a + p), so frequent words ("make", "get") count little and rare ones ("psychologist") fully.
 */
const SIF_A = 1e-4;
/** Word probabilities follow Zipf's law: p(rank r) ≈ 1 / (r × H), H the vocabulary's harmonic number. */
const ZIPF_NORMALIZER = 11.6;

/**
 * The word vectors (`data/word-vectors.bin.gz`, built by `scripts/build-word-vectors.mjs`): GloVe
 * 6B 100-dimensional vectors of the 50,000 most frequent English words, 8-bit quantised. Read once
 * per process by {@link loadWordVectors}.
 */
export class WordVectors {
  /** Components per vector. */
  readonly dimensions: number;
  readonly #rank: Map<string, number>;
  readonly #scales: Float32Array;
  readonly #components: Int8Array;

  private constructor(words: readonly string[], scales: Float32Array, components: Int8Array) {
    this.dimensions = components.length / Math.max(1, words.length);
    this.#rank = new Map(words.map((word, rank) => [word, rank]));
    this.#scales = scales;
    this.#components = components;
  }

  /** Words in the table. */
  get size(): number {
    return this.#rank.size;
  }

  /**
   * The sum of the vectors of the known words, each weighted by its smooth inverse frequency
   * times its entry in `weights` (by position; 1 when absent); unknown words are skipped.
   * `undefined` when no word is known.
   */
  embed(words: Iterable<string>, weights?: readonly number[]): Float32Array | undefined {
    const dimensions = this.dimensions;
    const sum = new Float32Array(dimensions);
    let known = false;
    let position = -1;
    for (const word of words) {
      position++;
      const rank = this.#rank.get(word);
      if (rank === undefined) continue;
      known = true;
      const probability = 1 / ((rank + 1) * ZIPF_NORMALIZER);
      const weight =
        ((weights?.[position] ?? 1) *
          (SIF_A / (SIF_A + probability)) *
          (this.#scales[rank] as number)) /
        127;
      const start = rank * dimensions;
      for (let d = 0; d < dimensions; d++) {
        sum[d] = (sum[d] as number) + weight * (this.#components[start + d] as number);
      }
    }
    return known ? sum : undefined;
  }

  /** Decodes the table's uncompressed bytes. @throws Error when they are not a table. */
  static decode(bytes: Uint8Array): WordVectors {
    const { buffer, view } = openTable(bytes, 'TLWV', 'word-vectors');
    const wordCount = view.getUint32(8, true);
    const dimensions = view.getUint32(12, true);
    const textBytes = view.getUint32(16, true);
    const scalesStart = TABLE_HEADER_BYTES + textBytes + ((4 - (textBytes % 4)) % 4);
    const componentsStart = scalesStart + wordCount * 4;
    if (componentsStart + wordCount * dimensions !== buffer.byteLength) {
      throw new Error('the word-vectors table is truncated or has trailing bytes');
    }
    const words = new TextDecoder()
      .decode(new Uint8Array(buffer, TABLE_HEADER_BYTES, textBytes))
      .split('\n');
    if (words.length !== wordCount) throw new Error('the word-vectors table has a bad word list');
    return new WordVectors(
      words,
      new Float32Array(buffer, scalesStart, wordCount),
      new Int8Array(buffer, componentsStart, wordCount * dimensions),
    );
  }
}

/** The bundled table, read and decoded on the first call, then shared. */
export const loadWordVectors: () => Promise<WordVectors> = bundledTableLoader(TABLE_URL, (bytes) =>
  WordVectors.decode(bytes),
);
