import type { ConfigOrigin } from './config-error.js';

/** One key and its raw value, as read from a file, the environment or code. */
export interface ConfigEntry {
  /** The key as written (shown in errors). */
  readonly key: string;
  /** The key split into segments (`a.b[c.d]` → `a`, `b`, `c.d`). */
  readonly segments: readonly string[];
  /** Set for `key[3]=…`: the value is element 3 of a list. */
  readonly index?: number;
  /** A text (properties, environment) or a YAML / JSON value. */
  readonly value: unknown;
  readonly origin: ConfigOrigin;
}

/**
 * Splits a property key the way Spring Boot reads it: `.` separates segments, `[x.y]` is one
 * segment that may contain dots (a map key), and a trailing `[n]` is a list index.
 */
export function parseKeySegments(key: string): { segments: string[]; index?: number } | undefined {
  const segments: string[] = [];
  let index: number | undefined;
  let current = '';
  let i = 0;
  while (i < key.length) {
    const char = key[i]!;
    if (char === '.') {
      if (current !== '') segments.push(current);
      else if (i === 0 || key[i - 1] !== ']') return undefined;
      current = '';
      i += 1;
    } else if (char === '[') {
      const end = key.indexOf(']', i);
      if (end < 0) return undefined;
      const inner = key.slice(i + 1, end);
      if (current !== '') segments.push(current);
      current = '';
      if (/^\d+$/.test(inner) && end === key.length - 1) index = Number(inner);
      else if (inner === '') return undefined;
      else segments.push(inner);
      i = end + 1;
    } else {
      current += char;
      i += 1;
    }
  }
  if (current !== '') segments.push(current);
  else if (key.endsWith('.')) return undefined;
  if (segments.length === 0) return undefined;
  return index === undefined ? { segments } : { segments, index };
}
