/** One prepared statement of a {@link SqliteDatabase}; the subset toolloop uses. */
export interface SqliteStatement {
  run(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
}

/**
 * The part of a `better-sqlite3` `Database` toolloop uses. Declared here so this package never
 * loads the driver itself: pass your own `new Database(file)`.
 */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  readonly inTransaction: boolean;
}
