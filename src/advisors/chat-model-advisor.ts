import { throwIfAborted } from '../errors/index.js';
import {
  type ChunkReader,
  DONE,
  type MaybeAsyncResult,
  plainReader,
  READ_THROUGH,
  type ReadThroughIterator,
  SKIP,
} from '../internal/read-through.js';
import type { ChatModel, ChatResponse } from '../model/index.js';
import type { CallAdvisor, StreamAdvisor } from './advisor.js';
import { LOWEST_PRECEDENCE } from './advisor-order.js';
import type { ChatClientRequest, ChatClientResponse } from './chat-client-request.js';
import { toModelPrompt } from './model-prompt.js';

/**
 * The terminal advisor: calls the model. Streams use the model's `stream` when it has one and a
 * single chunk from `call` otherwise. The response context is a copy of the request context.
 *
 * The model receives the prompt without the tool context, and the tools as their definitions only
 * (see {@link toModelPrompt}): an adapter that forwards options it does not know, or serialises
 * the tools it is given, cannot send the caller's context or a tool's own fields to a provider.
 */
export class ChatModelAdvisor implements CallAdvisor, StreamAdvisor {
  readonly name = 'ChatModelAdvisor';
  readonly order = LOWEST_PRECEDENCE;
  private readonly chatModel: ChatModel;

  constructor(chatModel: ChatModel) {
    this.chatModel = chatModel;
  }

  adviseCall(request: ChatClientRequest): Promise<ChatClientResponse> {
    // A `then` rather than an async function: one promise and one microtask hop less per call.
    try {
      throwIfAborted(request.signal);
      const prompt = toModelPrompt(request.prompt);
      const signal = request.signal;
      return Promise.resolve(
        this.chatModel.call(prompt, signal === undefined ? NO_CALL_OPTIONS : { signal }),
      ).then(responseTo.bind(undefined, request));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  adviseStream(request: ChatClientRequest): AsyncIterable<ChatClientResponse> {
    const chatModel = this.chatModel;
    // An iterator of its own rather than an async generator: every chunk of every stream passes
    // here, and it hands each chunk to the caller's reader within its own reaction (see
    // `readThrough`) instead of adding a promise per layer.
    return { [Symbol.asyncIterator]: () => new ModelResponseIterator(chatModel, request) };
  }
}

/** The call options of a request without a signal: one frozen object for every call. */
const NO_CALL_OPTIONS = Object.freeze({});

/**
 * The advisor's response to `request`: the model's, with a copy of the request's context. Bound
 * per call rather than an arrow made per call: V8 keeps the optimized code of such an arrow only
 * while one lives, so every full GC between calls threw it away (recompiled on the next calls,
 * measured with `node --trace-opt`); this function lives as long as the module.
 */
function responseTo(request: ChatClientRequest, chatResponse: ChatResponse): ChatClientResponse {
  return { chatResponse, context: { ...request.context } };
}

/**
 * One iteration of {@link ChatModelAdvisor.adviseStream}: on the first read, checks the signal,
 * copies the request context and starts the model's stream (or its `call`, as a single chunk);
 * then wraps each chunk with that context. Once the model's stream ends or fails, the iteration
 * is over; `return` stops the model's stream. It reads through the caller's reader (see
 * `readThrough`), so the layers above pay no promise of their own per chunk.
 */
class ModelResponseIterator implements ReadThroughIterator<ChatClientResponse> {
  readonly #chatModel: ChatModel;
  readonly #request: ChatClientRequest;
  #context: Record<string, unknown> = {};
  #source: AsyncIterator<ChatResponse> | undefined;
  #started = false;
  #finished = false;
  /** The reader of the read in flight (reads are sequential, as in a `for await`). */
  #reader: ChunkReader<ChatClientResponse, unknown> = plainReader();

  constructor(chatModel: ChatModel, request: ChatClientRequest) {
    this.#chatModel = chatModel;
    this.#request = request;
  }

  next(): Promise<IteratorResult<ChatClientResponse, undefined>> {
    return this[READ_THROUGH](plainReader<ChatClientResponse>());
  }

  [READ_THROUGH]<R>(
    reader: ChunkReader<ChatClientResponse, R>,
  ): Promise<IteratorResult<R, undefined>> {
    if (this.#finished) return Promise.resolve(reader.end());
    this.#reader = reader;
    if (!this.#started) return this.#start(reader);
    return (this.#source as AsyncIterator<ChatResponse>)
      .next()
      .then(this.#onResult, this.#onFailure) as Promise<IteratorResult<R, undefined>>;
  }

  async return(): Promise<IteratorResult<ChatClientResponse, undefined>> {
    const source = this.#source;
    this.#finished = true;
    this.#started = true;
    this.#source = undefined;
    if (source?.return !== undefined) await source.return();
    return DONE;
  }

  #start<R>(reader: ChunkReader<ChatClientResponse, R>): Promise<IteratorResult<R, undefined>> {
    this.#started = true;
    const request = this.#request;
    try {
      throwIfAborted(request.signal);
      this.#context = { ...request.context };
      const chatModel = this.#chatModel;
      const prompt = toModelPrompt(request.prompt);
      if (!chatModel.stream) {
        this.#finished = true;
        return chatModel.call(prompt, { signal: request.signal }).then(
          (chatResponse) => {
            const outcome = reader.element({ chatResponse, context: this.#context });
            return outcome === SKIP ? reader.end() : outcome;
          },
          (error: unknown) => reader.fail(error),
        );
      }
      this.#source = chatModel.stream(prompt, { signal: request.signal })[Symbol.asyncIterator]();
      return this.#source.next().then(this.#onResult, this.#onFailure) as Promise<
        IteratorResult<R, undefined>
      >;
    } catch (error) {
      this.#finished = true;
      return Promise.resolve(reader.fail(error));
    }
  }

  readonly #onResult = (result: IteratorResult<ChatResponse>): MaybeAsyncResult<unknown> => {
    const reader = this.#reader;
    if (result.done) {
      this.#finished = true;
      this.#source = undefined;
      return reader.end();
    }
    const outcome = reader.element({ chatResponse: result.value, context: this.#context });
    if (outcome !== SKIP) return outcome;
    const source = this.#source;
    // The reader closed this iterator while handling the element.
    if (source === undefined) return reader.end();
    return source.next().then(this.#onResult, this.#onFailure);
  };

  readonly #onFailure = (error: unknown): MaybeAsyncResult<unknown> => {
    this.#finished = true;
    this.#source = undefined;
    return this.#reader.fail(error);
  };
}
