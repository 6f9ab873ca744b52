import { AbortError, ChatModelError, InvalidArgumentError } from '../errors/index.js';
import { AttemptClock } from './attempt-clock.js';
import { delay } from './long-timeout.js';
import { type ProviderErrors, requestTarget } from './provider-errors.js';
import { BodyTooLargeError, cappedByteChunks, readCappedText } from './read-capped-body.js';
import {
  type RetryDelayOptions,
  retryDelayMs,
  retryInfoDelayMs,
  serverRetryDelayMs,
} from './retry-delay.js';
import {
  EventTooLargeError,
  parseServerSentEvents,
  type ServerSentEvent,
} from './server-sent-events.js';

/**
 * Turns one attempt's server-sent events into outputs: `event` for each event, `end` once the
 * stream ended (it may throw when the stream stopped too early). Every error it throws is built
 * by the adapter's {@link ProviderErrors}.
 */
export interface StreamConverter<T> {
  event(event: ServerSentEvent): Iterable<T>;
  end(): Iterable<T>;
  /**
   * True for an event that only keeps the connection open (Anthropic's `ping`): it does not
   * count as progress for the idle limit. SSE comment lines never reach the converter.
   */
  isKeepAlive?(event: ServerSentEvent): boolean;
  /**
   * True once the answer is complete (OpenAI's `[DONE]`, Anthropic's `message_stop`): the rest
   * of the stream is not read, so a server that keeps the connection open costs nothing.
   */
  isComplete?(): boolean;
}

/** The `fetch` signature the adapters call; any WHATWG-compatible implementation fits. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** Settings of a {@link ProviderTransport}. */
export interface ProviderTransportOptions {
  /** Builds every error, with the credentials scrubbed; names the provider. */
  errors: ProviderErrors;
  /** Headers of every request, credentials included. */
  headers: Record<string, string>;
  /** Default: the global `fetch`. */
  fetch?: FetchFunction | undefined;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number | undefined;
  /** Limit of a whole call: every attempt, every wait between attempts, the whole body or stream. Default 10 min. */
  timeoutMs?: number | undefined;
  /** Limit of one attempt. Default: none beyond `timeoutMs`. */
  attemptTimeoutMs?: number | undefined;
  /** Longest wait for a stream's next data event (and for its response to start), or for a whole body (an answer's or an error's) once its headers arrived. Default 5 min. */
  idleTimeoutMs?: number | undefined;
  retryDelay?: RetryDelayOptions | undefined;
  /** Cap of a JSON body and of a whole stream, in bytes. Default 10 MB. */
  maxResponseBytes?: number | undefined;
}

/** Default {@link ProviderTransportOptions.timeoutMs}: 10 minutes for a whole call, retries included. */
export const DEFAULT_TIMEOUT_MS = 600_000;
/** Default {@link ProviderTransportOptions.idleTimeoutMs}: 5 minutes without data. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** Where an attempt was when it failed: waiting for the headers, reading a JSON body, or a stream. */
type FailurePhase = 'request' | 'body' | 'stream';

/** The delay a failed response asked for (`retry-after`), kept off the public error object. */
const serverDelays = new WeakMap<ChatModelError, number>();
const ERROR_BODY_LIMIT = 64 * 1024;
const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * The HTTP layer both provider adapters share: POSTs JSON with bounded retries (exponential
 * backoff with jitter, honouring `retry-after` / `retry-after-ms` and `x-should-retry`), reads
 * bodies with a byte cap, parses server-sent events, refuses redirects (credentials never follow
 * a redirect to another origin), and turns every failure into a {@link ChatModelError} built by
 * the adapter's {@link ProviderErrors} — or an `AbortError` when the caller aborted.
 *
 * Three limits bound a call. `timeoutMs` is the whole call's deadline, retries and their waits
 * included: no retry starts that its wait would push past it. `attemptTimeoutMs` bounds one
 * attempt. `idleTimeoutMs` ends an attempt whose stream brought no data event for that long;
 * comment lines, keep-alive events and bytes that do not complete an event are not progress.
 * The deadlines are never pushed back by anything the server sends.
 */
export class ProviderTransport {
  private readonly options: ProviderTransportOptions;
  private readonly errors: ProviderErrors;
  private readonly provider: string;
  private readonly fetch: FetchFunction;
  private readonly maxRetries: number;
  private readonly timeoutMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(options: ProviderTransportOptions) {
    this.options = options;
    this.errors = options.errors;
    this.provider = options.errors.provider;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxRetries = Math.max(0, options.maxRetries ?? 2);
    this.timeoutMs = positiveLimit(options.timeoutMs, DEFAULT_TIMEOUT_MS, 'timeoutMs');
    this.attemptTimeoutMs = positiveLimit(
      options.attemptTimeoutMs,
      Number.POSITIVE_INFINITY,
      'attemptTimeoutMs',
    );
    this.idleTimeoutMs = positiveLimit(
      options.idleTimeoutMs,
      DEFAULT_IDLE_TIMEOUT_MS,
      'idleTimeoutMs',
    );
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  /**
   * POSTs `body` and returns `convert` of the parsed JSON answer. An error `convert` throws that
   * is not a `ChatModelError` (an answer of an unexpected shape) becomes a non-retryable one.
   */
  async postJson<T>(
    url: string,
    body: unknown,
    convert: (answer: unknown) => T,
    signal?: AbortSignal,
  ): Promise<T> {
    const callDeadlineAt = performance.now() + this.timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const clock = this.clock(signal, callDeadlineAt);
      try {
        // The model generates a non-streamed answer before its headers (no idle limit until
        // then); `send` starts the idle countdown for the body that follows.
        const response = await this.send(url, body, clock);
        let text: string;
        try {
          text = await readCappedText(response, this.maxResponseBytes);
        } catch (error) {
          throw this.bodyFailure(error, response.status, clock, signal, 'body', url);
        }
        let answer: unknown;
        try {
          answer = JSON.parse(text);
        } catch {
          const page =
            text.trim() === '' ? 'empty' : htmlPage(text, response.headers.get('content-type'));
          throw this.errors.malformed(
            page === undefined ? 'the body is not JSON' : `the body is ${page}, not JSON`,
            response.status,
          );
        }
        return this.converted(() => convert(answer));
      } catch (error) {
        if (!(await this.shouldRetry(error, attempt, signal, callDeadlineAt))) throw error;
      } finally {
        clock.dispose();
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
    const callDeadlineAt = performance.now() + this.timeoutMs;
    let yielded = false;
    for (let attempt = 0; ; attempt++) {
      const clock = this.clock(signal, callDeadlineAt);
      // A streaming server answers at once; its silence counts from the request on.
      clock.progress();
      let events: AsyncGenerator<ServerSentEvent> | undefined;
      let complete = false;
      try {
        const response = await this.send(url, body, clock);
        clock.progress();
        if (!response.body) throw this.errors.malformed('the stream has no body', response.status);
        const contentType = response.headers.get('content-type');
        if (contentType?.includes('json') && !contentType.includes('event-stream')) {
          throw await this.jsonInsteadOfStream(response, clock, signal, url);
        }
        const convert = createConverter();
        const bytes = cappedByteChunks(response.body, this.maxResponseBytes);
        // A body not declared an event stream (an HTML page, plain text) may still hold events;
        // its start is kept so that one holding none is described, not called a cut stream.
        const head = contentType?.includes('event-stream') ? undefined : { chunks: [], size: 0 };
        events = parseServerSentEvents(head ? keepingHead(bytes, head) : bytes, {
          maxEventBytes: this.maxResponseBytes,
          isWhole: isWholeEventData,
        });
        let sawEvent = false;
        while (true) {
          let next: IteratorResult<ServerSentEvent>;
          try {
            next = await events.next();
          } catch (error) {
            throw this.bodyFailure(error, response.status, clock, signal, 'stream', url);
          }
          if (next.done) break;
          sawEvent = true;
          const event = next.value;
          if (!convert.isKeepAlive?.(event)) clock.progress();
          for (const output of this.converted(() => [...convert.event(event)])) {
            yielded = true;
            yield output;
          }
          if (convert.isComplete?.()) {
            complete = true;
            break;
          }
        }
        if (!sawEvent && head !== undefined) throw this.noEventStream(response, head, url);
        for (const output of this.converted(() => [...convert.end()])) {
          yielded = true;
          yield output;
        }
        return;
      } catch (error) {
        if (yielded || !(await this.shouldRetry(error, attempt, signal, callDeadlineAt))) {
          throw error;
        }
      } finally {
        clock.dispose();
        if (complete && events !== undefined) releaseWhenEnded(events, clock);
        else await events?.return(undefined).catch(() => undefined);
      }
    }
  }

  private clock(signal: AbortSignal | undefined, callDeadlineAt: number): AttemptClock {
    return new AttemptClock(signal, {
      callDeadlineAt,
      attemptTimeoutMs: this.attemptTimeoutMs,
      idleTimeoutMs: this.idleTimeoutMs,
    });
  }

  /** Runs a converter step; anything it throws besides a provider error means a malformed answer. */
  private converted<R>(step: () => R): R {
    try {
      return step();
    } catch (error) {
      if (error instanceof ChatModelError) throw error;
      throw this.errors.create({
        message: `${this.provider} answered with a malformed response that could not be read`,
        retryable: false,
        cause: error,
      });
    }
  }

  private async send(url: string, body: unknown, clock: AttemptClock): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.options.headers },
        body: JSON.stringify(body),
        signal: clock.signal,
        redirect: 'manual',
      });
    } catch (error) {
      throw this.networkFailure(error, clock, 'request', url);
    }
    // The headers are in: whatever body follows (an answer or an error's) has the idle limit.
    clock.progress();
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      await response.body?.cancel().catch(() => undefined);
      throw this.errors.create({
        message: `${this.provider} answered with a redirect (HTTP ${response.status}, ${requestTarget('POST', url)}), which is not followed so that credentials never go to another address`,
        status: response.status,
        retryable: false,
      });
    }
    if (!response.ok) throw await this.httpFailure(response, clock, url);
    return response;
  }

  private async httpFailure(response: Response, clock: AttemptClock, url: string): Promise<Error> {
    let text = '';
    try {
      text = await readCappedText(response, ERROR_BODY_LIMIT);
    } catch (error) {
      // The caller's abort stays an abort. A body that stalled, broke off or was too long loses
      // only its detail: the status, which says what failed and whether to retry, is kept.
      if (clock.signal.aborted && clock.expired === undefined) {
        return this.networkFailure(error, clock, 'request', url);
      }
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
    // Scrubbed before it is read, so that a key cannot hide in a form the reading changes.
    const detail = describeErrorBody(this.errors.scrub(text), response.headers.get('content-type'));
    const error = this.errors.create({
      message: `${this.provider} request failed with HTTP ${response.status} (${requestTarget('POST', url)})`,
      detail: [response.statusText, detail].filter((part) => part !== '').join(': '),
      status: response.status,
      retryable,
    });
    const serverDelay = serverRetryDelayMs(response.headers) ?? retryInfoDelayMs(text);
    if (serverDelay !== undefined) serverDelays.set(error, serverDelay);
    return error;
  }

  /**
   * A stream request answered with a JSON body (a gateway's error sent with HTTP 200, or a server
   * that ignored `stream: true`): what the body says, never retried (the same request gets the
   * same answer), rather than "the stream ended early" for a stream that never began.
   */
  private async jsonInsteadOfStream(
    response: Response,
    clock: AttemptClock,
    signal: AbortSignal | undefined,
    url: string,
  ): Promise<Error> {
    let text: string;
    try {
      text = await readCappedText(response, ERROR_BODY_LIMIT);
    } catch (error) {
      return this.bodyFailure(error, response.status, clock, signal, 'body', url);
    }
    return this.errors.create({
      message: `${this.provider} answered with JSON instead of an event stream (HTTP ${response.status}, ${requestTarget('POST', url)})`,
      detail: describeErrorBody(this.errors.scrub(text), response.headers.get('content-type')),
      status: response.status,
      retryable: false,
    });
  }

  /**
   * A stream request answered with a body that held no event and was not declared an event
   * stream (a proxy's HTML page, plain text, nothing): what the body is, never retried (the same
   * request gets the same answer), rather than "the stream ended early" for a stream that never
   * began.
   */
  private noEventStream(response: Response, head: BodyHead, url: string): Error {
    const text = new TextDecoder().decode(Buffer.concat(head.chunks));
    const contentType = response.headers.get('content-type');
    const body =
      text.trim() === '' ? 'an empty body' : `content-type ${contentType ?? 'not given'}`;
    return this.errors.create({
      message: `${this.provider} answered without any server-sent event (HTTP ${response.status}, ${body}, ${requestTarget('POST', url)})`,
      detail: describeErrorBody(this.errors.scrub(text), contentType),
      status: response.status,
      retryable: false,
    });
  }

  private networkFailure(
    error: unknown,
    clock: AttemptClock,
    phase: FailurePhase,
    url: string,
  ): Error {
    switch (clock.expired) {
      case 'call':
        return this.errors.create({
          message: `${this.provider} request timed out after ${this.timeoutMs} ms (timeoutMs: the whole call, retries included)`,
          retryable: true,
          cause: error,
        });
      case 'attempt':
        return this.errors.create({
          message: `${this.provider} request attempt timed out after ${this.attemptTimeoutMs} ms (attemptTimeoutMs)`,
          retryable: true,
          cause: error,
        });
      case 'idle':
        return this.errors.create({
          message: {
            request: `${this.provider} request stalled: no answer for ${this.idleTimeoutMs} ms (idleTimeoutMs)`,
            body: `${this.provider} response body stalled: not complete ${this.idleTimeoutMs} ms after its headers (idleTimeoutMs)`,
            stream: `${this.provider} stream stalled: no data for ${this.idleTimeoutMs} ms (idleTimeoutMs; keep-alive comments and pings do not count)`,
          }[phase],
          retryable: true,
          cause: error,
        });
      default:
        break;
    }
    if (clock.signal.aborted) return new AbortError(undefined, { cause: error });
    const code = errorCode(error);
    return this.errors.create({
      message: `${this.provider} connection failed (${code ? `${code}, ` : ''}${requestTarget('POST', url)}): the request may be retried`,
      retryable: true,
      cause: error,
    });
  }

  private bodyFailure(
    error: unknown,
    status: number,
    clock: AttemptClock,
    callerSignal: AbortSignal | undefined,
    phase: 'body' | 'stream',
    url: string,
  ): Error {
    if (error instanceof ChatModelError) return error;
    if (callerSignal?.aborted) return new AbortError(undefined, { cause: error });
    if (error instanceof BodyTooLargeError) {
      return this.errors.create({
        message: `${this.provider} ${error.message}`,
        status,
        retryable: false,
      });
    }
    if (error instanceof EventTooLargeError) {
      return this.errors.create({
        message: `${this.provider} stream failed: ${error.message}`,
        status,
        retryable: false,
      });
    }
    return this.networkFailure(error, clock, phase, url);
  }

  private async shouldRetry(
    error: unknown,
    attempt: number,
    signal: AbortSignal | undefined,
    callDeadlineAt: number,
  ): Promise<boolean> {
    if (!(error instanceof ChatModelError) || !error.retryable || attempt >= this.maxRetries) {
      return false;
    }
    if (signal?.aborted) return false;
    const wait = retryDelayMs(attempt, serverDelays.get(error), this.options.retryDelay);
    // A retry that could only start after the deadline is not tried: the caller gets the failure now.
    if (performance.now() + wait >= callDeadlineAt) return false;
    await delay(wait, signal);
    if (signal?.aborted) throw new AbortError(undefined, { cause: error });
    return true;
  }
}

/** The first bytes of a body, up to {@link ERROR_BODY_LIMIT}. */
interface BodyHead {
  chunks: Uint8Array[];
  size: number;
}

/** Passes `chunks` on, keeping their first bytes in `head`. */
async function* keepingHead(
  chunks: AsyncIterable<Uint8Array>,
  head: BodyHead,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    if (head.size < ERROR_BODY_LIMIT) {
      const kept = chunk.subarray(0, ERROR_BODY_LIMIT - head.size);
      head.chunks.push(kept);
      head.size += kept.byteLength;
    }
    yield chunk;
  }
}

/** How long a complete answer's response may take to end before its connection is cut. */
const RELEASE_GRACE_MS = 1000;

/**
 * Reads what the response of a complete answer still holds (usually only its end, which often
 * arrives just after the completing event) in the background, so that its keep-alive connection
 * goes back to the pool: cancelling the body instead closes the connection, and the next request
 * pays a new connection (and TLS handshake) to the provider. A server that holds the response
 * open is cut off after {@link RELEASE_GRACE_MS}; the caller never waits for any of it.
 */
function releaseWhenEnded(events: AsyncGenerator<ServerSentEvent>, clock: AttemptClock): void {
  const grace = setTimeout(() => clock.abandon(), RELEASE_GRACE_MS);
  grace.unref?.();
  void (async () => {
    try {
      while (!(await events.next()).done) {
        // What follows the completing event is not read.
      }
    } catch {
      // Cut off, or a broken end: the answer was already complete.
    } finally {
      clearTimeout(grace);
      await events.return(undefined).catch(() => undefined);
    }
  })();
}

function positiveLimit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0)) {
    throw new InvalidArgumentError(`${name} must be a number of milliseconds greater than 0`);
  }
  return value;
}

/** A readable one-line summary of an error body: the provider's JSON message, or an HTML page's title. */
function describeErrorBody(text: string, contentType: string | null): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const page = htmlPage(trimmed, contentType);
  if (page !== undefined) return `the server answered with ${page}`;
  return jsonErrorMessage(trimmed) ?? trimmed.replace(/\s+/g, ' ');
}

/** `an HTML page ("<its title>")` when the body is one (by its content type or its start). */
function htmlPage(text: string, contentType: string | null): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!contentType?.includes('html') && !/^<(!doctype|html)/i.test(trimmed)) return undefined;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(trimmed)?.[1]?.trim();
  return `an HTML page${title ? ` ("${title}")` : ''}`;
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
    // OpenAI and Anthropic name the kind of error `type`; Google names it `status`.
    const { message, type, status } = error as Record<string, unknown>;
    const kind = typeof type === 'string' ? type : typeof status === 'string' ? status : undefined;
    if (typeof message === 'string') return kind === undefined ? message : `${kind}: ${message}`;
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

/**
 * Whether the data of an event the stream ended inside is whole: every provider writes one JSON
 * value per event (OpenAI ends with `[DONE]`), so a cut one does not parse.
 */
function isWholeEventData(data: string): boolean {
  if (data === '[DONE]') return true;
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}
