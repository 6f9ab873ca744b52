import type { ChatResponse } from '../model/index.js';
import type { TurnEvent } from '../observability/turn-event.js';
import {
  DONE_FRAME,
  dataFrame,
  errorFrame,
  serverSentEventHeaders,
} from './server-sent-event-frames.js';

/** Options of {@link toServerSentEventsResponse}. */
export interface ServerSentEventsOptions {
  /** Response status. Default 200. */
  status?: number;
  /** Extra response headers (the SSE headers are set unless given here). */
  headers?: Record<string, string>;
  /**
   * Aborted when the client goes away (the body is cancelled), for work of your own beside the
   * stream. A `ChatClient` stream needs none: stopping its iteration stops its model request and
   * running tools.
   */
  abortController?: AbortController;
}

const encoder = new TextEncoder();

/**
 * Turns a stream (text deltas from `.stream().content()`, chunks from `.chatResponse()`, or turn
 * events) into a web `Response` with Server-Sent Events, for Node, Hono, Next.js and other
 * fetch-style handlers. Each item becomes `data: <JSON>`; the end is `event: done` with `data: [DONE]`; a
 * failure is `event: error` with `{code, message}`: the message of toolloop's own errors, a
 * generic one for a provider failure (`CHAT_MODEL_FAILED`: never the provider's text) and for
 * any other error.
 * Cancelling the body (the client disconnected) stops the iteration and aborts `abortController`;
 * a `.stream()` of a `ChatClient` stops its model request and running tools when its iteration is
 * stopped, so its turn ends there. On a `node:http` server use `pipeServerSentEvents`, or
 * `stream.pipeline(Readable.fromWeb(response.body), res)`: `.pipe()` leaves the body running when
 * the client leaves.
 */
export function toServerSentEventsResponse(
  stream: AsyncIterable<string | ChatResponse | TurnEvent>,
  options: ServerSentEventsOptions = {},
): Response {
  let iterator: AsyncIterator<string | ChatResponse | TurnEvent> | undefined;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        iterator ??= stream[Symbol.asyncIterator]();
        try {
          const next = await iterator.next();
          if (next.done) {
            controller.enqueue(encoder.encode(DONE_FRAME));
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(dataFrame(next.value)));
        } catch (error) {
          if (cancelled || options.abortController?.signal.aborted) return;
          controller.enqueue(encoder.encode(errorFrame(error)));
          controller.close();
        }
      },
      cancel(reason) {
        cancelled = true;
        options.abortController?.abort(reason);
        // Not awaited: a generator busy in `next()` settles its `return()` only afterwards.
        void iterator?.return?.().catch(() => {});
      },
      // Pull only when the client reads: no model or tool work runs ahead of the reader.
    },
    new CountQueuingStrategy({ highWaterMark: 0 }),
  );
  const headers = new Headers(serverSentEventHeaders(options.headers));
  return new Response(body, { status: options.status ?? 200, headers });
}
