/** DBOS's default for how long a system database session may sit idle inside a transaction. */
const IDLE_TRANSACTION_TIMEOUT_MS = 60_000;

/**
 * The system database URL as handed to DBOS: with `idle_in_transaction_session_timeout` set
 * when each connection starts (the libpq `options` parameter) unless the URL sets it already.
 *
 * DBOS sets the same timeout itself otherwise, by queueing a `SET` on every new pooled
 * connection ahead of the borrower's query, which makes `pg` print "Calling client.query() when
 * the client is already executing a query is deprecated" in every process that uses
 * `toolloop/durable`. Set at connection start, the timeout is the same and nothing is queued.
 * A string that is not a URL (a libpq keyword string) is returned as it is.
 */
export function withSessionTimeoutOption(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') return url;
  const options = parsed.searchParams.get('options');
  if (options?.includes('idle_in_transaction_session_timeout')) return url;
  const setting = `-c idle_in_transaction_session_timeout=${IDLE_TRANSACTION_TIMEOUT_MS}`;
  parsed.searchParams.set('options', options ? `${options} ${setting}` : setting);
  return parsed.toString();
}
