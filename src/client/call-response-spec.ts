import type { Advisor, ChatClientResponse } from '../advisors/index.js';
import { keepInstanceShape } from '../internal/keep-instance-shape.js';
import { type ChatResponse, responseText } from '../model/index.js';
import type { JsonSchema } from '../tools/json-schema.js';
import type {
  InferStandardOutput,
  JsonSchemaOutputDemand,
  StandardSchemaV1,
} from '../tools/schema/standard-schema.js';
import type { OutputSchema } from './output-schema.js';
import {
  STRUCTURED_OUTPUT_VALUE_KEY,
  StructuredOutputAdvisor,
  type StructuredOutputOptions,
} from './structured-output-advisor.js';

/** Runs the request through the chain, with extra advisors added for this run. */
export type CallExecutor = (extraAdvisors: readonly Advisor[]) => Promise<ChatClientResponse>;

/**
 * The result of `.call()`. The request runs once, on the first of `content()`, `chatResponse()`,
 * `chatClientResponse()` or `await`, and all of them read that one run. `entity()` sends its own
 * request, since the format instruction changes the prompt.
 *
 * The spec is awaitable: `await client.prompt(q).call()` runs the request and resolves to the
 * full {@link ChatClientResponse}, the same one `chatClientResponse()` returns (`catch` and
 * `finally` work as on a promise, for code that chains instead of awaiting). A spec that is
 * neither awaited nor read sends nothing; being a thenable, an unawaited
 * `client.prompt(q).call();` is reported by floating-promise lint rules (typescript-eslint
 * `no-floating-promises`, Biome `noFloatingPromises`).
 */
export class CallResponseSpec implements PromiseLike<ChatClientResponse> {
  private readonly execute: CallExecutor;
  private response: Promise<ChatClientResponse> | undefined;

  /** Made by `ChatClientRequestSpec.call()`; not meant to be constructed directly. */
  constructor(execute: CallExecutor) {
    this.execute = execute;
  }

  /** The response as it left the advisor chain, with the advisors' context. */
  chatClientResponse(): Promise<ChatClientResponse> {
    this.response ??= this.execute([]);
    return this.response;
  }

  /** The model's (or the tool loop's final) response; `null` when an advisor answered without one. */
  chatResponse(): Promise<ChatResponse | null> {
    return this.#run().then(chatResponseOf);
  }

  /** The first generation's text, or `null`. */
  content(): Promise<string | null> {
    return this.#run().then(contentOf);
  }

  /**
   * Makes the spec awaitable: runs the request (once, shared with the other accessors) and
   * settles with its {@link ChatClientResponse}.
   */
  // biome-ignore lint/suspicious/noThenProperty: the spec is deliberately awaitable (see the class doc).
  then<Result = ChatClientResponse, Failure = never>(
    onFulfilled?: ((response: ChatClientResponse) => Result | PromiseLike<Result>) | null,
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<Result | Failure> {
    return this.#run().then(onFulfilled, onRejected);
  }

  /** As a promise's `catch`: runs the request (see `then`) and handles its failure. */
  catch<Failure = never>(
    onRejected?: ((reason: unknown) => Failure | PromiseLike<Failure>) | null,
  ): Promise<ChatClientResponse | Failure> {
    return this.#run().catch(onRejected);
  }

  /** As a promise's `finally`: runs the request (see `then`) and calls `onFinally` once it settles. */
  finally(onFinally?: (() => void) | null): Promise<ChatClientResponse> {
    return this.#run().finally(onFinally);
  }

  /** `chatClientResponse()`, a failure to start included in the promise. */
  #run(): Promise<ChatClientResponse> {
    try {
      return this.chatClientResponse();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Structured output: sends the schema's JSON Schema to the model (`options.responseFormat`) with
   * an instruction, parses the answer (tolerating a Markdown code fence) and validates it. A wrong
   * answer goes back to the model with the problems listed, up to `maxRetries` times (default 2);
   * then a `StructuredOutputError` is thrown. Resolves to the validated value (for a Standard
   * Schema, its output value).
   */
  entity<S extends StandardSchemaV1>(
    schema: S & JsonSchemaOutputDemand<S>,
    options?: StructuredOutputOptions,
  ): Promise<InferStandardOutput<S>>;
  entity<T = unknown>(schema: JsonSchema, options?: StructuredOutputOptions): Promise<T>;
  async entity(schema: OutputSchema, options: StructuredOutputOptions = {}): Promise<unknown> {
    const advisor = new StructuredOutputAdvisor(schema, options);
    const response = await this.execute([advisor]);
    return response.context[STRUCTURED_OUTPUT_VALUE_KEY];
  }
}

function chatResponseOf(response: ChatClientResponse): ChatResponse | null {
  return response.chatResponse;
}

function contentOf(response: ChatClientResponse): string | null {
  return responseText(response.chatResponse);
}

keepInstanceShape(new CallResponseSpec(() => Promise.resolve({ chatResponse: null, context: {} })));
