import { AbortError, ChatModelError } from '../errors/index.js';
import { BodyTooLargeError, cappedByteChunks, readCappedText } from './read-capped-body.js';
import { type RetryDelayOptions, retryDelayMs, serverRetryDelayMs } from './retry-delay.js';
import { scrubSecrets } from './scrub-secrets.js';
import {
  EventTooLargeError,
  parseServerSentEvents,
  type ServerSentEvent,
} from './server-sent-events.js';

/**
 * Turns one attempt's server-sent events into outputs: `event` for each event, `end` once the
 * stream ended (it may throw when the stream stopped too early).
 */
export interface StreamConverter<T> {
  event(event: ServerSentEvent): Iterable<T>;
  end(): Iterable<T>;
}

/** The `fetch` signature the adapters call; any WHATWG-compatible implementation fits. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Settings of a {@link ProviderTransport}. */
export interface ProviderTransportOptions {
  /** Provider name used in errors, e.g. `'openai'`. */
  provider: string;
  /** Headers of every request, credentials included. */
  headers: Record<string, string>;
  /** Values that must never appear in an error message (API keys, tokens). */
  secrets: readonly (string | undefined)[];
  /** Default: the global `fetch`. */
  fetch?: FetchFunction | undefined;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number | undefined;
  /** Longest wait for a response to start, for a whole JSON body, and between two stream chunks. Default 10 min. */
  timeoutMs?: number | undefined;
  retryDelay?: RetryDelayOptions | undefined;
  /** Cap of a JSON body and of a whole stream, in bytes. Default 10 MB. */
  maxResponseBytes?: number | undefined;
}

/** The delay a failed response asked for (`retry-after`), kept off the public error object. */
const serverDelays = new WeakMap<ChatModelError, number>();
const ERROR_BODY_LIMIT = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * One attempt's cancellation: the caller's signal plus the attempt's timeout, which is re-armed
 * whenever data arrives.
 */
class AttemptSignal {
  readonly controller = new AbortController();
  timedOut = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCallerAbort = () => this.controller.abort();

  constructor(
    private readonly caller: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    if (caller?.aborted) this.controller.abort();
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.rearm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  rearm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

/**
 * The HTTP layer both provider adapters share: POSTs JSON with bounded retries (exponential
 * backoff with jitter, honouring `retry-after` / `retry-after-ms` and `x-should-retry`), reads
 * bodies with a byte cap, parses server-sent events, refuses redirects (credentials never follow
 * a redirect to another origin), and turns every failure into a {@link ChatModelError} whose
 * message is scrubbed of the credentials — or an `AbortError` when the caller aborted.
 */
export class ProviderTransport {
  private readonly options: ProviderTransportOptions;
  private readonly fetch: FetchFunction;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(options: ProviderTransportOptions) {
    this.options = options;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxRetries = Math.max(0, options.maxRetries ?? 2);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /** POSTs `body` and returns the parsed JSON answer. */
  async postJson(url: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const attemptSignal = new AttemptSignal(signal, this.timeoutMs);
      try {
        const response = await this.send(url, body, attemptSignal);
        let text: string;
        try {
          text = await readCappedText(response, this.maxResponseBytes);
        } catch (error) {
          throw this.bodyFailure(error, response.status, attemptSignal, signal);
        }
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw this.error('the provider answered with a body that is not JSON', {
            status: response.status,
            retryable: false,
          });
        }
      } catch (error) {
        if (!(await this.shouldRetry(error, attempt, signal))) throw error;
      } finally {
        attemptSignal.dispose();
      }
    }
  }

  /**
   * POSTs `body` and streams the answer: each server-sent event goes through the converter made
   * by `createConverter` (one per attempt, so a retried attempt starts with fresh state), and the
   * converter's outputs are yielded. A failure before the first output is retried like a failed
   * request; after it, the error is thrown, so no output is ever duplicated.
   */
  async *postEventStream<T>(
    url: string,
    body: unknown,
    createConverter: () => StreamConverter<T>,
    signal?: AbortSignal,
  ): AsyncGenerator<T> {
    let yielded = false;
    for (let attempt = 0; ; attempt++) {
      const attemptSignal = new AttemptSignal(signal, this.timeoutMs);
      try {
        const response = await this.send(url, body, attemptSignal);
        if (!response.body) {
          throw this.error('the provider answered without a body', {
            status: response.status,
            retryable: false,
          });
        }
        const convert = createConverter();
        const bytes = this.rearmingChunks(response.body, attemptSignal);
        try {
          for await (const event of parseServerSentEvents(bytes, {
            maxEventBytes: this.maxResponseBytes,
          })) {
            for (const output of convert.event(event)) {
              yielded = true;
              yield output;
            }
          }
          for (const output of convert.end()) {
            yielded = true;
            yield output;
          }
        } catch (error) {
          throw this.bodyFailure(error, response.status, attemptSignal, signal);
        }
        return;
      } catch (error) {
        if (yielded || !(await this.shouldRetry(error, attempt, signal))) throw error;
      } finally {
        attemptSignal.dispose();
      }
    }
  }

  private async *rearmingChunks(
    body: ReadableStream<Uint8Array>,
    attemptSignal: AttemptSignal,
  ): AsyncGenerator<Uint8Array> {
    for await (const chunk of cappedByteChunks(body, this.maxResponseBytes)) {
      attemptSignal.rearm();
      yield chunk;
    }
  }

  private async send(url: string, body: unknown, attemptSignal: AttemptSignal): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.options.headers },
        body: JSON.stringify(body),
        signal: attemptSignal.signal,
        redirect: 'manual',
      });
    } catch (error) {
      throw this.networkFailure(error, attemptSignal);
    }
    attemptSignal.rearm();
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      await response.body?.cancel().catch(() => undefined);
      throw this.error(
        `the provider answered with a redirect (HTTP ${response.status}), which is not followed so that credentials never go to another address`,
        { status: response.status, retryable: false },
      );
    }
    if (!response.ok) throw await this.httpFailure(response, attemptSignal);
    return response;
  }

  private async httpFailure(response: Response, attemptSignal: AttemptSignal): Promise<Error> {
    let text = '';
    try {
      text = await readCappedText(response, ERROR_BODY_LIMIT);
    } catch (error) {
      if (attemptSignal.signal.aborted) return this.networkFailure(error, attemptSignal);
      text = '';
    }
    const shouldRetry = response.headers.get('x-should-retry');
    const retryable =
      shouldRetry === 'true'
        ? true
        : shouldRetry === 'false'
          ? false
          : response.status === 408 ||
            response.status === 409 ||
            response.status === 429 ||
            response.status >= 500;
    const statusText = response.statusText ? ` ${response.statusText}` : '';
    const detail = describeErrorBody(text, response.headers.get('content-type'));
    const error = this.error(
      `${this.options.provider} request failed with HTTP ${response.status}${statusText}${detail ? `: ${detail}` : ''}`,
      { status: response.status, retryable },
    );
    const serverDelay = serverRetryDelayMs(response.headers);
    if (serverDelay !== undefined) serverDelays.set(error, serverDelay);
    return error;
  }

  private networkFailure(error: unknown, attemptSignal: AttemptSignal): Error {
    if (attemptSignal.timedOut) {
      return this.error(`${this.options.provider} request timed out after ${this.timeoutMs} ms`, {
        retryable: true,
        cause: error,
      });
    }
    if (attemptSignal.signal.aborted) return new AbortError(undefined, { cause: error });
    const code = errorCode(error);
    return this.error(
      `${this.options.provider} connection failed${code ? ` (${code})` : ''}: the request may be retried`,
      { retryable: true, cause: error },
    );
  }

  private bodyFailure(
    error: unknown,
    status: number,
    attemptSignal: AttemptSignal,
    callerSignal: AbortSignal | undefined,
  ): Error {
    if (error instanceof ChatModelError) return error;
    if (callerSignal?.aborted) return new AbortError(undefined, { cause: error });
    if (error instanceof BodyTooLargeError) {
      return this.error(`${this.options.provider} ${error.message}`, {
        status,
        retryable: false,
      });
    }
    if (error instanceof EventTooLargeError) {
      return this.error(`${this.options.provider} stream failed: ${error.message}`, {
        status,
        retryable: false,
      });
    }
    return this.networkFailure(error, attemptSignal);
  }

  private async shouldRetry(
    error: unknown,
    attempt: number,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    if (!(error instanceof ChatModelError) || !error.retryable || attempt >= this.maxRetries) {
      return false;
    }
    if (signal?.aborted) return false;
    await sleep(retryDelayMs(attempt, serverDelays.get(error), this.options.retryDelay), signal);
    if (signal?.aborted) throw new AbortError(undefined, { cause: error });
    return true;
  }

  private error(
    message: string,
    options: { status?: number; retryable: boolean; cause?: unknown },
  ): ChatModelError {
    return new ChatModelError({
      provider: this.options.provider,
      message: scrubSecrets(message, this.options.secrets),
      ...(options.status === undefined ? {} : { status: options.status }),
      retryable: options.retryable,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
  }
}

/** A readable one-line summary of an error body: the provider's JSON message, or an HTML page's title. */
function describeErrorBody(text: string, contentType: string | null): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  let detail: string;
  if (contentType?.includes('html') || /^<(!doctype|html)/i.test(trimmed)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
    detail = `the server answered with an HTML page${title ? ` ("${title}")` : ''}`;
  } else {
    detail = jsonErrorMessage(trimmed) ?? trimmed.replace(/\s+/g, ' ');
  }
  return detail.length > 500 ? `${detail.slice(0, 500)}…` : detail;
}

function jsonErrorMessage(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const record = parsed as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const { message, type } = error as Record<string, unknown>;
    if (typeof message === 'string')
      return typeof type === 'string' ? `${type}: ${message}` : message;
  }
  if (typeof record.message === 'string') return record.message;
  return undefined;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
