/** Thrown by the capped readers when a body grows past its byte limit. */
export class BodyTooLargeError extends Error {
  /** The limit that was exceeded, in bytes. */
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(`the response body exceeds the ${limitBytes} byte limit`);
    this.name = 'BodyTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/**
 * Yields the chunks of a byte stream and stops with {@link BodyTooLargeError} once more than
 * `limitBytes` arrived; the stream is cancelled whenever iteration ends early, so the connection
 * is released instead of draining a huge body.
 */
export async function* cappedByteChunks(
  body: ReadableStream<Uint8Array>,
  limitBytes: number,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let total = 0;
  let finished = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      total += value.byteLength;
      if (total > limitBytes) throw new BodyTooLargeError(limitBytes);
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** Reads a whole response body as UTF-8 text, refusing (and cancelling) bodies over the limit. */
export async function readCappedText(response: Response, limitBytes: number): Promise<string> {
  const declared = Number.parseInt(response.headers.get('content-length') ?? '', 10);
  if (Number.isFinite(declared) && declared > limitBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limitBytes);
  }
  if (!response.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of cappedByteChunks(response.body, limitBytes)) {
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
