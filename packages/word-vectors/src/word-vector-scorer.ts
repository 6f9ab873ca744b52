import { dotProducts } from './dot-products.js';
import type { WordVectors } from './word-vectors.js';

/** Power-iteration steps for the common direction; it converges in a few from the mean. */
const POWER_ITERATIONS = 12;

/**
 * Cosine similarity between a query and documents embedded as smooth-inverse-frequency weighted
 * sums of word vectors, after removing the documents' common direction (the first principal
 * component, which every text of a catalogue shares: Arora, Liang and Ma's "SIF" sentence
 * embedding). The direction is recomputed on the first search after documents change. Document
 * ids index the caller's score arrays: keep them small.
 */
export class WordVectorScorer {
  readonly #vectors: WordVectors;
  readonly #raw = new Map<number, Float32Array>();
  /** Ids of the documents in {@link #unit}, in its order. */
  #unitIds: number[] = [];
  /** The documents' vectors without the common direction, length 1, one after another. */
  #unit = new Float32Array(0);
  /** Each document's similarity to the last query, in {@link #unit}'s order. */
  #similarities = new Float64Array(0);
  #common: Float32Array | undefined;
  #stale = true;

  constructor(vectors: WordVectors) {
    this.#vectors = vectors;
  }

  /**
   * Adds or replaces a document from its words, each weighted by its entry in `weights` (by
   * position; 1 when absent); a document with no known word is left out.
   */
  add(id: number, words: Iterable<string>, weights?: readonly number[]): void {
    const vector = this.#vectors.embed(words, weights);
    if (vector === undefined) this.#raw.delete(id);
    else this.#raw.set(id, vector);
    this.#stale = true;
  }

  /** Removes a document; an unknown id is a no-op. */
  remove(id: number): void {
    if (this.#raw.delete(id)) this.#stale = true;
  }

  /**
   * Adds `weight` × the cosine similarity of the query's words with each document to
   * `scores[id]`, for the documents it is positive for.
   */
  addSimilarities(words: Iterable<string>, scores: Float64Array, weight: number): void {
    const query = this.#vectors.embed(words);
    if (query === undefined || this.#raw.size === 0) return;
    if (this.#stale) this.#refresh();
    this.#project(query);
    normalize(query);
    const ids = this.#unitIds;
    const similarities = this.#similarities;
    dotProducts(this.#unit, ids.length, query, similarities);
    for (let row = 0; row < ids.length; row++) {
      const similarity = similarities[row] as number;
      if (similarity > 0) {
        const id = ids[row] as number;
        scores[id] = (scores[id] as number) + weight * similarity;
      }
    }
  }

  #refresh(): void {
    const dimensions = this.#vectors.dimensions;
    // The common direction: power iteration on Σ v vᵀ, started from the mean.
    let direction = new Float32Array(dimensions);
    for (const vector of this.#raw.values()) add(direction, vector, 1);
    normalize(direction);
    for (let step = 0; step < POWER_ITERATIONS; step++) {
      const next = new Float32Array(dimensions);
      for (const vector of this.#raw.values()) add(next, vector, dot(vector, direction));
      if (!normalize(next)) break;
      direction = next;
    }
    this.#common = direction;
    this.#unitIds = [...this.#raw.keys()];
    this.#unit = new Float32Array(this.#raw.size * dimensions);
    this.#similarities = new Float64Array(this.#raw.size);
    let position = 0;
    for (const raw of this.#raw.values()) {
      const vector = Float32Array.from(raw);
      this.#project(vector);
      normalize(vector);
      this.#unit.set(vector, position * dimensions);
      position++;
    }
    this.#stale = false;
  }

  /** Removes the common direction from a vector in place. */
  #project(vector: Float32Array): void {
    const common = this.#common;
    if (common !== undefined) add(vector, common, -dot(vector, common));
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

/** target += factor × vector, in place. */
function add(target: Float32Array, vector: Float32Array, factor: number): void {
  for (let i = 0; i < target.length; i++) {
    target[i] = (target[i] as number) + factor * (vector[i] as number);
  }
}

/** Scales a vector to length 1 in place; false (and unchanged) when it is zero. */
function normalize(vector: Float32Array): boolean {
  const length = Math.sqrt(dot(vector, vector));
  if (length === 0) return false;
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / length;
  return true;
}
