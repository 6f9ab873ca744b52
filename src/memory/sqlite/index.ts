export {
  SqliteChatMemoryRepository,
  type SqliteChatMemoryRepositoryOptions,
} from './sqlite-chat-memory-repository.js';
export type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';
export {
  SqliteToolEmbeddingCache,
  type SqliteToolEmbeddingCacheOptions,
} from './sqlite-tool-embedding-cache.js';
