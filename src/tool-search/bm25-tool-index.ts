import { optionNames, rejectUnknownOptions } from '../internal/option-names.js';
import { LexicalToolIndex, type LexicalToolIndexOptions } from './lexical-tool-index.js';

/** Options of {@link Bm25ToolIndex}: field weights and limits, nothing that changes the scoring. */
export type Bm25ToolIndexOptions = Pick<
  LexicalToolIndexOptions,
  'fieldWeights' | 'minScore' | 'defaultMaxResults'
>;

const OPTION_NAMES = optionNames<Bm25ToolIndexOptions>()(
  'fieldWeights',
  'minScore',
  'defaultMaxResults',
);

/**
 * Plain field-weighted BM25 over a tool's name, description, parameter names and parameter
 * descriptions: a {@link LexicalToolIndex} that takes no option beyond field weights and limits
 * (no prefix matching, no query expansion), whatever `LexicalToolIndex`'s defaults become. It is
 * the baseline tool-search measurements compare every index with, and ranks exactly as
 * `new LexicalToolIndex()` does today. Its searches report `searchType: 'Bm25ToolIndex'`.
 */
export class Bm25ToolIndex extends LexicalToolIndex {
  /**
   * @throws InvalidArgumentError on an option it does not have (`prefix`, `queryExpansion`, …),
   * and as {@link LexicalToolIndex} on bad weights or limits.
   */
  constructor(options: Bm25ToolIndexOptions = {}) {
    rejectUnknownOptions(options, OPTION_NAMES, 'Bm25ToolIndex');
    super(options);
  }
}
