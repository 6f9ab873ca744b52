import { ToolloopError } from '../errors/index.js';
import type { ChatResponse } from '../model/index.js';

/** Options of {@link toServerSentEventsResponse}. */
export interface ServerSentEventsOptions {
  /** Response status. Default 200. */
  status?: number;
  /** Extra response headers (the SSE headers are set unless given here). */
  headers?: Record<string, string>;
  /**
   * Aborted when the client goes away (the body is cancelled). Pass the same controller's signal
   * to `.stream({ signal })` so that a running model request or tool stops at once rather than
   * at its next chunk.
   */
  abortController?: AbortController;
}

const encoder = new TextEncoder();

/** What the browser sees of a provider failure: its text may hold the provider's words. */
const PROVIDER_FAILURE_MESSAGE = 'The model provider failed';

function describeFailure(error: unknown): { code: string; message: string } {
  if (!ToolloopError.isInstance(error))
    return { code: 'STREAM_FAILED', message: 'The stream failed' };
  // A provider failure's message quotes the provider (scrubbed of credentials, but still its
  // words: internal hosts, account details); only toolloop's own messages are forwarded.
  if (error.code === 'CHAT_MODEL_FAILED')
    return { code: error.code, message: PROVIDER_FAILURE_MESSAGE };
  return { code: error.code, message: error.message };
}

/**
 * Turns a stream (text deltas from `.stream().content()`, or chunks from `.chatResponse()`) into
 * a web `Response` with Server-Sent Events, for Node, Hono, Next.js and other fetch-style
 * handlers. Each item becomes `data: <JSON>`; the end is `event: done` with `data: [DONE]`; a
 * failure is `event: error` with `{code, message}`: the message of toolloop's own errors, a
 * generic one for a provider failure (`CHAT_MODEL_FAILED`: never the provider's text) and for
 * any other error.
 * Cancelling the body (the client disconnected) stops the iteration and aborts `abortController`.
 */
export function toServerSentEventsResponse(
  stream: AsyncIterable<string | ChatResponse>,
  options: ServerSentEventsOptions = {},
): Response {
  let iterator: AsyncIterator<string | ChatResponse> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        iterator ??= stream[Symbol.asyncIterator]();
        try {
          const next = await iterator.next();
          if (next.done) {
            controller.enqueue(encoder.encode('event: done\ndata: [DONE]\n\n'));
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
        } catch (error) {
          if (options.abortController?.signal.aborted) return;
          controller.enqueue(
            encoder.encode(`event: error\ndata: ${JSON.stringify(describeFailure(error))}\n\n`),
          );
          controller.close();
        }
      },
      cancel(reason) {
        options.abortController?.abort(reason);
        // Not awaited: a generator busy in `next()` settles its `return()` only afterwards.
        void iterator?.return?.().catch(() => {});
      },
      // Pull only when the client reads: no model or tool work runs ahead of the reader.
    },
    new CountQueuingStrategy({ highWaterMark: 0 }),
  );
  const headers = new Headers({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  return new Response(body, { status: options.status ?? 200, headers });
}
