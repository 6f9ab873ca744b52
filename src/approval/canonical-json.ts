import { createHash } from 'node:crypto';

/**
 * The canonical JSON text of a JSON value: object keys sorted by UTF-16 code units, no
 * whitespace, numbers and strings as `JSON.stringify` writes them. Two values that are equal as
 * JSON give the same text whatever their key order, so the text can be hashed and signed.
 * `undefined` object entries are left out, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      text += canonicalJson(value[index]);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const entry = record[key];
    if (entry === undefined || typeof entry === 'function') continue;
    if (!first) text += ',';
    first = false;
    text += `${JSON.stringify(key)}:${canonicalJson(entry)}`;
  }
  return `${text}}`;
}

/**
 * The hash a decision is bound to: SHA-256 (hex) of the canonical JSON of a call's parsed
 * arguments. Whitespace and key order of the model's text do not change it; any change of a value
 * does.
 */
export function hashToolArguments(args: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(args)).digest('hex');
}
