export type { EmbeddingModel, EmbedOptions } from './embedding-model.js';
export {
  HashingEmbeddingModel,
  type HashingEmbeddingModelOptions,
} from './hashing-embedding-model.js';
export {
  OpenAiCompatibleEmbeddingModel,
  type OpenAiCompatibleEmbeddingModelOptions,
} from './open-ai-compatible-embedding-model.js';
