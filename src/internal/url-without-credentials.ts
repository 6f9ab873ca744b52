/**
 * `url` for display: scheme, host and path only. The user name and password, the query and the
 * fragment (where credentials and signed parameters sit) are left out. `undefined` for text that
 * is not a URL.
 */
export function urlWithoutCredentials(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return `${parsed.protocol}${parsed.host === '' ? '' : `//${parsed.host}`}${parsed.pathname}`;
}
