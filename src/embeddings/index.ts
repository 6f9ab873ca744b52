export type { EmbeddingModel, EmbedOptions } from './embedding-model.js';
export {
  OpenAiCompatibleEmbeddingModel,
  type OpenAiCompatibleEmbeddingModelOptions,
} from './open-ai-compatible-embedding-model.js';
export type { ToolEmbeddingCache, ToolEmbeddingCacheEntry } from './tool-embedding-cache.js';
