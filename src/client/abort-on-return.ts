import { AbortError } from '../errors/index.js';
import {
  type ChunkReader,
  READ_THROUGH,
  type ReadThroughIterator,
  readThrough,
} from '../internal/read-through.js';
import { stopFlagFor } from '../internal/stream-stop-flags.js';

/**
 * An async iterable whose every iteration runs `run` with a signal of its own (following
 * `outer`), and aborts that signal when the iteration is stopped early (`return()`: a `break`, a
 * cancelled response body, a destroyed pipe). Stopping a stream therefore stops the model request
 * and the tools running at that moment: without the abort, a generator busy in a tool round only
 * sees its `return()` at its next chunk, after the tools finished and the next model call began.
 * `next()` and reads (see `readThrough`) pass straight through (no extra promise per chunk).
 */
export function abortOnReturn<T>(
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => AsyncIterable<T>,
): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): ReadThroughIterator<T> {
      const controller = new AbortController();
      // Without an outer signal, only this iteration's `return()` aborts the signal: its flag
      // spares the stream loop a read of the signal per chunk (see stream-stop-flags.ts).
      const stopFlag = outer === undefined ? stopFlagFor(controller.signal) : undefined;
      const signal =
        outer === undefined ? controller.signal : AbortSignal.any([outer, controller.signal]);
      const source = run(signal)[Symbol.asyncIterator]();
      return {
        next: () => source.next(),
        [READ_THROUGH]: <R>(reader: ChunkReader<T, R>) => readThrough(source, reader),
        async return(value?: unknown): Promise<IteratorResult<T>> {
          if (!controller.signal.aborted) {
            if (stopFlag !== undefined) stopFlag.stopped = true;
            controller.abort(new AbortError('The stream was stopped by its consumer'));
          }
          if (source.return !== undefined) await source.return().catch(() => undefined);
          return { done: true, value: value as T };
        },
      };
    },
  };
}
