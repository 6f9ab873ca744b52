/**
 * Replaces every occurrence of each secret (API keys, auth header values) in `text` with
 * `[redacted]`, so provider error bodies that echo a key never reach an error message.
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    // Very short values would redact ordinary words; real keys are long.
    if (!secret || secret.length < 6) continue;
    scrubbed = scrubbed.split(secret).join('[redacted]');
  }
  return scrubbed;
}
