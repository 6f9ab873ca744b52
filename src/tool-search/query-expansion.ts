/** A word searched besides a query's own words, and how much it counts. */
export interface WeightedWord {
  /** The word (or a few words: each is searched). */
  readonly word: string;
  /**
   * Its weight against the query's own words, which weigh 1: a value above 1 counts as 1, and a
   * value that is not a positive number drops the word.
   */
  readonly weight: number;
}

/** What a {@link QueryExpansion} may know of the search it expands. */
export interface QueryExpansionContext {
  /**
   * The query's distinct words as the index searches them: lower case, identifiers split, stop
   * words left out, at most 64.
   */
  readonly queryWords: readonly string[];
  /** Tools in the searched session. */
  readonly toolCount: number;
  /** How many of the session's tools contain the word (matched as the index matches words). */
  toolsWith(word: string): number;
}

/**
 * Words related to a query word, searched with it by a `LexicalToolIndex`: synonyms, a domain's
 * jargon (`pto` → `vacation`), another language's words. The core ships no expansion and no word
 * list; pass one as the index's `queryExpansion` option (for example from
 * `@toolloop/word-vectors`, or a map of your own catalogue's terms). Called once per query word
 * of every search, so it must answer from memory: load any table before creating the index.
 */
export interface QueryExpansion {
  /** The words to search besides `word` (one of `context.queryWords`); none is fine. */
  expand(word: string, context: QueryExpansionContext): Iterable<WeightedWord>;
}
