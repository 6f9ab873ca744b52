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
      request.signal?.throwIfAborted();
      const prompt = toModelPrompt(request.prompt);
      const signal = request.signal;
      return Promise.resolve(
        this.chatModel.call(prompt, signal === undefined ? NO_CALL_OPTIONS : { signal }),
      ).then((chatResponse) => ({ chatResponse, context: { ...request.context } }));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  adviseStream(request: ChatClientRequest): AsyncIterable<ChatClientResponse> {
    const chatModel = this.chatModel;
    // An iterator of its own rather than an async generator: every chunk of every stream passes
    // here, and a generator's `yield` costs extra microtask hops per chunk.
    return { [Symbol.asyncIterator]: () => new ModelResponseIterator(chatModel, request) };
  }
}

/** The call options of a request without a signal: one frozen object for every call. */
const NO_CALL_OPTIONS = Object.freeze({});

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * One iteration of {@link ChatModelAdvisor.adviseStream}: on the first `next`, checks the signal,
 * copies the request context and starts the model's stream (or its `call`, as a single chunk);
 * then wraps each chunk with that context. Once the model's stream ends or fails, the iteration
 * is over; `return` stops the model's stream.
 */
class ModelResponseIterator implements AsyncIterator<ChatClientResponse, undefined, undefined> {
  readonly #chatModel: ChatModel;
  readonly #request: ChatClientRequest;
  #context: Record<string, unknown> = {};
  #source: AsyncIterator<ChatResponse> | undefined;
  #started = false;
  #finished = false;

  constructor(chatModel: ChatModel, request: ChatClientRequest) {
    this.#chatModel = chatModel;
    this.#request = request;
  }

  next(): Promise<IteratorResult<ChatClientResponse, undefined>> {
    if (this.#finished) return Promise.resolve(DONE);
    if (!this.#started) return this.#start();
    return (this.#source as AsyncIterator<ChatResponse>).next().then(this.#wrap, this.#fail);
  }

  async return(): Promise<IteratorResult<ChatClientResponse, undefined>> {
    const source = this.#source;
    this.#finished = true;
    this.#started = true;
    this.#source = undefined;
    if (source?.return !== undefined) await source.return();
    return DONE;
  }

  #start(): Promise<IteratorResult<ChatClientResponse, undefined>> {
    this.#started = true;
    const request = this.#request;
    try {
      request.signal?.throwIfAborted();
      this.#context = { ...request.context };
      const chatModel = this.#chatModel;
      const prompt = toModelPrompt(request.prompt);
      if (!chatModel.stream) {
        this.#finished = true;
        return chatModel.call(prompt, { signal: request.signal }).then((chatResponse) => ({
          done: false,
          value: { chatResponse, context: this.#context },
        }));
      }
      this.#source = chatModel.stream(prompt, { signal: request.signal })[Symbol.asyncIterator]();
      return this.#source.next().then(this.#wrap, this.#fail);
    } catch (error) {
      this.#finished = true;
      return Promise.reject(error);
    }
  }

  readonly #wrap = (
    result: IteratorResult<ChatResponse>,
  ): IteratorResult<ChatClientResponse, undefined> => {
    if (result.done) {
      this.#finished = true;
      this.#source = undefined;
      return DONE;
    }
    return { done: false, value: { chatResponse: result.value, context: this.#context } };
  };

  readonly #fail = (error: unknown): never => {
    this.#finished = true;
    this.#source = undefined;
    throw error;
  };
}
