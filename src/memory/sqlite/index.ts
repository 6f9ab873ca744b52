export {
  SqliteChatMemoryRepository,
  type SqliteChatMemoryRepositoryOptions,
} from './sqlite-chat-memory-repository.js';
export type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';
