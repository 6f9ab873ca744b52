import { ToolloopError } from '../errors/index.js';

const PROVIDER_FAILURE_MESSAGE = 'The model provider failed';

/** The frame that ends a stream. */
export const DONE_FRAME = 'event: done\ndata: [DONE]\n\n';

/**
 * What the browser may see of a value: a turn event's provider error message quotes the provider
 * (scrubbed of credentials, but still its words: internal hosts, account details), so it becomes
 * the generic message, as for a thrown provider failure.
 */
function forClient(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const event = value as { type?: unknown; error?: { type?: string; code?: string } };
  if (event.type === 'turn-error' && event.error?.code === 'CHAT_MODEL_FAILED')
    return { ...event, error: { ...event.error, message: PROVIDER_FAILURE_MESSAGE } };
  if (event.type === 'model-call-end' && event.error?.type === 'ChatModelError')
    return { ...event, error: { ...event.error, message: PROVIDER_FAILURE_MESSAGE } };
  return value;
}

/** One item as a `data:` frame (JSON). */
export function dataFrame(value: unknown): string {
  return `data: ${JSON.stringify(forClient(value))}\n\n`;
}

/**
 * A failure as an `event: error` frame with `{code, message}`: the message of toolloop's own
 * errors, a generic one for a provider failure and for any other error.
 */
export function errorFrame(error: unknown): string {
  let described: { code: string; message: string };
  if (!ToolloopError.isInstance(error))
    described = { code: 'STREAM_FAILED', message: 'The stream failed' };
  else if (error.code === 'CHAT_MODEL_FAILED')
    described = { code: error.code, message: PROVIDER_FAILURE_MESSAGE };
  else described = { code: error.code, message: error.message };
  return `event: error\ndata: ${JSON.stringify(described)}\n\n`;
}

/** The response headers of a Server-Sent Events stream, with the caller's on top. */
export function serverSentEventHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  };
  for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
  return headers;
}
