/** Header names that carry a credential even when the adapter set them itself. */
const CREDENTIAL_HEADER = /auth|key|token|secret|session|cookie|signature|password|credential/i;

/**
 * Every value an error message must never contain: the API key, every value of a credential
 * header the adapter sends (`authorization`, `x-api-key`, `api-key`, cookies, anything named like a
 * key or token), and every value of a header the user passed in `headers` (a custom header may be
 * a gateway's credential whatever its name). For `Scheme token` values the token alone is a secret
 * too, and for HTTP Basic credentials the decoded `user:password` and the password.
 */
export function credentialSecrets(
  apiKey: string | undefined,
  sentHeaders: Readonly<Record<string, string>>,
  userHeaders: Readonly<Record<string, string>> = {},
): string[] {
  const secrets: string[] = [];
  if (apiKey) secrets.push(apiKey);
  const userHeaderNames = new Set(Object.keys(userHeaders).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(sentHeaders)) {
    if (typeof value !== 'string') continue;
    if (!CREDENTIAL_HEADER.test(name) && !userHeaderNames.has(name.toLowerCase())) continue;
    secrets.push(value);
    const schemed = /^\s*([A-Za-z][\w-]*)\s+(\S.*?)\s*$/.exec(value);
    if (!schemed) continue;
    const token = schemed[2] as string;
    secrets.push(token);
    if (schemed[1]?.toLowerCase() === 'basic') {
      const decoded = Buffer.from(token, 'base64').toString('utf8');
      secrets.push(decoded);
      const colon = decoded.indexOf(':');
      if (colon !== -1) secrets.push(decoded.slice(colon + 1));
    }
  }
  return secrets;
}
