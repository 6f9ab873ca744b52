/** One `key=value` pair of a `.properties` file, with the line its key starts on (1-based). */
export interface PropertiesPair {
  readonly key: string;
  readonly value: string;
  readonly line: number;
}

/** A `\uXXXX` escape that is not four hex digits. */
export class PropertiesSyntaxError extends Error {
  readonly line: number;
  constructor(message: string, line: number) {
    super(message);
    this.name = 'PropertiesSyntaxError';
    this.line = line;
  }
}

const WHITESPACE = new Set([' ', '\t', '\f']);

/**
 * Parses the text of a Java `.properties` file (as Spring Boot's `application.properties`):
 * `#` and `!` comment lines, `=`, `:` or whitespace between key and value (whitespace around it
 * ignored), a line ending in an odd number of backslashes continued on the next line (whose
 * leading whitespace is dropped), and the escapes `\t \n \r \f \uXXXX` (any other escaped
 * character stands for itself, so `\=`, `\:`, `\ ` and `\\` put those characters in keys).
 * The text is read as UTF-8. A later pair with the same key wins, as in Java.
 */
export function parseProperties(text: string): PropertiesPair[] {
  const physical = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const pairs: PropertiesPair[] = [];
  let i = 0;
  while (i < physical.length) {
    const startLine = i + 1;
    let line = stripLeadingWhitespace(physical[i]!);
    i += 1;
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    while (endsWithContinuation(line) && i < physical.length) {
      line = line.slice(0, -1) + stripLeadingWhitespace(physical[i]!);
      i += 1;
    }
    if (endsWithContinuation(line)) line = line.slice(0, -1);
    pairs.push(splitPair(line, startLine));
  }
  return pairs;
}

function stripLeadingWhitespace(line: string): string {
  let start = 0;
  while (start < line.length && WHITESPACE.has(line[start]!)) start += 1;
  return line.slice(start);
}

function endsWithContinuation(line: string): boolean {
  let backslashes = 0;
  for (let j = line.length - 1; j >= 0 && line[j] === '\\'; j -= 1) backslashes += 1;
  return backslashes % 2 === 1;
}

function splitPair(logical: string, line: number): PropertiesPair {
  let keyEnd = 0;
  while (keyEnd < logical.length) {
    const char = logical[keyEnd]!;
    if (char === '\\') {
      keyEnd += 2;
      continue;
    }
    if (char === '=' || char === ':' || WHITESPACE.has(char)) break;
    keyEnd += 1;
  }
  const rawKey = logical.slice(0, Math.min(keyEnd, logical.length));
  let valueStart = keyEnd;
  while (valueStart < logical.length && WHITESPACE.has(logical[valueStart]!)) valueStart += 1;
  if (logical[valueStart] === '=' || logical[valueStart] === ':') {
    valueStart += 1;
    while (valueStart < logical.length && WHITESPACE.has(logical[valueStart]!)) valueStart += 1;
  }
  return {
    key: decodeEscapes(rawKey, line),
    value: decodeEscapes(logical.slice(valueStart), line),
    line,
  };
}

function decodeEscapes(text: string, line: number): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let j = 0; j < text.length; j += 1) {
    const char = text[j]!;
    if (char !== '\\') {
      out += char;
      continue;
    }
    j += 1;
    if (j >= text.length) break;
    const next = text[j]!;
    switch (next) {
      case 't':
        out += '\t';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 'f':
        out += '\f';
        break;
      case 'u': {
        const hex = text.slice(j + 1, j + 5);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          throw new PropertiesSyntaxError(`malformed \\uXXXX escape "\\u${hex}"`, line);
        }
        out += String.fromCharCode(Number.parseInt(hex, 16));
        j += 4;
        break;
      }
      default:
        out += next;
    }
  }
  return out;
}
