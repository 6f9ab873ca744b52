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
  migratePostgresChatMemory,
  type PostgresChatMemorySchemaOptions,
  type PostgresChatMemoryTables,
  postgresChatMemoryMigration,
  postgresChatMemoryTables,
} from './postgres-schema.js';
