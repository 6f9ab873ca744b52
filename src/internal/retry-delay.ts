/** How long to wait between attempts of a provider request. */
export interface RetryDelayOptions {
  /** Delay before the first retry, doubled for each further one. Default 500 ms. */
  initialMs?: number;
  /** Upper bound of a computed backoff delay. Default 8,000 ms. */
  maxMs?: number;
  /** Longest server-requested delay (`retry-after`) that is honoured. Default 60,000 ms. */
  maxServerDelayMs?: number;
}

/**
 * The server's requested delay in milliseconds from `retry-after-ms` or `retry-after` (seconds or
 * an HTTP date), or `undefined` when it sent none or an unusable one.
 */
export function serverRetryDelayMs(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null) {
    const value = Number.parseFloat(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null) return undefined;
  const seconds = Number.parseFloat(retryAfter);
  if (Number.isFinite(seconds) && /^\s*\d+(\.\d+)?\s*$/.test(retryAfter)) {
    return Math.max(0, seconds * 1000);
  }
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The delay a Google API error body asks for (`error.details[]` of type `google.rpc.RetryInfo`,
 * `retryDelay: "34.4s"`), in milliseconds, or `undefined` when the body holds none. Gemini sends
 * it with a 429 instead of a `retry-after` header.
 */
export function retryInfoDelayMs(body: string): number | undefined {
  if (!body.includes('RetryInfo')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const details = (parsed as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const record = detail as Record<string, unknown> | null;
    if (typeof record !== 'object' || record === null) continue;
    const type = record['@type'];
    if (typeof type !== 'string' || !type.endsWith('google.rpc.RetryInfo')) continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(String(record.retryDelay));
    if (match) return Number(match[1]) * 1000;
  }
  return undefined;
}

/**
 * The delay before retry number `retry` (0-based): the server's delay when it gave a usable one,
 * otherwise exponential backoff with up to 25% jitter taken off, so that many clients retrying
 * together spread out.
 */
export function retryDelayMs(
  retry: number,
  serverDelayMs: number | undefined,
  options: RetryDelayOptions = {},
  random: () => number = Math.random,
): number {
  const maxServerDelay = options.maxServerDelayMs ?? 60_000;
  if (serverDelayMs !== undefined && serverDelayMs <= maxServerDelay) return serverDelayMs;
  const initial = options.initialMs ?? 500;
  const max = options.maxMs ?? 8_000;
  const backoff = Math.min(max, initial * 2 ** retry);
  return backoff * (1 - 0.25 * random());
}
