// toolloop/memory/postgres: chat memory and the tool-embedding cache on PostgreSQL (peer: pg).
export {
  PostgresChatMemoryRepository,
  type PostgresChatMemoryRepositoryOptions,
} from './postgres-chat-memory-repository.js';
export type {
  PostgresPool,
  PostgresPoolClient,
  PostgresQueryable,
  PostgresQueryResult,
} from './postgres-client.js';
export {
  type PostgresChatMemorySchemaOptions,
  postgresChatMemoryMigration,
} from './postgres-schema.js';
export {
  PostgresToolEmbeddingCache,
  type PostgresToolEmbeddingCacheOptions,
  postgresToolEmbeddingCacheMigration,
} from './postgres-tool-embedding-cache.js';
