/** Per-call options of {@link EmbeddingModel.embed}. */
export interface EmbedOptions {
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/**
 * Turns texts into vectors whose cosine similarity reflects closeness in meaning. One method: embed
 * a batch; the result has one vector per text, in order, all of the same dimension. An in-process
 * model is an object with that method:
 *
 * ```ts
 * const embeddingModel: EmbeddingModel = {
 *   id: 'my-model-v1',
 *   embed: async (texts) => texts.map((text) => myModel.vectorOf(text)),
 * };
 * ```
 */
export interface EmbeddingModel {
  /**
   * Names the model's vector space (model, version, dimensions). Cached tool embeddings are keyed
   * by it, so two models with the same id must give the same vectors; a shared
   * `ToolEmbeddingCache` needs it. Absent: vectors are cached in the process only.
   */
  readonly id?: string;
  /** Embeds `texts` in one batch: one vector per text, in order, all of the same dimension. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]>;
}
