export {
  RedisChatMemoryRepository,
  type RedisChatMemoryRepositoryOptions,
} from './redis-chat-memory-repository.js';
export type { RedisClient } from './redis-client.js';
export {
  RedisToolEmbeddingCache,
  type RedisToolEmbeddingCacheOptions,
} from './redis-tool-embedding-cache.js';
