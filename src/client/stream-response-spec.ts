import type { ChatClientResponse } from '../advisors/index.js';
import type { ChatResponse } from '../model/index.js';

/**
 * The result of `.stream()`. Each method returns a new iterable, and each iteration runs the
 * request anew (like re-subscribing). Breaking out of a `for await` stops the run.
 */
export class StreamResponseSpec {
  private readonly execute: () => AsyncIterable<ChatClientResponse>;

  /** Made by `ChatClientRequestSpec.stream()`; not meant to be constructed directly. */
  constructor(execute: () => AsyncIterable<ChatClientResponse>) {
    this.execute = execute;
  }

  /** The chunks as they leave the advisor chain, with the advisors' context. */
  chatClientResponse(): AsyncIterable<ChatClientResponse> {
    return this.execute();
  }

  /** The response chunks (text deltas, then the chunk carrying tool calls, finish reason and usage). */
  async *chatResponse(): AsyncIterable<ChatResponse> {
    for await (const response of this.execute()) {
      if (response.chatResponse) yield response.chatResponse;
    }
  }

  /** The text deltas of the first generation; empty deltas are skipped. */
  content(): AsyncIterable<string> {
    // An iterator of its own rather than an async generator: every text delta passes here, and a
    // generator layer costs extra promises and microtask hops per delta.
    return new TextDeltaIterator(this.execute);
  }
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The iteration of {@link StreamResponseSpec.content}. Like an async generator it runs the
 * request on the first `next`, is its own iterable (so it is iterated once), is over once the
 * chain's stream ends or fails, and stops that stream on `return`.
 */
class TextDeltaIterator implements AsyncIterableIterator<string> {
  readonly #execute: () => AsyncIterable<ChatClientResponse>;
  #source: AsyncIterator<ChatClientResponse> | undefined;
  #finished = false;

  constructor(execute: () => AsyncIterable<ChatClientResponse>) {
    this.#execute = execute;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<string, undefined>> {
    if (this.#finished) return Promise.resolve(DONE);
    try {
      this.#source ??= this.#execute()[Symbol.asyncIterator]();
      return this.#source.next().then(this.#onChunk, this.#onError);
    } catch (error) {
      return this.#onErrorAsync(error);
    }
  }

  async return(value?: undefined): Promise<IteratorResult<string, undefined>> {
    const source = this.#source;
    const running = !this.#finished && source !== undefined;
    this.#finished = true;
    this.#source = undefined;
    if (running && source.return !== undefined) await source.return();
    return { done: true, value };
  }

  /** A chunk without text is skipped: the next one is awaited in its place. */
  readonly #onChunk = (
    result: IteratorResult<ChatClientResponse>,
  ): IteratorResult<string, undefined> | Promise<IteratorResult<string, undefined>> => {
    if (result.done) {
      this.#finished = true;
      this.#source = undefined;
      return DONE;
    }
    const text = result.value.chatResponse?.results[0]?.output.text;
    if (text) return { done: false, value: text };
    const source = this.#source;
    if (source === undefined) return DONE;
    return source.next().then(this.#onChunk, this.#onError);
  };

  readonly #onError = (error: unknown): never => {
    this.#finished = true;
    this.#source = undefined;
    throw error;
  };

  #onErrorAsync(error: unknown): Promise<never> {
    this.#finished = true;
    this.#source = undefined;
    return Promise.reject(error);
  }
}
