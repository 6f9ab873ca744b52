/** One stored tool embedding: the vector under its key. */
export interface ToolEmbeddingCacheEntry {
  /**
   * A hash of the model id and the text embedded (64 hex digits): equal keys mean equal vectors.
   */
  readonly key: string;
  readonly vector: Float32Array;
}

/**
 * A shared store of tool embeddings, so that a fleet of processes embeds each tool once: a vector
 * index reads it before calling its embedding model and writes what it embedded. Keys are hashes
 * of the model id and the tool's text, so a changed tool gets a new key and an unchanged tool its
 * old one. Implementations on the stores users run are in `toolloop/memory/redis`,
 * `toolloop/memory/postgres` and `toolloop/memory/sqlite`; any key-value store fits these two
 * methods. A failing cache never fails indexing: the index embeds what it could not read.
 */
export interface ToolEmbeddingCache {
  /** The vectors stored under these keys, in the same order; `undefined` where there is none. */
  get(keys: readonly string[]): Promise<readonly (Float32Array | undefined)[]>;
  /** Stores the vectors (a key already present is overwritten with the same vector). */
  set(entries: readonly ToolEmbeddingCacheEntry[]): Promise<void>;
}
