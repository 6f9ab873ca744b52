import { redactCredentials } from '../internal/redact-credentials.js';

/** The type of one configuration property, and how a raw value (text or YAML scalar) becomes it. */
export type ConfigValueType =
  | { readonly kind: 'boolean' }
  | { readonly kind: 'integer'; readonly min: number; readonly max?: number }
  | { readonly kind: 'number'; readonly min: number; readonly max?: number }
  /** A positive integer, or `-1` / `'unlimited'` for no limit. */
  | { readonly kind: 'limit' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'string'; readonly secret?: boolean }
  /** A comma-separated text, or a YAML / JSON sequence of strings. */
  | { readonly kind: 'list' }
  /** Milliseconds: a number, `500ms`, `20s`, `5m`, `1h`, `1d`, or ISO-8601 (`PT20S`). */
  | { readonly kind: 'duration' }
  /** An http(s), redis(s), postgres(ql) or jdbc:postgresql URL. */
  | { readonly kind: 'url'; readonly schemes: readonly string[]; readonly secret?: boolean };

/** The outcome of converting one raw value. */
export type ConvertedValue = { ok: true; value: unknown } | { ok: false; problem: string };

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Converts a raw value (a string from a properties file or the environment, or a YAML scalar). */
export function convertConfigValue(type: ConfigValueType, raw: unknown): ConvertedValue {
  const text = typeof raw === 'string' ? raw.trim() : undefined;
  // A value that is not secret as a whole may still hold credentials (a URL's password).
  const shown = (): string =>
    ('secret' in type && type.secret) || raw === undefined
      ? ''
      : `, got ${redactCredentials(JSON.stringify(raw))}`;
  const fail = (expected: string): ConvertedValue => ({
    ok: false,
    problem: `expected ${expected}${shown()}`,
  });
  switch (type.kind) {
    case 'boolean': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      const lower = text?.toLowerCase();
      if (lower === 'true' || lower === 'false') return { ok: true, value: lower === 'true' };
      return fail('true or false');
    }
    case 'integer':
    case 'number': {
      const value =
        typeof raw === 'number'
          ? raw
          : text !== undefined && text !== ''
            ? Number(text)
            : Number.NaN;
      const what = type.kind === 'integer' ? 'an integer' : 'a number';
      const range =
        type.max === undefined ? ` of at least ${type.min}` : ` from ${type.min} to ${type.max}`;
      if (!Number.isFinite(value) || (type.kind === 'integer' && !Number.isInteger(value))) {
        return fail(`${what}${range}`);
      }
      if (value < type.min || (type.max !== undefined && value > type.max)) {
        return { ok: false, problem: `${value} is out of range: expected ${what}${range}` };
      }
      return { ok: true, value };
    }
    case 'limit': {
      if (raw === -1 || text === '-1' || text?.toLowerCase() === 'unlimited') {
        return { ok: true, value: 'unlimited' };
      }
      const value =
        typeof raw === 'number'
          ? raw
          : text !== undefined && text !== ''
            ? Number(text)
            : Number.NaN;
      if (!Number.isInteger(value)) return fail('a positive integer, or -1 for no limit');
      if (value <= 0) {
        return {
          ok: false,
          problem: `${value} is out of range: expected a positive integer, or -1 for no limit`,
        };
      }
      return { ok: true, value };
    }
    case 'enum': {
      const match = type.values.find((value) => value.toLowerCase() === text?.toLowerCase());
      if (match !== undefined) return { ok: true, value: match };
      return fail(`one of ${type.values.join(', ')}`);
    }
    case 'string': {
      if (typeof raw === 'string' || typeof raw === 'number')
        return { ok: true, value: String(raw) };
      return fail('a text');
    }
    case 'list': {
      if (Array.isArray(raw)) {
        if (raw.every((item) => typeof item === 'string' || typeof item === 'number')) {
          return { ok: true, value: raw.map(String) };
        }
        return fail('a list of texts');
      }
      if (typeof raw === 'string') {
        return {
          ok: true,
          value: raw
            .split(',')
            .map((item) => item.trim())
            .filter((item) => item !== ''),
        };
      }
      return fail('a comma-separated list');
    }
    case 'duration': {
      const value =
        typeof raw === 'number' ? raw : text === undefined ? Number.NaN : parseDuration(text);
      if (!Number.isFinite(value) || value <= 0) {
        return fail('a positive duration (milliseconds, or 500ms, 20s, 5m, 1h, PT20S)');
      }
      return { ok: true, value };
    }
    case 'url': {
      if (text === undefined || text === '') return fail('a URL');
      const candidate = text.startsWith('jdbc:') ? text.slice('jdbc:'.length) : text;
      let url: URL;
      try {
        url = new URL(candidate);
      } catch {
        return fail(`a URL (${type.schemes.join(', ')})`);
      }
      const scheme = url.protocol.slice(0, -1);
      if (!type.schemes.includes(scheme)) {
        return fail(`a ${type.schemes.join(' or ')} URL`);
      }
      return { ok: true, value: candidate };
    }
  }
}

/** Milliseconds of a Spring-style duration text, or `NaN`. */
function parseDuration(text: string): number {
  const simple = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/i.exec(text);
  if (simple) {
    const unit = (simple[2] ?? 'ms').toLowerCase();
    return Number(simple[1]) * (UNITS[unit] ?? Number.NaN);
  }
  const iso = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(text);
  if (iso && text.length > 1 && !/T$/i.test(text)) {
    const [, days, hours, minutes, seconds] = iso;
    return (
      Number(days ?? 0) * UNITS.d! +
      Number(hours ?? 0) * UNITS.h! +
      Number(minutes ?? 0) * UNITS.m! +
      Number(seconds ?? 0) * UNITS.s!
    );
  }
  return Number.NaN;
}
