export { Bm25ToolIndex, type Bm25ToolIndexOptions } from './bm25-tool-index.js';
export { extractToolNameReferences } from './extract-tool-name-references.js';
export {
  type HybridFusion,
  HybridToolIndex,
  type HybridToolIndexOptions,
} from './hybrid-tool-index.js';
export {
  LexicalToolIndex,
  type LexicalToolIndexFieldWeights,
  type LexicalToolIndexOptions,
} from './lexical-tool-index.js';
export type { QueryExpansion, QueryExpansionContext, WeightedWord } from './query-expansion.js';
export {
  isValidRegexPattern,
  MAX_REGEX_PATTERN_LENGTH,
  queryToRegexPattern,
  RegexToolIndex,
} from './regex-tool-index.js';
export {
  type SessionEviction,
  type SessionEvictionOptions,
  sessionEviction,
} from './session-eviction.js';
export type { IndexToolsOptions, ToolIndex } from './tool-index.js';
export type {
  SearchMetadata,
  ToolReference,
  ToolSearchRequest,
  ToolSearchResponse,
} from './tool-reference.js';
export type { ToolSearchFallback, ToolSearchFallbackListener } from './tool-search-fallback.js';
export { schemaParameterText, toolSearchText } from './tool-search-text.js';
export {
  TOOL_SEARCH_TOOL_DESCRIPTION,
  TOOL_SEARCH_TOOL_INPUT_SCHEMA,
  TOOL_SEARCH_TOOL_NAME,
  TOOL_SEARCH_TOOL_SESSION_ID_KEY,
  type ToolSearchToolOptions,
  toolSearchTool,
} from './tool-search-tool.js';
export {
  DEFAULT_TOOL_SEARCH_SESSION_ID_KEY,
  DEFAULT_TOOL_SEARCH_SYSTEM_MESSAGE_SUFFIX,
  ToolSearchToolCallingAdvisor,
  type ToolSearchToolCallingAdvisorOptions,
} from './tool-search-tool-calling-advisor.js';
export { toolSetFingerprint } from './tool-set-fingerprint.js';
export { VectorToolIndex, type VectorToolIndexOptions } from './vector-tool-index.js';
