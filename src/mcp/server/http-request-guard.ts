import type { IncomingMessage } from 'node:http';

/** Host names a loopback-bound server answers to by default (any port). */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** Origins (any port) a loopback-bound server accepts by default; requests without Origin pass. */
export const LOOPBACK_ORIGINS: readonly string[] = [
  'http://127.0.0.1',
  'http://localhost',
  'http://[::1]',
  'https://127.0.0.1',
  'https://localhost',
  'https://[::1]',
];

/**
 * Checks `Host` and `Origin` against allow-lists (the defence against DNS rebinding, where a web
 * page reaches a local server under a name it controls). An entry without a port matches any
 * port; an empty list refuses everything. Returns the reason to refuse, or `undefined`.
 */
export function refusedHostOrOrigin(
  request: IncomingMessage,
  allowedHosts: readonly string[],
  allowedOrigins: readonly string[],
): string | undefined {
  const host = request.headers.host;
  if (host === undefined || !matches(host.toLowerCase(), allowedHosts, hostWithoutPort)) {
    return `Host ${JSON.stringify(host ?? '')} is not allowed`;
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !matches(origin.toLowerCase(), allowedOrigins, originWithoutPort)) {
    return `Origin ${JSON.stringify(origin)} is not allowed`;
  }
  return undefined;
}

function matches(
  value: string,
  allowed: readonly string[],
  withoutPort: (value: string) => string,
): boolean {
  const bare = withoutPort(value);
  return allowed.some((entry) => {
    const expected = entry.toLowerCase();
    return expected === value || expected === bare;
  });
}

function hostWithoutPort(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

function originWithoutPort(origin: string): string {
  const scheme = origin.indexOf('://');
  if (scheme === -1) return origin;
  return origin.slice(0, scheme + 3) + hostWithoutPort(origin.slice(scheme + 3));
}

/** The bearer token of a request, or `undefined`. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
