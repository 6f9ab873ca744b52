import type { ChatClientResponse } from '../advisors/index.js';
import { type ChunkReader, DONE, readThrough, SKIP } from '../internal/read-through.js';
import { type ChatResponse, ChatResponseAggregator } from '../model/index.js';
import type { TurnEvent, TurnEventListener } from '../observability/turn-event.js';
import { streamTurnEvents } from './stream-turn-events.js';

/** What one run of a stream may add: a listener of its events and a signal of its own. */
export interface StreamRun {
  readonly listener?: TurnEventListener;
  /**
   * The run's own signal, which its owner aborts when it stops reading (as `.events()` does): the
   * run then needs no abort-on-return of its own.
   */
  readonly signal?: AbortSignal;
}

/** Runs the request once as a stream of chunks. */
export type StreamExecutor = (run?: StreamRun) => AsyncIterable<ChatClientResponse>;

/**
 * The result of `.stream()`. Each method returns a new iterable, and each iteration runs the
 * request anew (like re-subscribing). Breaking out of a `for await` stops the run.
 *
 * A spec that is neither iterated nor awaited sends nothing. So that forgetting to iterate is not
 * silent, the spec is awaitable: `await client.prompt(q).stream()` runs the request, consumes the
 * whole stream and resolves to one {@link ChatClientResponse} holding the aggregate of every chunk
 * the caller would have seen (all rounds' text, the final finish reason and usage) and the last
 * chunk's context. Awaiting runs the request once however often the spec is awaited. Being a
 * thenable, an unawaited `client.prompt(q).stream();` is reported by floating-promise lint rules
 * (typescript-eslint `no-floating-promises`, Biome `noFloatingPromises`).
 */
export class StreamResponseSpec implements PromiseLike<ChatClientResponse> {
  private readonly execute: StreamExecutor;
  private aggregated: Promise<ChatClientResponse> | undefined;

  /** Made by `ChatClientRequestSpec.stream()`; not meant to be constructed directly. */
  constructor(execute: StreamExecutor) {
    this.execute = execute;
  }

  /**
   * The turn as typed events, for a UI: `text-delta`s, each `tool-call` and its
   * `tool-execution-start`, `tool-progress` and `tool-result`, `step-finish` after every model call
   * and its tool round, and `turn-finish` or `turn-error` last — the whole turn, tool rounds
   * included. Each iteration runs the request once. Breaking out of the loop (or `return()`) stops
   * the turn: the model call in flight and running tools are aborted. A failure that ends the turn
   * arrives as a `turn-error` event; one before the turn began (building the request) is thrown.
   */
  events(): AsyncIterable<TurnEvent> {
    const execute = this.execute;
    return { [Symbol.asyncIterator]: () => streamTurnEvents(execute) };
  }

  /** The chunks as they leave the advisor chain, with the advisors' context. */
  chatClientResponse(): AsyncIterable<ChatClientResponse> {
    return this.execute();
  }

  /** The response chunks (text deltas, then the chunk carrying tool calls, finish reason and usage). */
  chatResponse(): AsyncIterable<ChatResponse> {
    return new ChunkPartIterator(this.execute, chatResponseOf);
  }

  /**
   * Makes the spec awaitable: consumes one run of the stream (started on the first `await`, shared
   * by later ones) and settles with its aggregated response (see the class doc).
   */
  // biome-ignore lint/suspicious/noThenProperty: the spec is deliberately awaitable (see the class doc).
  then<Result = ChatClientResponse, Failure = never>(
    onFulfilled?: ((response: ChatClientResponse) => Result | PromiseLike<Result>) | null,
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<Result | Failure> {
    this.aggregated ??= aggregateStream(this.execute());
    return this.aggregated.then(onFulfilled, onRejected);
  }

  /** As a promise's `catch`: consumes the stream (see `then`) and handles its failure. */
  catch<Failure = never>(
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<ChatClientResponse | Failure> {
    return this.then(undefined, onRejected);
  }

  /** As a promise's `finally`: consumes the stream (see `then`) and calls `onFinally` once it settles. */
  finally(onFinally?: (() => void) | null): Promise<ChatClientResponse> {
    return this.then().finally(onFinally);
  }

  /** The text deltas of the first generation; empty deltas are skipped. */
  content(): AsyncIterable<string> {
    // An iterator of its own rather than an async generator: every text delta passes here, and
    // reading through the chain (see `readThrough`) spares each delta a promise per layer.
    return new ChunkPartIterator(this.execute, textDelta);
  }
}

/** Consumes a stream of chunks into one response carrying the last chunk's context. */
async function aggregateStream(
  chunks: AsyncIterable<ChatClientResponse>,
): Promise<ChatClientResponse> {
  const aggregator = new ChatResponseAggregator();
  let sawResponse = false;
  let context: Record<string, unknown> = {};
  for await (const chunk of chunks) {
    context = chunk.context;
    if (chunk.chatResponse) {
      sawResponse = true;
      aggregator.add(chunk.chatResponse);
    }
  }
  return { chatResponse: sawResponse ? aggregator.result() : null, context };
}

/**
 * The iteration of {@link StreamResponseSpec.content} and {@link StreamResponseSpec.chatResponse}:
 * one part of each chunk (chunks without it are skipped). Like an async generator it runs the
 * request on the first `next`, is its own iterable (so it is iterated once), is over once the
 * chain's stream ends or fails, and stops that stream on `return`. It reads the chain through a
 * reader (see `readThrough`): measured with bench/streaming.ts, reading the default chain's
 * layers through one reader took allocation from 1,402 to 1,170 B per text chunk and the text
 * round from 33% to 45% of a bare async iterator's rate, against a `then` per layer.
 */
class ChunkPartIterator<T> implements AsyncIterableIterator<T> {
  readonly #execute: StreamExecutor;
  #source: AsyncIterator<ChatClientResponse> | undefined;
  #finished = false;
  readonly #reader: ChunkReader<ChatClientResponse, T>;

  constructor(execute: StreamExecutor, part: ChunkReader<ChatClientResponse, T>['element']) {
    this.#execute = execute;
    this.#reader = {
      element: part,
      end: () => {
        this.#stop();
        return DONE;
      },
      fail: (error) => {
        this.#stop();
        throw error;
      },
    };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.#finished) return Promise.resolve(DONE);
    try {
      this.#source ??= this.#execute()[Symbol.asyncIterator]();
      return readThrough(this.#source, this.#reader);
    } catch (error) {
      this.#stop();
      return Promise.reject(error);
    }
  }

  async return(value?: undefined): Promise<IteratorResult<T, undefined>> {
    const source = this.#source;
    const running = !this.#finished && source !== undefined;
    this.#finished = true;
    this.#source = undefined;
    if (running && source.return !== undefined) await source.return();
    return { done: true, value };
  }

  #stop(): void {
    this.#finished = true;
    this.#source = undefined;
  }
}

/** The text delta of a chunk's first generation as a reader's result; a chunk without one is skipped. */
function textDelta(chunk: ChatClientResponse): IteratorResult<string, undefined> | typeof SKIP {
  const text = chunk.chatResponse?.results[0]?.output.text;
  return text ? { done: false, value: text } : SKIP;
}

/** A chunk's response as a reader's result; a chunk without one is skipped. */
function chatResponseOf(
  chunk: ChatClientResponse,
): IteratorResult<ChatResponse, undefined> | typeof SKIP {
  const response = chunk.chatResponse;
  return response ? { done: false, value: response } : SKIP;
}
