/** One prepared statement of a {@link SqliteDatabase}; the subset toolloop uses. */
export interface SqliteStatement {
  run(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
  /** The first row only (better-sqlite3's `get`); used, with {@link pluck}, when present. */
  get?(...parameters: unknown[]): unknown;
  /** Rows as their first column's value (better-sqlite3's `pluck`); used when present. */
  pluck?(toggle?: boolean): SqliteStatement;
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
