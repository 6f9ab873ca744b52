/** One field of a {@link FieldWeightedBm25} document. */
export interface Bm25Field {
  readonly weight: number;
  /** Length normalisation in [0, 1]: 0 ignores the field's length, 1 divides by it fully. */
  readonly lengthNormalization: number;
}

/** The documents containing a term, in the order they were added. */
interface Postings {
  readonly ids: number[];
  /** Term frequency per field: as many numbers per document as there are fields. */
  readonly frequencies: number[];
}

/**
 * BM25F (Robertson and Zaragoza's field-weighted BM25) over documents made of several token
 * fields: a term's frequency is weighted and length-normalised per field, summed over the fields,
 * and saturated once, so a word in the name and the description counts more than either alone but
 * never twice its saturated value. Queries are weighted terms (expansion terms count less than the
 * user's own words). Documents are added and removed by id; ids index arrays (here and in the
 * caller's score array), so keep them small and reuse the ids of removed documents.
 */
export class FieldWeightedBm25 {
  readonly #fieldCount: number;
  readonly #fieldWeights: Float64Array;
  readonly #lengthNormalizations: Float64Array;
  readonly #k1: number;
  readonly #postings = new Map<string, Postings>();
  /** Field lengths per document id, as many numbers per id as there are fields. */
  #lengths = new Float64Array(0);
  /** Each live document's distinct terms, by id. */
  readonly #documentTerms: (readonly string[] | undefined)[] = [];
  readonly #lengthTotals: Float64Array;
  readonly #averageLengths: Float64Array;
  #size = 0;
  #sortedTerms: string[] | undefined;

  constructor(fields: readonly Bm25Field[], k1 = 1.2) {
    this.#fieldCount = fields.length;
    this.#fieldWeights = Float64Array.from(fields, (field) => field.weight);
    this.#lengthNormalizations = Float64Array.from(fields, (field) => field.lengthNormalization);
    this.#k1 = k1;
    this.#lengthTotals = new Float64Array(fields.length);
    this.#averageLengths = new Float64Array(fields.length);
  }

  /** Live documents. */
  get size(): number {
    return this.#size;
  }

  /** Adds a document (replacing one of the same id): one token list per field, in field order. */
  add(id: number, fields: readonly (readonly string[])[]): void {
    this.remove(id);
    const fieldCount = this.#fieldCount;
    const frequencies = new Map<string, number[]>();
    if (this.#lengths.length < (id + 1) * fieldCount) {
      const grown = new Float64Array(Math.max(2 * this.#lengths.length, (id + 1) * fieldCount));
      grown.set(this.#lengths);
      this.#lengths = grown;
    }
    this.#lengths.fill(0, id * fieldCount, (id + 1) * fieldCount);
    fields.forEach((tokens, field) => {
      this.#lengths[id * fieldCount + field] = tokens.length;
      this.#lengthTotals[field] = (this.#lengthTotals[field] as number) + tokens.length;
      for (const token of tokens) {
        let perField = frequencies.get(token);
        if (perField === undefined) {
          perField = new Array<number>(fieldCount).fill(0);
          frequencies.set(token, perField);
        }
        perField[field] = (perField[field] as number) + 1;
      }
    });
    for (const [term, perField] of frequencies) {
      let postings = this.#postings.get(term);
      if (postings === undefined) {
        postings = { ids: [], frequencies: [] };
        this.#postings.set(term, postings);
        this.#sortedTerms = undefined;
      }
      postings.ids.push(id);
      for (const frequency of perField) postings.frequencies.push(frequency);
    }
    this.#documentTerms[id] = [...frequencies.keys()];
    this.#size++;
  }

  /** Removes a document; an unknown id is a no-op. */
  remove(id: number): void {
    const terms = this.#documentTerms[id];
    if (terms === undefined) return;
    this.#documentTerms[id] = undefined;
    this.#size--;
    const fieldCount = this.#fieldCount;
    for (let field = 0; field < fieldCount; field++) {
      this.#lengthTotals[field] =
        (this.#lengthTotals[field] as number) - (this.#lengths[id * fieldCount + field] as number);
    }
    for (const term of terms) {
      const postings = this.#postings.get(term) as Postings;
      const position = postings.ids.indexOf(id);
      postings.ids.splice(position, 1);
      postings.frequencies.splice(position * fieldCount, fieldCount);
      if (postings.ids.length === 0) {
        this.#postings.delete(term);
        this.#sortedTerms = undefined;
      }
    }
  }

  /** Whether some live document contains the term in the given field. */
  inField(term: string, field: number): boolean {
    const postings = this.#postings.get(term);
    if (postings === undefined) return false;
    const fieldCount = this.#fieldCount;
    for (let posting = 0; posting < postings.ids.length; posting++) {
      if ((postings.frequencies[posting * fieldCount + field] as number) > 0) return true;
    }
    return false;
  }

  /** Number of live documents containing the term. */
  documentFrequency(term: string): number {
    return this.#postings.get(term)?.ids.length ?? 0;
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
   * Adds each live document's score for the query to `scores[id]` (documents matching no query
   * term get nothing): Σ weight × idf × saturated field-weighted frequency.
   */
  score(query: ReadonlyMap<string, number>, scores: Float64Array): void {
    const count = this.#size;
    if (count === 0) return;
    const fieldCount = this.#fieldCount;
    const fieldWeights = this.#fieldWeights;
    const normalizations = this.#lengthNormalizations;
    const lengths = this.#lengths;
    const averages = this.#averageLengths;
    for (let field = 0; field < fieldCount; field++) {
      averages[field] = (this.#lengthTotals[field] as number) / count || 1;
    }
    const k1 = this.#k1;
    for (const [term, weight] of query) {
      const postings = this.#postings.get(term);
      if (postings === undefined || weight <= 0) continue;
      const { ids, frequencies } = postings;
      const frequency = ids.length;
      const idf = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
      for (let posting = 0; posting < ids.length; posting++) {
        const id = ids[posting] as number;
        let weighted = 0;
        for (let field = 0; field < fieldCount; field++) {
          const tf = frequencies[posting * fieldCount + field] as number;
          if (tf === 0) continue;
          const b = normalizations[field] as number;
          const relativeLength =
            (lengths[id * fieldCount + field] as number) / (averages[field] as number);
          weighted += ((fieldWeights[field] as number) * tf) / (1 - b + b * relativeLength);
        }
        scores[id] =
          (scores[id] as number) + (weight * idf * weighted * (k1 + 1)) / (weighted + k1);
      }
    }
  }
}
