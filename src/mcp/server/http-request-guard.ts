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
  if (host === undefined || !matches(host, HOST, allowedHosts)) {
    return `Host ${JSON.stringify(host ?? '')} is not allowed`;
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !matches(origin, ORIGIN, allowedOrigins)) {
    return `Origin ${JSON.stringify(origin)} is not allowed`;
  }
  return undefined;
}

// The whole header must be a host (a name, an IPv4 address or a bracketed IPv6 address) and an
// optional port: `[::1].evil.com`, `evil.com@127.0.0.1` or `127.0.0.1/x` are not loopback names.
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;
const ORIGIN = /^(https?:\/\/(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+))(:\d{1,5})?$/;

/** The value matches an entry exactly, or matches an entry without a port once its port is gone. */
function matches(value: string, form: RegExp, allowed: readonly string[]): boolean {
  const lower = value.toLowerCase();
  const parsed = form.exec(lower);
  if (parsed === null) return false;
  const bare = parsed[1] as string;
  return allowed.some((entry) => {
    const expected = entry.toLowerCase();
    return expected === lower || expected === bare;
  });
}

/**
 * True for an address of this machine's loopback interface (127.0.0.0/8, `::1`, and their
 * IPv4-mapped IPv6 forms). A request from any other address came from another machine (or
 * through a proxy on another machine).
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.toLowerCase().replace(/^::ffff:/, '');
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/** True for a host name or address that only this machine reaches (`localhost`, 127.x, `::1`). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^\[|\]$/g, '');
  return bare === 'localhost' || isLoopbackAddress(bare);
}

/** The bearer token of a request, or `undefined`. */
export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
