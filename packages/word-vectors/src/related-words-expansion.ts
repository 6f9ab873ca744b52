import { InvalidArgumentError, type QueryExpansion, type WeightedWord } from 'toolloop';
import { loadRelatedWords, type RelatedWords } from './related-words.js';

/** Options of {@link relatedWordsExpansion}. */
export interface RelatedWordsExpansionOptions {
  /** Weight of WordNet synonyms (times their sense frequency). Default 0.4. */
  readonly synonyms?: number;
  /** Weight of GloVe nearest neighbours (times their cosine similarity). Default 0.5. */
  readonly relatedWords?: number;
  /**
   * Queries of up to this many words (stop words aside) are expanded at full weight; longer ones
   * at `fullWeightWords / words` of it: a long request already says what it needs in many words.
   * Default 6.
   */
  readonly fullWeightWords?: number;
  /**
   * Only query words found in at most this share of the session's tools (and always a word found
   * in at most one) are expanded: a word many tools use finds them itself, and its related words
   * mostly add noise. Default 0.005 (1 tool in 200); `1` expands every word.
   */
  readonly maxToolShare?: number;
}

/**
 * A `LexicalToolIndex` query expansion from the package's word table: each query word also
 * searches for its WordNet 3.1 synonyms and its nearest GloVe neighbours, weighted below the
 * word itself. Reads the table (3.7 MB) on the first call in a process, then shares it.
 * @throws InvalidArgumentError when a weight is negative, `fullWeightWords` is not positive, or
 * `maxToolShare` is outside [0, 1].
 */
export async function relatedWordsExpansion(
  options: RelatedWordsExpansionOptions = {},
): Promise<QueryExpansion> {
  const synonyms = options.synonyms ?? 0.4;
  const neighbours = options.relatedWords ?? 0.5;
  const fullWeightWords = options.fullWeightWords ?? 6;
  const maxToolShare = options.maxToolShare ?? 0.005;
  if (!(synonyms >= 0 && neighbours >= 0 && fullWeightWords > 0)) {
    throw new InvalidArgumentError('synonyms and relatedWords must be >= 0, fullWeightWords > 0');
  }
  if (!(maxToolShare >= 0 && maxToolShare <= 1)) {
    throw new InvalidArgumentError('maxToolShare must be a number in [0, 1]');
  }
  const table: RelatedWords = await loadRelatedWords();
  return {
    *expand(word, context): Iterable<WeightedWord> {
      const mostTools = Math.max(1, maxToolShare * context.toolCount);
      if (context.toolsWith(word) > mostTools) return;
      const damping = Math.min(1, fullWeightWords / context.queryWords.length);
      for (const related of table.lookup(word)) {
        const weight = related.source === 'synonym' ? synonyms : neighbours;
        if (weight > 0) yield { word: related.word, weight: damping * weight * related.weight };
      }
    },
  };
}
