const ESCAPE = '\uE000';

function needsEscape(code: number, next: number, previous: number): boolean {
  if (code === 0 || code === 0xe000) return true;
  if (code >= 0xd800 && code <= 0xdbff) return !(next >= 0xdc00 && next <= 0xdfff);
  if (code >= 0xdc00 && code <= 0xdfff) return !(previous >= 0xd800 && previous <= 0xdbff);
  return false;
}

/**
 * Makes a string storable where NUL and lone surrogates are refused (PostgreSQL text and JSONB,
 * UTF-8 keys): each such code unit, and the escape character U+E000 itself, becomes U+E000 plus
 * four hex digits. Strings without them (nearly all) come back unchanged.
 */
export function encodeSafeText(text: string): string {
  let result = '';
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const next = index + 1 < text.length ? text.charCodeAt(index + 1) : -1;
    const previous = index > 0 ? text.charCodeAt(index - 1) : -1;
    if (!needsEscape(code, next, previous)) {
      if (code >= 0xd800 && code <= 0xdbff) index++;
      continue;
    }
    result += text.slice(start, index) + ESCAPE + code.toString(16).padStart(4, '0');
    start = index + 1;
  }
  return start === 0 ? text : result + text.slice(start);
}

/** Reverses {@link encodeSafeText}. */
export function decodeSafeText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(/\uE000([0-9a-f]{4})/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** Applies {@link encodeSafeText} to every string and object key of a JSON value. */
export function encodeSafeJson(value: unknown): unknown {
  return mapStrings(value, encodeSafeText);
}

/**
 * `JSON.stringify(encodeSafeJson(value))` for plain JSON data (the checked messages a store
 * writes). `JSON.stringify` writes NUL and lone surrogates as `\u` escapes and the escape
 * character as it is, so a text holding neither has nothing to encode and is the answer: the copy
 * of the value is only made for the rare message that needs it.
 */
export function stringifySafeJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\u') || text.includes(ESCAPE)
    ? JSON.stringify(encodeSafeJson(value))
    : text;
}

/** Reverses {@link encodeSafeJson}. */
export function decodeSafeJson(value: unknown): unknown {
  // Nearly every stored value holds no escape: it is given back as it is rather than copied key
  // by key (every message of every read passes here).
  return holdsEscape(value) ? mapStrings(value, decodeSafeText) : value;
}

/**
 * {@link decodeSafeJson} for a value `JSON.parse` made from `text`: a text holding neither the
 * escape character nor a `\u` escape (which could spell it) has nothing to decode, which a scan
 * of the text tells faster than a walk of the value.
 */
export function decodeParsedSafeJson(value: unknown, text: string): unknown {
  return text.includes(ESCAPE) || text.includes('\\u') ? decodeSafeJson(value) : value;
}

/** Whether any string or key in a JSON value holds the escape character. */
function holdsEscape(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(ESCAPE);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (holdsEscape(value[index])) return true;
    }
    return false;
  }
  if (typeof value === 'object' && value !== null) {
    for (const key in value) {
      if (key.includes(ESCAPE) || holdsEscape((value as Record<string, unknown>)[key])) return true;
    }
  }
  return false;
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      Object.defineProperty(result, map(key), {
        value: mapStrings(item, map),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return result;
  }
  return value;
}
