export {
  type RelatedWordsExpansionOptions,
  relatedWordsExpansion,
} from './related-words-expansion.js';
export { WordVectorToolIndex, type WordVectorToolIndexOptions } from './word-vector-tool-index.js';
