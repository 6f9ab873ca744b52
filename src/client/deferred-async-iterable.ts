import {
  type ChunkReader,
  plainReader,
  READ_THROUGH,
  type ReadThroughIterator,
  readThrough,
} from '../internal/read-through.js';

/**
 * An async iterable whose source is built (at once, or asynchronously when `build` returns a
 * promise) when an iteration asks for its first element; every iteration builds its own. Once built, `next` and `return` pass straight through
 * to the source's iterator, so a chunk costs no extra generator layer (an `async function*` that
 * did `yield*` would add one, with its microtask hops, to every chunk of a stream). A failed build
 * rejects that first `next`, and the iteration is over. Reads go through to the source's reader
 * too (see `readThrough`).
 */
export function deferredAsyncIterable<T>(
  build: () => AsyncIterable<T> | Promise<AsyncIterable<T>>,
): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: () => new DeferredAsyncIterator(build) };
}

class DeferredAsyncIterator<T> implements ReadThroughIterator<T> {
  readonly #build: () => AsyncIterable<T> | Promise<AsyncIterable<T>>;
  #source: AsyncIterator<T> | undefined;
  #starting: Promise<AsyncIterator<T> | undefined> | undefined;
  #finished = false;

  constructor(build: () => AsyncIterable<T> | Promise<AsyncIterable<T>>) {
    this.#build = build;
  }

  next(): Promise<IteratorResult<T, unknown>> {
    const source = this.#source;
    if (source !== undefined) return source.next();
    return this[READ_THROUGH](plainReader<T>());
  }

  [READ_THROUGH]<R>(reader: ChunkReader<T, R>): Promise<IteratorResult<R, undefined>> {
    const source = this.#source;
    if (source !== undefined) return readThrough(source, reader);
    if (this.#finished) return Promise.resolve(reader.end());
    if (this.#starting === undefined) {
      let built: AsyncIterable<T> | Promise<AsyncIterable<T>>;
      try {
        built = this.#build();
      } catch (error) {
        this.#finished = true;
        return Promise.resolve(reader.fail(error));
      }
      // Built at once (a request without tool providers): read it now, without a promise hop.
      if (!(built instanceof Promise)) {
        this.#source = built[Symbol.asyncIterator]();
        return readThrough(this.#source, reader);
      }
      this.#starting = this.#start(built);
    }
    return this.#readWhenStarted(this.#starting, reader);
  }

  /** Reads the source once it is built (a method of its own: see `readWithNext` in read-through.ts). */
  #readWhenStarted<R>(
    starting: Promise<AsyncIterator<T> | undefined>,
    reader: ChunkReader<T, R>,
  ): Promise<IteratorResult<R, undefined>> {
    return starting.then(
      (started) => (started === undefined ? reader.end() : readThrough(started, reader)),
      (error: unknown) => reader.fail(error),
    );
  }

  async return(value?: unknown): Promise<IteratorResult<T, unknown>> {
    const source =
      this.#source ?? (this.#starting === undefined ? undefined : await this.#starting);
    this.#finished = true;
    this.#source = undefined;
    if (source?.return !== undefined) await source.return();
    return { done: true, value };
  }

  async #start(building: Promise<AsyncIterable<T>>): Promise<AsyncIterator<T> | undefined> {
    try {
      const iterable = await building;
      if (this.#finished) return undefined;
      this.#source = iterable[Symbol.asyncIterator]();
      return this.#source;
    } catch (error) {
      this.#finished = true;
      throw error;
    }
  }
}
