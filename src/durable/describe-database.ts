/**
 * A PostgreSQL URL as messages show it: host, port and database, never the user or password.
 * Text that is not a URL is shown as `the configured database`.
 */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    const database = parsed.pathname.replace(/^\//, '') || 'postgres';
    return `${parsed.hostname}:${parsed.port || '5432'}/${database}`;
  } catch {
    return 'the configured database';
  }
}

/** `text` with every occurrence of `url` replaced by {@link describeDatabase}'s form of it. */
export function withoutCredentials(text: string, url: string): string {
  return text.split(url).join(describeDatabase(url));
}

const CONNECTION_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P03',
];

/** Whether an error (or its cause) says the database could not be reached. */
export function isConnectionFailure(error: unknown): boolean {
  for (
    let current = error, depth = 0;
    current !== undefined && current !== null && depth < 5;
    depth++
  ) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && CONNECTION_CODES.includes(code)) return true;
    if (typeof message === 'string' && CONNECTION_CODES.some((known) => message.includes(known))) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
