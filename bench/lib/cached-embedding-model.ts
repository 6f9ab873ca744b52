import { createHash } from 'node:crypto';
import type { EmbeddingModel, EmbedOptions, ToolEmbeddingCache } from 'toolloop';

/**
 * An embedding model whose every vector (queries too) is kept in a {@link ToolEmbeddingCache}
 * under the same key a `VectorToolIndex` uses (SHA-256 of the model id, a NUL and the text): the
 * quality runs embed each text of the data sets once, ever, and reread it from the cache file on
 * later runs. Not for timings.
 */
export class CachedEmbeddingModel implements EmbeddingModel {
  readonly id: string;
  readonly #model: EmbeddingModel;
  readonly #cache: ToolEmbeddingCache;
  /** Texts embedded by the model itself (not read from the cache). */
  embedded = 0;

  constructor(model: EmbeddingModel & { readonly id: string }, cache: ToolEmbeddingCache) {
    this.id = model.id;
    this.#model = model;
    this.#cache = cache;
  }

  async embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]> {
    const keys = texts.map((text) =>
      createHash('sha256').update(this.id).update('\u0000').update(text).digest('hex'),
    );
    const stored = await this.#cache.get(keys);
    const missing = [...new Set(texts.filter((_, i) => stored[i] === undefined))];
    const fresh = new Map<string, Float32Array>();
    if (missing.length > 0) {
      const vectors = await this.#model.embed(missing, options);
      this.embedded += missing.length;
      missing.forEach((text, i) => {
        fresh.set(text, Float32Array.from(vectors[i] as number[]));
      });
      await this.#cache.set(
        texts.flatMap((text, i) => {
          const vector = fresh.get(text);
          return vector === undefined || stored[i] !== undefined
            ? []
            : [{ key: keys[i] as string, vector }];
        }),
      );
    }
    return texts.map((text, i) => Array.from(stored[i] ?? (fresh.get(text) as Float32Array)));
  }
}
