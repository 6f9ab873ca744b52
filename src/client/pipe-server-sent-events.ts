import type { ServerResponse } from 'node:http';
import { AbortError } from '../errors/index.js';
import type { ChatResponse } from '../model/index.js';
import type { TurnEvent } from '../observability/turn-event.js';
import {
  DONE_FRAME,
  dataFrame,
  errorFrame,
  serverSentEventHeaders,
} from './server-sent-event-frames.js';
import type { ServerSentEventsOptions } from './server-sent-events.js';
import { StreamResponseSpec } from './stream-response-spec.js';

/** What {@link pipeServerSentEvents} sends: a `.stream()` (its text deltas) or any stream of items. */
export type ServerSentEventsSource =
  | StreamResponseSpec
  | AsyncIterable<string | ChatResponse | TurnEvent>;

/**
 * Writes a stream to a `node:http` (or Express, Fastify raw) response as Server-Sent Events, with
 * the frames of `toServerSentEventsResponse`: `data: <JSON>` per item (text deltas for a
 * `.stream()` spec; pass `spec.events()` or `spec.chatResponse()` for those), `event: done` at the
 * end, `event: error` with `{code, message}` on failure (never a provider's own words). Honours
 * back-pressure. When the client disconnects (the response closes before the end), the iteration
 * is stopped, which stops a `ChatClient` turn's model request and running tools at once (no
 * further model call), and `abortController` is aborted. Resolves when the response is done;
 * never rejects.
 */
export async function pipeServerSentEvents(
  source: ServerSentEventsSource,
  response: ServerResponse,
  options: ServerSentEventsOptions = {},
): Promise<void> {
  const iterable = source instanceof StreamResponseSpec ? source.content() : source;
  let iterator: AsyncIterator<unknown> | undefined;
  let disconnected = false;
  const onClose = () => {
    if (response.writableFinished) return;
    disconnected = true;
    options.abortController?.abort(new AbortError('The client disconnected'));
    // Not awaited: a turn busy in `next()` settles its `return()` once the abort reaches it.
    void iterator?.return?.().catch(() => undefined);
  };
  response.on('close', onClose);
  try {
    if (response.destroyed) {
      onClose();
      return;
    }
    if (!response.headersSent)
      response.writeHead(options.status ?? 200, serverSentEventHeaders(options.headers));
    response.flushHeaders();
    iterator = iterable[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await iterator.next();
      } catch (error) {
        if (!disconnected) response.write(errorFrame(error));
        return;
      }
      if (disconnected) return;
      if (next.done) {
        response.write(DONE_FRAME);
        return;
      }
      if (!response.write(dataFrame(next.value))) await drainedOrClosed(response);
      if (disconnected) return;
    }
  } finally {
    response.off('close', onClose);
    if (!disconnected) response.end();
  }
}

function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
