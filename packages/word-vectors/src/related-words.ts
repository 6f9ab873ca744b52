import { bundledTableLoader, openTable, TABLE_HEADER_BYTES } from './bundled-table.js';

/** Where a relation between two words comes from. */
export type RelatedWordSource = 'synonym' | 'neighbour';

/** One word related to a looked-up word. */
export interface RelatedWord {
  readonly word: string;
  readonly source: RelatedWordSource;
  /** Relatedness in [0, 1]: sense frequency for a synonym, cosine similarity for a neighbour. */
  readonly weight: number;
}

/** The table's location: `data/` at the package root (beside this file's folder, src or dist). */
const TABLE_URL = new URL('../data/related-words.bin.gz', import.meta.url);

/**
 * The word-relatedness table (`data/related-words.bin.gz`, built by
 * `scripts/build-related-words.mjs`): for about 50,000 English words, their WordNet 3.1 synonyms
 * and their nearest GloVe neighbours. Read once per process by {@link loadRelatedWords}.
 */
export class RelatedWords {
  readonly #words: readonly string[];
  readonly #offsets: Uint32Array;
  readonly #entries: Uint32Array;

  private constructor(words: readonly string[], offsets: Uint32Array, entries: Uint32Array) {
    this.#words = words;
    this.#offsets = offsets;
    this.#entries = entries;
  }

  /** Words in the table. */
  get size(): number {
    return this.#words.length;
  }

  /** The words related to a lower-case word, strongest first; empty for an unknown word. */
  lookup(word: string): RelatedWord[] {
    const index = this.#indexOf(word);
    if (index < 0) return [];
    const out: RelatedWord[] = [];
    const end = this.#offsets[index + 1] as number;
    for (let i = this.#offsets[index] as number; i < end; i++) {
      const entry = this.#entries[i] as number;
      out.push({
        word: this.#words[entry >>> 9] as string,
        source: (entry >>> 8) & 1 ? 'neighbour' : 'synonym',
        weight: (entry & 0xff) / 255,
      });
    }
    return out;
  }

  #indexOf(word: string): number {
    let low = 0;
    let high = this.#words.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const candidate = this.#words[middle] as string;
      if (candidate === word) return middle;
      if (candidate < word) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** Decodes the table's uncompressed bytes. @throws Error when they are not a table. */
  static decode(bytes: Uint8Array): RelatedWords {
    const { buffer, view } = openTable(bytes, 'TLLX', 'related-words');
    const wordCount = view.getUint32(8, true);
    const entryCount = view.getUint32(12, true);
    const textBytes = view.getUint32(16, true);
    const offsetsStart = TABLE_HEADER_BYTES + textBytes + ((4 - (textBytes % 4)) % 4);
    const entriesStart = offsetsStart + (wordCount + 1) * 4;
    if (entriesStart + entryCount * 4 !== buffer.byteLength) {
      throw new Error('the related-words table is truncated or has trailing bytes');
    }
    const words = new TextDecoder()
      .decode(new Uint8Array(buffer, TABLE_HEADER_BYTES, textBytes))
      .split('\n');
    if (words.length !== wordCount) throw new Error('the related-words table has a bad word list');
    return new RelatedWords(
      words,
      new Uint32Array(buffer, offsetsStart, wordCount + 1),
      new Uint32Array(buffer, entriesStart, entryCount),
    );
  }
}

/** The bundled table, read and decoded on the first call (a few hundred ms), then shared. */
export const loadRelatedWords: () => Promise<RelatedWords> = bundledTableLoader(
  TABLE_URL,
  (bytes) => RelatedWords.decode(bytes),
);
