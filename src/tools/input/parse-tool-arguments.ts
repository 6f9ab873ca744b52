import type { ToolInputIssue } from '../../errors/index.js';
import { describeValueType } from '../describe-value-type.js';
import { escapeJsonPointerToken } from './json-pointer.js';

/** Limits applied by {@link parseToolArguments}. */
export interface ParseToolArgumentsOptions {
  /** Largest accepted argument text, in UTF-8 bytes. Default 1 MiB. */
  maxBytes?: number;
  /** Deepest accepted nesting of objects and arrays (the top-level object is depth 1). Default 64. */
  maxDepth?: number;
}

/** Outcome of {@link parseToolArguments}: the argument object, or the problems found in the text. */
export type ParsedToolArguments =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; issues: ToolInputIssue[] };

/** Default {@link ParseToolArgumentsOptions.maxBytes}: 1 MiB. */
export const DEFAULT_MAX_TOOL_ARGUMENTS_BYTES = 1024 * 1024;
/** Default {@link ParseToolArgumentsOptions.maxDepth}. */
export const DEFAULT_MAX_TOOL_ARGUMENTS_DEPTH = 64;

// Arguments come from the model and may be hostile or broken; a long list of issues helps nobody.
const MAX_ISSUES = 20;

/**
 * Parses the raw JSON arguments a model wrote for a tool call. Never throws: every problem is
 * reported as an issue with a JSON-pointer path, and issue messages never repeat the text itself.
 *
 * Empty or whitespace-only text is the empty object. Rejected: text over `maxBytes` (checked before
 * parsing), nesting deeper than `maxDepth` (checked by a scan before parsing, so no input can
 * exhaust the stack), text that is not JSON or is cut off, a top level that is not an object,
 * `__proto__` keys and `constructor.prototype` keys anywhere (prototype-pollution shapes),
 * strings or keys holding lone UTF-16 surrogates, and numbers too large for a double (`1e999`,
 * which `JSON.parse` turns into `Infinity` and JSON Schema's `number` accepts) at any depth.
 */
export function parseToolArguments(
  raw: string,
  options: ParseToolArgumentsOptions = {},
): ParsedToolArguments {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TOOL_ARGUMENTS_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_TOOL_ARGUMENTS_DEPTH;
  if (typeof raw !== 'string') {
    return failure('', 'arguments must be JSON text');
  }
  // A UTF-8 encoding is never shorter than the UTF-16 length, so the cheap check comes first,
  // and a UTF-8 encoding is at most three bytes per UTF-16 unit, so short text skips the count.
  if (
    raw.length > maxBytes ||
    (raw.length * 3 > maxBytes && Buffer.byteLength(raw, 'utf8') > maxBytes)
  ) {
    return failure('', `arguments are larger than the limit of ${maxBytes} bytes`);
  }
  if (raw.charCodeAt(0) !== 0x7b /* { */ && raw.trim() === '') return { ok: true, value: {} };

  const nesting = scanNesting(raw);
  if (nesting.deepest > maxDepth) {
    return failure('', `arguments are nested deeper than the limit of ${maxDepth} levels`);
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // The engine's message may quote the input, so it is not passed on.
    return failure(
      '',
      nesting.unclosed
        ? 'arguments are not valid JSON: the text ends before the JSON does (truncated?)'
        : 'arguments are not valid JSON',
    );
  }

  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return failure('', `arguments must be a JSON object, not ${describeValueType(parsed)}`);
  }

  // Almost every argument object is clean. Text without `\u` escapes or surrogates cannot hold a
  // lone surrogate, without an exponent or a 309-digit run no number overflows to Infinity, and
  // without these two words there is no key to reject: no walk at all then; otherwise a walk
  // without paths first, and the one that builds paths only to report what it found.
  if (
    (nesting.escapesOrSurrogates ||
      nesting.numberMayOverflow ||
      raw.includes('__proto__') ||
      raw.includes('constructor')) &&
    !isSafeContent(parsed)
  ) {
    return { ok: false, issues: findUnsafeContent(parsed) };
  }
  return { ok: true, value: parsed as Record<string, unknown> };
}

function failure(path: string, message: string): ParsedToolArguments {
  return { ok: false, issues: [{ path, message }] };
}

// Every integer of at most 308 digits is below Number.MAX_VALUE (about 1.8e308).
const MAX_DIGITS_SURELY_FINITE = 308;

/**
 * Deepest bracket nesting outside string literals, whether the text ends inside a string or an
 * open bracket (a cut-off document), whether it holds a `\u` escape or a UTF-16 surrogate (the
 * only ways a parsed string can hold a lone surrogate), and whether a number may overflow to
 * `Infinity` (an exponent, or a run of more than 308 digits); a linear scan that needs no stack.
 */
function scanNesting(text: string): {
  deepest: number;
  unclosed: boolean;
  escapesOrSurrogates: boolean;
  numberMayOverflow: boolean;
} {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let escapesOrSurrogates = false;
  let numberMayOverflow = false;
  let digits = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdfff) escapesOrSurrogates = true;
    if (inString) {
      if (code === 0x5c /* \ */) {
        index++;
        if (text.charCodeAt(index) === 0x75 /* u */) escapesOrSurrogates = true;
      } else if (code === 0x22 /* " */) inString = false;
    } else if (code >= 0x30 && code <= 0x39) {
      if (++digits > MAX_DIGITS_SURELY_FINITE) numberMayOverflow = true;
      continue;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      depth--;
    } else if ((code | 0x20) === 0x65 /* e or E */ && digits > 0) {
      // Outside strings an `e` follows a digit only in an exponent (never in true or false).
      numberMayOverflow = true;
    }
    digits = 0;
  }
  return { deepest, unclosed: inString || depth > 0, escapesOrSurrogates, numberMayOverflow };
}

function isWellFormed(text: string): boolean {
  // String.prototype.isWellFormed exists on Node 20 but not in the ES2023 lib typings.
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * Whether the parsed value holds none of what {@link findUnsafeContent} reports; the same walk,
 * iterative too, without paths or issue objects.
 */
function isSafeContent(root: object): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (!isWellFormed(value)) return false;
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return false;
    } else if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) stack.push(value[index]);
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const child = (value as Record<string, unknown>)[key];
        if (key === '__proto__' || !isWellFormed(key)) return false;
        if (
          key === 'constructor' &&
          typeof child === 'object' &&
          child !== null &&
          Object.hasOwn(child, 'prototype')
        ) {
          return false;
        }
        stack.push(child);
      }
    }
  }
  return true;
}

/**
 * Walks the parsed value iteratively and reports prototype-pollution keys, lone surrogates and
 * numbers that overflowed to `Infinity`.
 */
function findUnsafeContent(root: object): ToolInputIssue[] {
  const issues: ToolInputIssue[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const { value, path } = stack.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      if (!isWellFormed(value)) {
        issues.push({
          path,
          message: 'string contains a lone UTF-16 surrogate (not valid Unicode)',
        });
      }
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        issues.push({ path, message: 'number is too large: it overflows to Infinity' });
      }
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        stack.push({ value: value[index], path: `${path}/${index}` });
      }
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as string;
        const child = (value as Record<string, unknown>)[key];
        const childPath = isWellFormed(key) ? `${path}/${escapeJsonPointerToken(key)}` : path;
        if (!isWellFormed(key)) {
          issues.push({
            path,
            message: 'a property name contains a lone UTF-16 surrogate (not valid Unicode)',
          });
          continue;
        }
        if (key === '__proto__') {
          issues.push({ path: childPath, message: 'property name "__proto__" is not allowed' });
          continue;
        }
        if (
          key === 'constructor' &&
          typeof child === 'object' &&
          child !== null &&
          Object.hasOwn(child, 'prototype')
        ) {
          issues.push({
            path: childPath,
            message: 'a "constructor" object with a "prototype" property is not allowed',
          });
          continue;
        }
        stack.push({ value: child, path: childPath });
      }
    }
  }
  return issues;
}
