import type {
  ChatClientRequest,
  ChatClientResponse,
  StreamAdvisorChain,
} from '../advisors/index.js';
import { AbortError } from '../errors/index.js';
import {
  type ChunkReader,
  DONE,
  type MaybeAsyncResult,
  plainReader,
  READ_THROUGH,
  type ReadThroughIterator,
  readThrough,
  SKIP,
} from '../internal/read-through.js';
import { pumpDurableRound } from './durable-rounds.js';
import { type ModelCaller, runToolLoop } from './run-tool-loop.js';
import { StreamRound } from './stream-round.js';
import type { ToolLoopHooks } from './tool-loop-hooks.js';
import type { ToolLoopState } from './tool-loop-state.js';

/**
 * The stream driver of the tool loop: an iterable whose every iteration runs the loop core once
 * (see {@link ToolLoopStream}).
 */
export function streamToolLoop(
  hooks: ToolLoopHooks,
  request: ChatClientRequest,
  chain: StreamAdvisorChain,
): AsyncIterable<ChatClientResponse> {
  return { [Symbol.asyncIterator]: () => new ToolLoopStream(hooks, request, chain) };
}

/** A round the core is waiting for: its chunk source, its chunk handling, and the core's resume. */
interface ActiveRound {
  readonly source: AsyncIterator<ChatClientResponse>;
  readonly handler: StreamRound;
  readonly resolve: (response: ChatClientResponse) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One run of the stream loop. The core runs as a plain async function; when it asks for a model
 * call, this iterator reads the round's chunk source itself on the caller's read and answers
 * with what the caller may see of each chunk, so a chunk never passes through the core. When the
 * round's source ends, the core is resumed with the round's aggregate; a failure of the source
 * (or of a chunk's handling, after closing the source) is the core's failure. `return` closes the
 * round's source and stops the core at its model call.
 *
 * Hand-written rather than an async generator on purpose (measured with bench/streaming.ts and a
 * same-process A/B run): an async-generator driver allocated ~22 KB more per streamed conversation
 * (50 text chunks) and passed chunks measurably slower. It reads through the caller's reader (see
 * `readThrough`): the round's chunk, the loop's handling of it and the caller's use of it happen
 * in one promise reaction of the model's stream.
 */
class ToolLoopStream implements ReadThroughIterator<ChatClientResponse>, ModelCaller {
  readonly #hooks: ToolLoopHooks;
  readonly #request: ChatClientRequest;
  readonly #chain: StreamAdvisorChain;
  #next: StreamAdvisorChain | undefined;
  #core: Promise<void> | undefined;
  #round: ActiveRound | undefined;
  /** Chunks the core made itself, not yet read (at most a usage trailer or the ending). */
  #queued: ChatClientResponse[] | undefined;
  #finished = false;
  #failure: { error: unknown } | undefined;
  /** The caller's read waiting for the core to start a round, emit a chunk or end. */
  #wake: (() => void) | undefined;
  /** The caller's reader of the read in flight (reads are sequential, as in a `for await`). */
  #reader: ChunkReader<ChatClientResponse, unknown> = plainReader();
  /** How this iterator reads the active round's source on behalf of {@link #reader}. */
  readonly #roundReader: ChunkReader<ChatClientResponse, unknown>;

  constructor(hooks: ToolLoopHooks, request: ChatClientRequest, chain: StreamAdvisorChain) {
    this.#hooks = hooks;
    this.#request = request;
    this.#chain = chain;
    this.#roundReader = {
      element: (chunk) => this.#onRoundChunk(chunk),
      end: () => this.#onRoundEnd(),
      fail: (error) => this.#onRoundFailure(error),
    };
  }

  next(): Promise<IteratorResult<ChatClientResponse, undefined>> {
    return this[READ_THROUGH](plainReader<ChatClientResponse>());
  }

  [READ_THROUGH]<R>(
    reader: ChunkReader<ChatClientResponse, R>,
  ): Promise<IteratorResult<R, undefined>> {
    if (this.#core === undefined && !this.#finished) {
      this.#next = this.#chain.copy(this.#hooks.advisor);
      this.#core = runToolLoop(this.#hooks, this.#request, 'stream', this.#chain, this).then(
        this.#onCoreEnd,
        this.#onCoreFailure,
      );
    }
    this.#reader = reader;
    return Promise.resolve(this.#pull()) as Promise<IteratorResult<R, undefined>>;
  }

  async return(): Promise<IteratorResult<ChatClientResponse, undefined>> {
    const round = this.#round;
    this.#round = undefined;
    this.#finished = true;
    this.#queued = undefined;
    if (round !== undefined) {
      try {
        if (round.source.return !== undefined) await round.source.return();
      } finally {
        round.reject(streamStopped());
      }
    }
    await this.#core;
    return DONE;
  }

  callModel(request: ChatClientRequest, state: ToolLoopState): Promise<ChatClientResponse> {
    if (this.#finished) return Promise.reject(streamStopped());
    const source = (this.#next as StreamAdvisorChain).nextStream(request)[Symbol.asyncIterator]();
    const handler = new StreamRound(this.#hooks, state, request.context);
    if (state.durable !== undefined) {
      // Inside the round's step: the round is read to its end here, not on the caller's reads.
      return pumpDurableRound(source, handler, state.durable, state.iteration, this);
    }
    return new Promise<ChatClientResponse>((resolve, reject) => {
      this.#round = { source, handler, resolve, reject };
      this.#wakeUp();
    });
  }

  emit(chunk: ChatClientResponse): void {
    if (this.#finished) return;
    if (this.#queued === undefined) this.#queued = [chunk];
    else this.#queued.push(chunk);
    this.#wakeUp();
  }

  /** The reader's next result: a queued chunk, the active round's next chunk, or the ending. */
  #pull(): MaybeAsyncResult<unknown> {
    const reader = this.#reader;
    const queued = this.#queued;
    while (queued !== undefined && queued.length > 0) {
      const outcome = reader.element(queued.shift() as ChatClientResponse);
      if (outcome !== SKIP) return outcome;
    }
    const round = this.#round;
    if (round !== undefined) return readThrough(round.source, this.#roundReader);
    const failure = this.#failure;
    if (failure !== undefined) {
      this.#failure = undefined;
      return reader.fail(failure.error);
    }
    if (this.#finished) return reader.end();
    return this.#pullWhenWoken();
  }

  /**
   * {@link #pull} once the core started a round, emitted a chunk or ended. A method of its own:
   * its callbacks' scope would otherwise be allocated on every read of a chunk.
   */
  #pullWhenWoken(): Promise<IteratorResult<unknown, undefined>> {
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
    }).then(() => this.#pull());
  }

  #wakeUp(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    this.#wake = undefined;
    wake();
  }

  #onRoundChunk(chunk: ChatClientResponse): MaybeAsyncResult<unknown> | typeof SKIP {
    const round = this.#round;
    // `return()` took the round while this read waited for the chunk: the iteration is over.
    if (round === undefined) return this.#pull();
    let outgoing: ChatClientResponse | undefined;
    try {
      outgoing = round.handler.accept(chunk);
    } catch (error) {
      this.#round = undefined;
      return this.#closeAndFail(round, error);
    }
    return outgoing === undefined ? SKIP : this.#reader.element(outgoing);
  }

  #onRoundEnd(): MaybeAsyncResult<unknown> {
    const round = this.#round;
    this.#round = undefined;
    round?.resolve(round.handler.result());
    return this.#pull();
  }

  #onRoundFailure(error: unknown): MaybeAsyncResult<unknown> {
    const round = this.#round;
    this.#round = undefined;
    round?.reject(error);
    return this.#pull();
  }

  async #closeAndFail(
    round: ActiveRound,
    error: unknown,
  ): Promise<IteratorResult<unknown, undefined>> {
    // As a `for await` whose body throws: the source is closed, a failure to close is ignored.
    try {
      await round.source.return?.();
    } catch {}
    round.reject(error);
    return this.#pull();
  }

  readonly #onCoreEnd = (): void => {
    this.#finished = true;
    this.#wakeUp();
  };

  readonly #onCoreFailure = (error: unknown): void => {
    if (!this.#finished) this.#failure = { error };
    this.#finished = true;
    this.#wakeUp();
  };
}

/** Ends the core at its model call once the caller stopped reading; never reaches the caller. */
function streamStopped(): AbortError {
  return new AbortError('The stream was stopped by its caller');
}
