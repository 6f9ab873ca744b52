import type { ProviderErrors } from '../internal/provider-errors.js';
import { isRecord } from '../internal/wire-reader.js';

/** Deepest path and largest array position accepted: a hostile path must not cost memory. */
const MAX_PATH_SEGMENTS = 64;
const MAX_ARRAY_INDEX = 10_000;

type Segment = string | number;

/**
 * Builds a function call's arguments from the pieces Vertex AI streams (`partialArgs`): each
 * piece sets one value at a JSON path (`$.recipe.steps[1]`, `$['odd key']`), numbers, booleans and
 * nulls whole, strings possibly over several pieces (`willContinue: true` on all but the last).
 * Objects and arrays are created as the paths need them, in the order they come; an array grows
 * one position at a time. A path that is not one, goes deeper than 64 levels, skips array
 * positions or reaches past 9,999, sets a value twice, or treats an object as an array (or the
 * other way round) throws the adapter's "malformed response" error. Objects have no prototype, so
 * a key like `__proto__` is only a key.
 */
export class PartialArgsBuilder {
  readonly #errors: ProviderErrors;
  #root: unknown = Object.create(null);
  #pieces = 0;
  /** The path whose string value continues in the next piece. */
  #openString: string | undefined;

  constructor(errors: ProviderErrors) {
    this.#errors = errors;
  }

  /** True while a string value waits for its next piece. */
  get stringOpen(): boolean {
    return this.#openString !== undefined;
  }

  /** Takes the whole arguments of a call sent in one part (`args`). */
  setWhole(args: unknown): void {
    if (this.#pieces > 0)
      throw this.#errors.malformed('a function call has both args and partialArgs');
    this.#root = args;
    this.#pieces++;
  }

  /** Adds one `partialArgs` piece. */
  add(piece: unknown, where: string): void {
    if (!isRecord(piece)) throw this.#errors.malformed(`${where} must be an object`);
    if (typeof piece.jsonPath !== 'string') {
      throw this.#errors.malformed(`${where}.jsonPath must be a string`);
    }
    const path = piece.jsonPath;
    const value = pieceValue(piece);
    if (value === undefined) {
      throw this.#errors.malformed(`${where} carries no value of a known type`);
    }
    if (!isRecord(this.#root))
      throw this.#errors.malformed(`${where} adds to args that are not an object`);
    const segments = parsePath(path);
    if (segments === undefined || segments.length === 0 || segments.length > MAX_PATH_SEGMENTS) {
      throw this.#errors.malformed(`${where}.jsonPath is not a JSON path this adapter accepts`);
    }
    const continues = piece.willContinue === true;
    if (typeof value === 'string' && this.#openString === path) {
      this.#append(segments, value, where);
    } else {
      this.#set(segments, value, where);
    }
    this.#openString = typeof value === 'string' && continues ? path : undefined;
    this.#pieces++;
  }

  /** The arguments as JSON text (`{}` when nothing came). */
  json(): string {
    return JSON.stringify(this.#root) ?? '{}';
  }

  #set(segments: Segment[], value: unknown, where: string): void {
    const container = this.#container(segments, where);
    const last = segments[segments.length - 1] as Segment;
    if (typeof last === 'number') {
      const array = container as unknown[];
      if (last !== array.length) throw this.#errors.malformed(`${where} sets a value twice`);
      array.push(value);
    } else {
      const object = container as Record<string, unknown>;
      if (last in object) throw this.#errors.malformed(`${where} sets a value twice`);
      object[last] = value;
    }
  }

  #append(segments: Segment[], text: string, where: string): void {
    const container = this.#container(segments, where) as Record<string | number, unknown>;
    const last = segments[segments.length - 1] as Segment;
    const current = container[last];
    if (typeof current !== 'string') throw this.#errors.malformed(`${where} continues no string`);
    container[last] = current + text;
  }

  /** The object or array holding the path's last segment, created as needed. */
  #container(segments: Segment[], where: string): object {
    let node = this.#root as Record<string | number, unknown>;
    for (let index = 0; index < segments.length; index++) {
      const segment = segments[index] as Segment;
      const isArray = Array.isArray(node);
      if ((typeof segment === 'number') !== isArray) {
        throw this.#errors.malformed(
          `${where}.jsonPath treats an object as an array or the other way round`,
        );
      }
      if (index === segments.length - 1) return node;
      const next = segments[index + 1] as Segment;
      if (typeof segment === 'number' && segment > (node as unknown as unknown[]).length) {
        throw this.#errors.malformed(`${where}.jsonPath skips array positions`);
      }
      let child = node[segment];
      if (child === undefined) {
        child = typeof next === 'number' ? [] : Object.create(null);
        node[segment] = child;
      }
      if (typeof child !== 'object' || child === null) {
        throw this.#errors.malformed(
          `${where}.jsonPath goes through a value that is not an object or array`,
        );
      }
      node = child as Record<string | number, unknown>;
    }
    return node;
  }
}

/** The value a piece carries, or `undefined` when it carries none the adapter knows. */
function pieceValue(piece: Record<string, unknown>): unknown {
  if (typeof piece.stringValue === 'string') return piece.stringValue;
  if (typeof piece.numberValue === 'number' && Number.isFinite(piece.numberValue)) {
    return piece.numberValue;
  }
  if (typeof piece.boolValue === 'boolean') return piece.boolValue;
  if ('nullValue' in piece) return null;
  return undefined;
}

/**
 * `$.a.b[0]['c d']` → `['a', 'b', 0, 'c d']`; `undefined` for text that is not such a path.
 * Array positions are integers from 0 to 9,999.
 */
export function parsePath(path: string): Segment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: Segment[] = [];
  let rest = path.slice(1);
  while (rest !== '') {
    const dotted = /^\.([^.[\]]+)/.exec(rest);
    const indexed = /^\[(\d{1,5})\]/.exec(rest);
    const quoted = /^\[(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\]/.exec(rest);
    if (dotted) {
      segments.push(dotted[1] as string);
      rest = rest.slice(dotted[0].length);
    } else if (indexed) {
      const index = Number(indexed[1]);
      if (index >= MAX_ARRAY_INDEX) return undefined;
      segments.push(index);
      rest = rest.slice(indexed[0].length);
    } else if (quoted) {
      segments.push((quoted[1] ?? quoted[2] ?? '').replace(/\\(.)/g, '$1'));
      rest = rest.slice(quoted[0].length);
    } else {
      return undefined;
    }
    if (segments.length > MAX_PATH_SEGMENTS) return undefined;
  }
  return segments;
}
