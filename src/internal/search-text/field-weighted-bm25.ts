/** One field of a {@link FieldWeightedBm25} document. */
export interface Bm25Field {
  readonly weight: number;
  /** Length normalisation in [0, 1]: 0 ignores the field's length, 1 divides by it fully. */
  readonly lengthNormalization: number;
}

interface Posting {
  readonly id: number;
  /** Term frequency per field. */
  readonly frequencies: Float32Array;
}

interface StoredDocument {
  readonly lengths: Float32Array;
  readonly terms: readonly string[];
}

/**
 * BM25F (Robertson and Zaragoza's field-weighted BM25) over documents made of several token
 * fields: a term's frequency is weighted and length-normalised per field, summed over the fields,
 * and saturated once, so a word in the name and the description counts more than either alone but
 * never twice its saturated value. Queries are weighted terms (expansion terms count less than the
 * user's own words). Documents are added and removed by id; removal leaves a tombstone that the
 * postings shed when they outnumber live ones.
 */
export class FieldWeightedBm25 {
  readonly #fields: readonly Bm25Field[];
  readonly #k1: number;
  readonly #postings = new Map<string, Posting[]>();
  readonly #documentFrequency = new Map<string, number>();
  readonly #documents = new Map<number, StoredDocument>();
  readonly #lengthTotals: Float64Array;
  #dead = 0;
  #sortedTerms: string[] | undefined;

  constructor(fields: readonly Bm25Field[], k1 = 1.2) {
    this.#fields = fields;
    this.#k1 = k1;
    this.#lengthTotals = new Float64Array(fields.length);
  }

  /** Live documents. */
  get size(): number {
    return this.#documents.size;
  }

  /** Adds a document: one token list per field, in the order of the fields. */
  add(id: number, fields: readonly (readonly string[])[]): void {
    const frequencies = new Map<string, Float32Array>();
    const lengths = new Float32Array(this.#fields.length);
    fields.forEach((tokens, field) => {
      lengths[field] = tokens.length;
      this.#lengthTotals[field] = (this.#lengthTotals[field] as number) + tokens.length;
      for (const token of tokens) {
        let perField = frequencies.get(token);
        if (perField === undefined) {
          perField = new Float32Array(this.#fields.length);
          frequencies.set(token, perField);
        }
        perField[field] = (perField[field] as number) + 1;
      }
    });
    for (const [term, perField] of frequencies) {
      let list = this.#postings.get(term);
      if (list === undefined) {
        list = [];
        this.#postings.set(term, list);
        this.#sortedTerms = undefined;
      }
      list.push({ id, frequencies: perField });
      this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1);
    }
    this.#documents.set(id, { lengths, terms: [...frequencies.keys()] });
  }

  /** Removes a document; an unknown id is a no-op. */
  remove(id: number): void {
    const document = this.#documents.get(id);
    if (document === undefined) return;
    this.#documents.delete(id);
    document.lengths.forEach((length, field) => {
      this.#lengthTotals[field] = (this.#lengthTotals[field] as number) - length;
    });
    for (const term of document.terms) {
      const left = (this.#documentFrequency.get(term) ?? 1) - 1;
      if (left === 0) {
        this.#documentFrequency.delete(term);
        this.#postings.delete(term);
        this.#sortedTerms = undefined;
      } else {
        this.#documentFrequency.set(term, left);
      }
    }
    if (++this.#dead > this.#documents.size) this.#compact();
  }

  /** Number of live documents containing the term. */
  documentFrequency(term: string): number {
    return this.#documentFrequency.get(term) ?? 0;
  }

  /** Indexed terms that start with `prefix` and are longer than it. */
  termsStartingWith(prefix: string): string[] {
    this.#sortedTerms ??= [...this.#postings.keys()].sort();
    const terms = this.#sortedTerms;
    let low = 0;
    let high = terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((terms[middle] as string) <= prefix) low = middle + 1;
      else high = middle;
    }
    const out: string[] = [];
    for (let i = low; i < terms.length && (terms[i] as string).startsWith(prefix); i++) {
      out.push(terms[i] as string);
    }
    return out;
  }

  /**
   * Scores every live document matching at least one query term: Σ weight × idf × saturated
   * field-weighted frequency. `accept` can exclude documents (a category filter).
   */
  score(query: ReadonlyMap<string, number>, accept?: (id: number) => boolean): Map<number, number> {
    const scores = new Map<number, number>();
    const count = this.#documents.size;
    if (count === 0) return scores;
    const fields = this.#fields;
    const averages = Array.from(this.#lengthTotals, (total) => total / count || 1);
    const k1 = this.#k1;
    for (const [term, weight] of query) {
      const list = this.#postings.get(term);
      if (list === undefined || weight <= 0) continue;
      const frequency = this.#documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
      for (const posting of list) {
        const document = this.#documents.get(posting.id);
        if (document === undefined || (accept !== undefined && !accept(posting.id))) continue;
        let weighted = 0;
        for (let field = 0; field < fields.length; field++) {
          const tf = posting.frequencies[field] as number;
          if (tf === 0) continue;
          const { weight: fieldWeight, lengthNormalization: b } = fields[field] as Bm25Field;
          const relativeLength = (document.lengths[field] as number) / (averages[field] as number);
          weighted += (fieldWeight * tf) / (1 - b + b * relativeLength);
        }
        const contribution = (weight * idf * weighted * (k1 + 1)) / (weighted + k1);
        scores.set(posting.id, (scores.get(posting.id) ?? 0) + contribution);
      }
    }
    return scores;
  }

  #compact(): void {
    for (const [term, list] of this.#postings) {
      this.#postings.set(
        term,
        list.filter((posting) => this.#documents.has(posting.id)),
      );
    }
    this.#dead = 0;
  }
}
