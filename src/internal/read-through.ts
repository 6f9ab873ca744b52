/** What {@link ChunkReader.element} returns to drop an element: the next one is read in its place. */
export const SKIP: unique symbol = Symbol('toolloop.skip');

/** An iterator result, or a promise of one. */
export type MaybeAsyncResult<R> =
  | IteratorResult<R, undefined>
  | Promise<IteratorResult<R, undefined>>;

/**
 * How the reader of a stream turns what one `next` of the iterator below it settles with into
 * its own iterator result, inside the reaction of the iterator below (see {@link readThrough}).
 */
export interface ChunkReader<T, R> {
  /**
   * One element: the reader's result for it, or {@link SKIP} to read the next element in its
   * place. If it throws, the read fails with that error and the iterator stays open (as when the
   * body of a `for await` throws: the reader closes it).
   */
  element(value: T): MaybeAsyncResult<R> | typeof SKIP;
  /** The iterator is done; it is over. */
  end(): MaybeAsyncResult<R>;
  /** The iterator failed; it is over. */
  fail(error: unknown): MaybeAsyncResult<R>;
}

/** The method of an iterator that reads its next element through a {@link ChunkReader}. */
export const READ_THROUGH: unique symbol = Symbol('toolloop.readThrough');

/** An async iterator that can hand its next element to a {@link ChunkReader} itself. */
export interface ReadThroughIterator<T> extends AsyncIterator<T, unknown, undefined> {
  [READ_THROUGH]<R>(reader: ChunkReader<T, R>): Promise<IteratorResult<R, undefined>>;
}

/**
 * Reads `iterator`'s next element through `reader`. Why: every text chunk of a stream passes
 * through several layers (model advisor, tool loop, request spec, `.content()`), and each layer
 * that waits on the one below with a `then` of its own adds a promise, a microtask and an iterator
 * result per chunk. An iterator of toolloop's own (one that has {@link READ_THROUGH}) instead
 * calls the reader in the reaction to its own source, handing the reader on to its source when it
 * only forwards: the layers of a default chain cost one promise reaction per chunk together.
 * Any other iterator (an advisor written as an async generator) is read with `next().then`.
 */
export function readThrough<T, R>(
  iterator: AsyncIterator<T, unknown, undefined>,
  reader: ChunkReader<T, R>,
): Promise<IteratorResult<R, undefined>> {
  if (READ_THROUGH in iterator) {
    return (iterator as ReadThroughIterator<T>)[READ_THROUGH](reader);
  }
  return readWithNext(iterator, reader);
}

/**
 * {@link readThrough} of an iterator without {@link READ_THROUGH}. A function of its own: its
 * callbacks capture the iterator and the reader, and a function that creates closures allocates
 * their scope on every call, also on a path that creates none (measured: the reads of a default
 * chain allocated ~100 B more per chunk while the callbacks were written inline).
 */
function readWithNext<T, R>(
  iterator: AsyncIterator<T, unknown, undefined>,
  reader: ChunkReader<T, R>,
): Promise<IteratorResult<R, undefined>> {
  return iterator.next().then(
    (result): MaybeAsyncResult<R> => {
      if (result.done) return reader.end();
      const outcome = reader.element(result.value);
      return outcome === SKIP ? readThrough(iterator, reader) : outcome;
    },
    (error: unknown) => reader.fail(error),
  );
}

/** The iterator result of a finished iteration. */
export const DONE: IteratorReturnResult<undefined> = Object.freeze({
  done: true,
  value: undefined,
});

/** The reader of a plain `next`: every element as it is, the end as {@link DONE}, failures thrown. */
export const PLAIN_READER: ChunkReader<unknown, unknown> = Object.freeze({
  element: (value: unknown): IteratorResult<unknown, undefined> => ({ done: false, value }),
  end: () => DONE,
  fail: (error: unknown): never => {
    throw error;
  },
});

/** {@link PLAIN_READER}, typed for `T`. */
export function plainReader<T>(): ChunkReader<T, T> {
  return PLAIN_READER as ChunkReader<T, T>;
}
