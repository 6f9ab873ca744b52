import { describe, expect, it } from 'vitest';
import {
  type ChunkReader,
  DONE,
  plainReader,
  READ_THROUGH,
  type ReadThroughIterator,
  readThrough,
  SKIP,
} from './read-through.js';

/** A reader that doubles numbers, skips odd ones and records how the iteration ended. */
function doublingReader(): ChunkReader<number, number> & { ends: number; failures: unknown[] } {
  const reader = {
    ends: 0,
    failures: [] as unknown[],
    element: (value: number) =>
      value % 2 === 1 ? SKIP : { done: false as const, value: value * 2 },
    end: () => {
      reader.ends++;
      return DONE;
    },
    fail: (error: unknown) => {
      reader.failures.push(error);
      return DONE;
    },
  };
  return reader;
}

async function readAll<T, R>(
  iterator: AsyncIterator<T, unknown, undefined>,
  reader: ChunkReader<T, R>,
) {
  const values: R[] = [];
  for (;;) {
    const result = await readThrough(iterator, reader);
    if (result.done) return values;
    values.push(result.value);
  }
}

describe('readThrough', () => {
  it('reads an async generator with next(): maps each element, reads past skipped ones, ends once', async () => {
    async function* numbers() {
      yield* [1, 2, 3, 4, 5];
    }
    const reader = doublingReader();
    expect(await readAll(numbers(), reader)).toEqual([4, 8]);
    expect(reader.ends).toBe(1);
    expect(reader.failures).toEqual([]);
  });

  it("hands an iterator's failure to the reader", async () => {
    const boom = new Error('source failed');
    async function* failing() {
      yield 2;
      throw boom;
    }
    const reader = doublingReader();
    expect(await readAll(failing(), reader)).toEqual([4]);
    expect(reader.failures).toEqual([boom]);
    expect(reader.ends).toBe(0);
  });

  it('fails the read with an error the reader throws and leaves the iterator open', async () => {
    let closed = false;
    async function* numbers() {
      try {
        yield 1;
        yield 2;
      } finally {
        closed = true;
      }
    }
    const iterator = numbers();
    const boom = new Error('reader failed');
    const reader: ChunkReader<number, number> = {
      element: () => {
        throw boom;
      },
      end: () => DONE,
      fail: (error) => {
        throw error;
      },
    };
    await expect(readThrough(iterator, reader)).rejects.toBe(boom);
    expect(closed).toBe(false);
    expect(await iterator.next()).toEqual({ done: false, value: 2 });
    await iterator.return?.(undefined);
    expect(closed).toBe(true);
  });

  it('lets an iterator that reads through itself apply the reader (next() is not called)', async () => {
    const seen: ChunkReader<number, unknown>[] = [];
    const iterator: ReadThroughIterator<number> = {
      next: () => Promise.reject(new Error('next() must not be called')),
      [READ_THROUGH]<R>(reader: ChunkReader<number, R>) {
        seen.push(reader as ChunkReader<number, unknown>);
        const outcome = reader.element(6);
        return Promise.resolve(outcome === SKIP ? reader.end() : outcome);
      },
    };
    const reader = doublingReader();
    expect(await readThrough(iterator, reader)).toEqual({ done: false, value: 12 });
    expect(seen).toEqual([reader]);
  });

  it('the plain reader gives the elements as they are and throws failures', async () => {
    async function* failing() {
      yield 'a';
      throw new Error('late');
    }
    const iterator = failing();
    expect(await readThrough(iterator, plainReader<string>())).toEqual({ done: false, value: 'a' });
    await expect(readThrough(iterator, plainReader<string>())).rejects.toThrow('late');
    expect(await readThrough(iterator, plainReader<string>())).toEqual(DONE);
  });
});
