import { InvalidArgumentError } from '../errors/index.js';
import {
  type AudioPart,
  type FilePart,
  type ImagePart,
  type ToolResultPart,
  toolResultPartProblem,
  toolResultPartsText,
} from '../messages/index.js';
import { describeValueType } from './describe-value-type.js';

/**
 * A tool result beyond text: what a `ToolCallback`'s `execute` may resolve to (beside plain text),
 * and what a tool's `execute` returns through {@link toolResult}. Plain JSON data.
 */
export interface ToolResult {
  /**
   * The result as text: what `ToolResponse.responseData` holds and a text-only consumer reads.
   * For a result with `content`, the text form of its parts.
   */
  readonly text: string;
  /** The parts in order (text, images, audio, files, resource links). */
  readonly content?: readonly ToolResultPart[];
  /** The result as JSON data (the output an output schema checked; MCP `structuredContent`). */
  readonly structuredContent?: unknown;
}

/** Binary data a media part may hold before it is encoded: base64 text, or bytes. */
export type ToolResultBytes = string | Uint8Array | ArrayBuffer;

/**
 * A part as a tool writes it for {@link toolResult}: a string is a text part, and a media part's
 * `data` may be bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`), encoded to base64 here.
 */
export type ToolResultPartInput =
  | string
  | ToolResultPart
  | (Omit<ImagePart, 'data'> & { data: ToolResultBytes })
  | (Omit<AudioPart, 'data'> & { data: ToolResultBytes })
  | (Omit<FilePart, 'data'> & { data: ToolResultBytes });

/** Options of {@link toolResult}. */
export interface ToolResultOptions {
  /** The result as JSON data, kept beside the parts (checked against an output schema). */
  structuredContent?: unknown;
}

const TOOL_RESULT = Symbol.for('toolloop.ToolResult');

/**
 * Builds a result of content parts for a tool to return: text, images, audio, files (as base64
 * or bytes, or an `https:`/`data:` URL) and resource links, optionally with structured data.
 *
 * ```ts
 * execute: async ({ url }) => toolResult([
 *   `Screenshot of ${url}`,
 *   { type: 'image', mediaType: 'image/png', data: await browser.screenshot(url) },
 * ])
 * ```
 *
 * Every part is checked here: an unknown part type, a media type that is not a registered one or
 * not of the part's family, a source missing or doubled, data that is not base64, a URL that is
 * not `https:` or `data:` all throw an `InvalidArgumentError` naming the part; thrown inside a
 * tool, that becomes the tool's error for the model. The text form (`text`) is computed here.
 */
export function toolResult(
  content: ToolResultPartInput | readonly ToolResultPartInput[],
  options: ToolResultOptions = {},
): ToolResult {
  const inputs = Array.isArray(content) ? content : [content as ToolResultPartInput];
  const parts: ToolResultPart[] = new Array(inputs.length);
  for (let index = 0; index < inputs.length; index++) {
    parts[index] = toPart(inputs[index] as ToolResultPartInput, index);
  }
  const result: { -readonly [K in keyof ToolResult]: ToolResult[K] } = {
    text: toolResultPartsText(parts),
    content: parts,
  };
  if (options.structuredContent !== undefined) {
    result.structuredContent = options.structuredContent;
  }
  Object.defineProperty(result, TOOL_RESULT, { value: true });
  return result;
}

/** Whether `value` was made by {@link toolResult} (in this copy of toolloop or another). */
export function isToolResult(value: unknown): value is ToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[TOOL_RESULT] === true
  );
}

function toPart(input: ToolResultPartInput, index: number): ToolResultPart {
  if (typeof input === 'string') return { type: 'text', text: input };
  let part: unknown = input;
  if (typeof input === 'object' && input !== null && 'data' in input) {
    const data = input.data;
    if (typeof data !== 'string' && data !== undefined) {
      const bytes = asBytes(data);
      if (bytes === undefined) {
        throw new InvalidArgumentError(
          `toolResult: part ${index + 1}'s data is ${describeValueType(data)}; give base64 text or bytes`,
        );
      }
      part = { ...input, data: base64Of(bytes) };
    }
  }
  const problem = toolResultPartProblem(part);
  if (problem !== undefined) {
    throw new InvalidArgumentError(`toolResult: part ${index + 1} is not valid: ${problem}`);
  }
  return plainPart(part as ToolResultPart);
}

/** The part with only its defined fields: no `undefined` that JSON would drop. */
function plainPart(part: ToolResultPart): ToolResultPart {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(part)) if (value !== undefined) copy[key] = value;
  return copy as unknown as ToolResultPart;
}

function asBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  return undefined;
}

function base64Of(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Why what a callback's `execute` resolved to is not a result (a string, or an object with a
 * string `text`, optional valid `content` parts and optional JSON `structuredContent`), or
 * `undefined`. Callbacks written in plain JavaScript may resolve to anything.
 */
export function toolResultProblem(value: unknown): string | undefined {
  if (typeof value === 'string') return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `it is ${describeValueType(value)}, not text or a ToolResult`;
  }
  const result = value as Record<string, unknown>;
  if (typeof result.text !== 'string') return 'its text is not a string';
  const content = result.content;
  if (content !== undefined) {
    if (!Array.isArray(content)) return 'its content is not an array';
    for (let index = 0; index < content.length; index++) {
      const problem = toolResultPartProblem(content[index]);
      if (problem !== undefined) return `part ${index + 1} is not valid: ${problem}`;
    }
  }
  if (result.structuredContent !== undefined) {
    try {
      JSON.stringify(result.structuredContent);
    } catch {
      return 'its structuredContent is not JSON data';
    }
  }
  return undefined;
}
