import { Agent, request } from 'node:http';
import { HTTP_FINAL_TEXT, HTTP_TEXT_DELTAS } from './provider-wire.js';

/**
 * The clients of the end-to-end benchmark: each conversation is one `POST` to the measured
 * server, whose server-sent events are read as a browser's `EventSource` would (frames split at
 * blank lines, `data:` parsed as JSON). A slow reader pauses the socket for `readDelayMs` after
 * every read, so the server's writes meet back-pressure. Each conversation must deliver exactly
 * the 100 text deltas, in order, then `event: done`.
 */

/** How long a conversation may go without data (a gated one waits for all the others). */
const STALL_MS = 300_000;

/** What one conversation delivered. */
export interface ConversationResult {
  /** Milliseconds from sending the request to the first text frame. */
  firstChunkMs: number;
  /** Text frames received. */
  chunks: number;
  /** Why the conversation is wrong, if it is. */
  error?: string;
}

/** A keep-alive agent without a socket limit, so every conversation has its own connection. */
export function loadAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
}

/** Runs one conversation: `POST http://127.0.0.1:<port>/<path>`. Never rejects. */
export function converse(
  agent: Agent,
  port: number,
  path: string,
  readDelayMs = 0,
): Promise<ConversationResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    let firstChunkMs = Number.NaN;
    let chunks = 0;
    let text = '';
    let done = false;
    let pending = '';
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      if (error === undefined && !done) error = 'the stream ended without event: done';
      if (error === undefined && (chunks !== HTTP_TEXT_DELTAS || text !== HTTP_FINAL_TEXT)) {
        error = `received ${chunks} text frames (${text.length} characters), expected ${HTTP_TEXT_DELTAS}`;
      }
      resolve(error === undefined ? { firstChunkMs, chunks } : { firstChunkMs, chunks, error });
    };
    const outgoing = request(
      { agent, host: '127.0.0.1', port, path: `/${path}`, method: 'POST' },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          finish(`HTTP ${response.statusCode}`);
          return;
        }
        response.setEncoding('utf8');
        response.on('data', (data: string) => {
          pending += data;
          let end = pending.indexOf('\n\n');
          while (end !== -1) {
            const frame = pending.slice(0, end);
            pending = pending.slice(end + 2);
            end = pending.indexOf('\n\n');
            if (frame.startsWith('data: ')) {
              if (chunks++ === 0) firstChunkMs = performance.now() - started;
              text += JSON.parse(frame.slice(6)) as string;
            } else if (frame.startsWith('event: done')) {
              done = true;
            } else if (frame.startsWith('event: error')) {
              finish(`event: error ${frame}`);
            }
          }
          if (readDelayMs > 0) {
            response.pause();
            setTimeout(() => response.resume(), readDelayMs);
          }
        });
        response.on('end', () => finish());
        response.on('error', (error) => finish(error.message));
      },
    );
    outgoing.on('error', (error) => finish(error.message));
    // A conversation that stops moving fails the benchmark with a reason instead of hanging it.
    outgoing.setTimeout(STALL_MS, () => {
      outgoing.destroy();
      finish(`no data for ${STALL_MS / 1000} s (${chunks} text frames received)`);
    });
    outgoing.end();
  });
}

/** The `p`-quantile (0..1) of `values` (nearest rank). */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
