/** The result shape toolloop reads from a `pg` query. */
export interface PostgresQueryResult {
  rows: Record<string, unknown>[];
}

/** Anything that runs a parameterised query: a `pg` `Pool`, `PoolClient` or `Client`. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /**
   * `pg`'s transaction status of a connection (`'I'` idle, `'T'` in a transaction, `'E'` in a
   * failed one). Read, when present, before toolloop begins a transaction of its own on it.
   */
  getTransactionStatus?(): string | null;
}

/** A connection checked out of a pool; `release(error)` destroys it instead of reusing it. */
export interface PostgresPoolClient extends PostgresQueryable {
  release(destroy?: boolean | Error): void;
  /**
   * `pg`'s `'error'` event: emitted when the connection dies while checked out (a terminated
   * backend, a reset socket). Listened to while toolloop holds the connection, when present.
   */
  on?(event: 'error', listener: (error: Error) => void): unknown;
  /** Removes the listener {@link PostgresPoolClient.on} added. */
  removeListener?(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * The part of a `pg` `Pool` toolloop uses. Declared here so this package never loads the driver
 * itself: pass your own `new Pool({ connectionString })`.
 */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresPoolClient>;
}
