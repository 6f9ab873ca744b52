import { secretForms } from './secret-forms.js';

/** What replaces a credential. */
export const REDACTED = '***';

// `scheme://user:password@` and `scheme://token@`: the password (or the lone token) goes.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:]*)(?::([^\s/?#]*))?@/gi;
// `Bearer <token>`, `Basic <credentials>` (headers, or text that quotes them).
const AUTH_SCHEME =
  /\b(Authorization["']?\s*[:=]\s*["']?)?(Bearer|Basic|Token)(\s+)([A-Za-z0-9\-._~+/]+=*)/gi;
// Outside a header, the word after "Bearer", "Basic" or "Token" is a credential only when it
// looks like one: "Token limit exceeded" keeps its words.
const DIGIT_OR_SYMBOL = /[0-9._~+/=-]/;
const UPPER = /[A-Z]/g;
const LOWER = /[a-z]/g;
// Query parameters and `key=value` pairs named like a credential.
const NAMED_SECRET =
  /\b((?:access[_-]?token|refresh[_-]?token|id[_-]?token|token|api[_-]?key|apikey|secret|client[_-]?secret|password|passwd|pwd|sig|signature)=)[^\s&#"',;]+/gi;
// Credentials of well-known services, recognisable by their form alone.
const KNOWN_TOKEN =
  /\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g;

/**
 * `text` with the credentials it may hold replaced by `***`: the password (or token) of URLs
 * (`postgres://app:***@db/app`), `Bearer` / `Basic` credentials, `key=value` pairs and query
 * parameters named like a credential (`api_key`, `token`, `password`, `signature`, …), tokens of
 * well-known forms (OpenAI and Anthropic keys, GitHub and Slack tokens, AWS access key ids,
 * Google API keys, JWTs), and each of `secrets` in every form a server may echo it in (as sent,
 * JSON-escaped, URL-encoded).
 */
export function redactCredentials(
  text: string,
  secrets: Iterable<string | undefined> = [],
): string {
  let redacted = text;
  for (const form of secretForms(secrets)) redacted = redacted.split(form).join(REDACTED);
  return redacted
    .replace(URL_USERINFO, (_match, scheme: string, user: string, password?: string) =>
      password === undefined ? `${scheme}${REDACTED}@` : `${scheme}${user}:${REDACTED}@`,
    )
    .replace(
      AUTH_SCHEME,
      (match, header: string | undefined, scheme: string, space: string, value: string) =>
        header !== undefined || looksLikeCredential(value)
          ? `${header ?? ''}${scheme}${space}${REDACTED}`
          : match,
    )
    .replace(NAMED_SECRET, `$1${REDACTED}`)
    .replace(KNOWN_TOKEN, REDACTED);
}

/** A digit or a symbol, or mixed case as base64 has (two capitals and two small letters). */
function looksLikeCredential(value: string): boolean {
  if (value.length < 6) return false;
  if (DIGIT_OR_SYMBOL.test(value)) return true;
  return (value.match(UPPER)?.length ?? 0) >= 2 && (value.match(LOWER)?.length ?? 0) >= 2;
}

const CREDENTIAL_VARIABLE = /key|token|secret|password|passwd|credential|auth|cookie|session/i;

/**
 * Values of this process's environment variables named like a credential (`*_API_KEY`,
 * `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, …): secrets a tool's error text must never carry.
 */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && CREDENTIAL_VARIABLE.test(name)) secrets.push(value);
  }
  return secrets;
}
