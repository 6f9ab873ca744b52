/** Per-call options of {@link EmbeddingModel.embed}. */
export interface EmbedOptions {
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/**
 * Turns texts into vectors whose cosine similarity reflects closeness in meaning. One method: embed
 * a batch; the result has one vector per text, in order, all of the same dimension.
 */
export interface EmbeddingModel {
  /** Embeds `texts` in one batch: one vector per text, in order, all of the same dimension. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<number[][]>;
}
