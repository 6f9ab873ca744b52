import { InvalidArgumentError } from '../errors/index.js';
import { isToolResult, type ToolResult } from './tool-result.js';

/**
 * Turns whatever a tool returned into the text the model reads, or into a {@link ToolResult}
 * (content parts, structured data) for a result beyond text.
 */
export type ToolResultConverter = (result: unknown) => string | ToolResult;

/** Binary content with its media type; tools may return it to send bytes (images, files). */
export interface BinaryToolResult {
  readonly mimeType: string;
  readonly data: Uint8Array | ArrayBuffer;
}

const DEFAULT_MIME_TYPE = 'application/octet-stream';

/** What the model reads for a tool that returns nothing: `"Done"` as a JSON string. */
export const VOID_RESULT_TEXT = '"Done"';

/**
 * Spring AI's result conversion, in JavaScript terms:
 * - a {@link ToolResult} made by `toolResult()` → itself (its parts reach the model);
 * - `undefined` (a void tool) → `"Done"` as a JSON string (`'"Done"'`); `null` → `'null'`;
 * - a string that is a whole JSON document is forwarded verbatim, any other string is JSON-encoded.
 *   The check is strict `JSON.parse`, deliberately not Spring AI's lenient first-token check,
 *   so `"42 apples"` or `"true story"` are quoted here where Spring AI forwards them raw;
 * - bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`, any typed array) and `{ mimeType, data }` →
 *   `{"mimeType":…,"data":"<base64>"}` (default type `application/octet-stream`);
 * - anything else → compact `JSON.stringify`, where dates become ISO strings, a `Map` an object, a
 *   `Set` an array, a `bigint` a string of digits, an `Error` its name and message, and nested
 *   bytes the same `{mimeType, data}` object.
 *
 * Throws {@link InvalidArgumentError} for a result JSON cannot express (a circular structure, a
 * function, a symbol); called inside a tool, that becomes the tool's error for the model.
 */
export const defaultToolResultConverter = function defaultToolResultConverter(
  result: unknown,
): string | ToolResult {
  if (isToolResult(result)) return result;
  return toolResultText(result);
} satisfies ToolResultConverter;

/**
 * The text the model reads for a value (the default conversion without the `ToolResult` case):
 * see {@link defaultToolResultConverter}.
 */
export function toolResultText(result: unknown): string {
  if (result === undefined) return VOID_RESULT_TEXT;
  if (result === null) return 'null';
  if (typeof result === 'string') return isJsonDocument(result) ? result : JSON.stringify(result);
  if (typeof result === 'function' || typeof result === 'symbol') {
    throw new InvalidArgumentError(
      `A tool result of type ${typeof result} cannot be converted to JSON`,
    );
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(result, replaceSpecialValues);
  } catch (error) {
    const circular = error instanceof TypeError && /circular/i.test(error.message);
    throw new InvalidArgumentError(
      circular
        ? 'A tool result cannot be converted to JSON: it contains a circular reference'
        : `A tool result cannot be converted to JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return json ?? 'null';
}

function isJsonDocument(text: string): boolean {
  // Most tool results are plain text: reject them without the thrown (and costly) parse error.
  if (!mayStartJsonDocument(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the first character after JSON whitespace can start a JSON value; `JSON.parse` rejects
 * every text for which this is false, so the answer is the same without the exception.
 */
function mayStartJsonDocument(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // space, tab, line feed, carriage return
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) continue;
    return (
      code === 0x7b || // {
      code === 0x5b || // [
      code === 0x22 || // "
      code === 0x2d || // -
      (code >= 0x30 && code <= 0x39) ||
      code === 0x74 || // t
      code === 0x66 || // f
      code === 0x6e // n
    );
  }
  return false;
}

// Runs with the holder as `this`, so values are seen before their own toJSON (a Buffer's
// toJSON would otherwise turn it into an array of numbers).
function replaceSpecialValues(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  const binary = toBinaryResult(original);
  if (binary !== undefined) return binary;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Map) {
    const object: Record<string, unknown> = {};
    for (const [entryKey, entryValue] of value) {
      Object.defineProperty(object, String(entryKey), {
        value: entryValue,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  }
  if (value instanceof Set) return [...value];
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

function toBinaryResult(value: unknown): { mimeType: string; data: string } | undefined {
  const bytes = asBytes(value);
  if (bytes !== undefined) return { mimeType: DEFAULT_MIME_TYPE, data: toBase64(bytes) };
  if (typeof value === 'object' && value !== null && 'data' in value && 'mimeType' in value) {
    const { mimeType, data } = value as { mimeType: unknown; data: unknown };
    const dataBytes = asBytes(data);
    if (typeof mimeType === 'string' && dataBytes !== undefined) {
      return { mimeType, data: toBase64(dataBytes) };
    }
  }
  return undefined;
}

function asBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value))
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return undefined;
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
