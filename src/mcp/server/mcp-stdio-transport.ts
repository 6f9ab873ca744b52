import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** Default {@link McpStdioTransportOptions.maxMessageBytes}: 10 MiB, the SDK's own limit. */
export const DEFAULT_MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Options of {@link McpStdioTransport}. */
export interface McpStdioTransportOptions {
  /** Longest accepted line (one JSON-RPC message). Default 10 MiB. */
  maxMessageBytes?: number;
  /** Writes one serialised message to the protocol channel; resolves once written (or buffered). */
  write: (text: string) => Promise<void>;
  /** Told about every line that was dropped, and why (default: nothing). */
  onDropped?: (reason: string) => void;
}

// How much of an oversized line is kept to find its request id in.
const EDGE_BYTES = 512;
const NEWLINE = 0x0a;

/**
 * The server side of MCP's stdio transport: newline-delimited JSON-RPC on a readable stream,
 * answers through `write`. Unlike the SDK's transport, a line longer than `maxMessageBytes` does
 * not close the connection: it is dropped as it streams in (never buffered whole), reported on
 * `onDropped`, and answered with a JSON-RPC error for its request id when the id can be read
 * from the line's first or last bytes (`id: null` otherwise); a line that is not JSON-RPC is
 * answered with a parse error. The connection closes when the stream ends.
 */
export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: NodeJS.ReadableStream;
  readonly #maxBytes: number;
  readonly #write: (text: string) => Promise<void>;
  readonly #onDropped: (reason: string) => void;
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** Set while an oversized line is being skipped. */
  #skipping: SkippedLine | undefined;
  #closed = false;

  constructor(stdin: NodeJS.ReadableStream, options: McpStdioTransportOptions) {
    this.#stdin = stdin;
    this.#maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_STDIO_MESSAGE_BYTES;
    this.#write = options.write;
    this.#onDropped = options.onDropped ?? (() => {});
  }

  async start(): Promise<void> {
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('error', this.#onError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    await this.#write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('error', this.#onError);
    this.#chunks = [];
    this.#skipping = undefined;
    this.onclose?.();
  }

  readonly #onEnd = (): void => {
    void this.close();
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onData = (data: Buffer | string): void => {
    let chunk = typeof data === 'string' ? Buffer.from(data) : data;
    while (chunk.length > 0 && !this.#closed) {
      const newline = chunk.indexOf(NEWLINE);
      const part = newline === -1 ? chunk : chunk.subarray(0, newline);
      chunk = newline === -1 ? Buffer.alloc(0) : chunk.subarray(newline + 1);
      if (this.#skipping !== undefined) {
        skip(this.#skipping, part);
      } else if (this.#buffered + part.length > this.#maxBytes) {
        const pending = Buffer.concat([...this.#chunks, part]);
        this.#chunks = [];
        this.#buffered = 0;
        const head = Buffer.from(pending.subarray(0, EDGE_BYTES));
        this.#skipping = { head, tail: Buffer.alloc(0), bytes: 0 };
        skip(this.#skipping, pending);
      } else {
        this.#chunks.push(part);
        this.#buffered += part.length;
      }
      if (newline !== -1) this.#endLine();
    }
  };

  #endLine(): void {
    const skipped = this.#skipping;
    if (skipped !== undefined) {
      this.#skipping = undefined;
      const id = requestIdAtEdges(skipped.head.toString('utf8'), skipped.tail.toString('utf8'));
      const reason = `a message of ${skipped.bytes} bytes is over the limit of ${this.#maxBytes} bytes; it was dropped`;
      this.#onDropped(reason);
      this.#answerError(id, ErrorCode.InvalidRequest, `Invalid request: ${reason}`);
      return;
    }
    const line = Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#buffered = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      this.#onDropped('a line that is not a JSON-RPC message was dropped');
      this.#answerError(null, ErrorCode.ParseError, 'Parse error: not a JSON-RPC message');
      return;
    }
    this.onmessage?.(message);
  }

  #answerError(id: string | number | null, code: number, message: string): void {
    void this.#write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`).catch(
      () => {},
    );
  }
}

/** What is kept of an oversized line while it streams past: its edges and its length. */
interface SkippedLine {
  readonly head: Buffer;
  tail: Buffer;
  bytes: number;
}

function skip(line: SkippedLine, part: Buffer): void {
  line.bytes += part.length;
  // A copy: a view would keep the whole chunk alive while the line streams past.
  line.tail = Buffer.from(
    part.length >= EDGE_BYTES
      ? part.subarray(-EDGE_BYTES)
      : Buffer.concat([line.tail, part]).subarray(-EDGE_BYTES),
  );
}

// The SDK writes `{"method":…,"params":…,"jsonrpc":"2.0","id":7}` (the id last); others put it
// first. A nested "id" cannot sit right before the final brace of the top-level object.
const ID_FIRST =
  /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")/;
const ID_LAST = /"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")\s*\}\s*$/;

/** The request id of a dropped line, when its first or last bytes show it; `null` otherwise. */
function requestIdAtEdges(head: string, tail: string): string | number | null {
  const found = ID_FIRST.exec(head)?.[1] ?? ID_LAST.exec(tail.replace(/\r$/, ''))?.[1];
  if (found === undefined) return null;
  try {
    const id = JSON.parse(found) as unknown;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}
