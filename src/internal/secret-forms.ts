/** Secrets shorter than this are not redacted: they would redact ordinary words, and real keys are long. */
const MIN_SECRET_LENGTH = 6;

/**
 * The forms in which a server may echo each secret back: as sent, JSON-escaped (inside a JSON
 * string) and URL-encoded (inside a URL or form body), longest first so that a longer form is
 * replaced before a shorter one inside it.
 */
export function secretForms(secrets: Iterable<string | undefined>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(encodeURIComponent(secret));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}
