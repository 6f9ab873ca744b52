import { LexicalToolIndex, type LexicalToolIndexOptions } from './lexical-tool-index.js';

/**
 * Options of {@link Bm25ToolIndex}: those of {@link LexicalToolIndex}.
 * @deprecated Use {@link LexicalToolIndexOptions}.
 */
export type Bm25ToolIndexOptions = LexicalToolIndexOptions;

/**
 * The field-weighted BM25 index under its earlier name: a {@link LexicalToolIndex} with the same
 * options and results, whose searches report `searchType: 'Bm25ToolIndex'`. The separate BM25
 * index it used to be (on MiniSearch) was removed: the field-weighted one matched or beat it on
 * every measured data set at a fraction of the search time (docs/tool-search.md).
 * @deprecated Use {@link LexicalToolIndex}.
 */
export class Bm25ToolIndex extends LexicalToolIndex {}
