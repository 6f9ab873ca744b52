import type {
  ChatModel,
  ChatModelCallOptions,
  ChatResponse,
  Prompt,
} from '../../src/model/index.js';

/**
 * A third-party-style adapter around another model: it reads the options it knows, forwards
 * every other option to the provider as it is ("extra body" style), and serialises the tools it
 * is given. Each prompt it receives, and the request body it would have sent, are recorded; the
 * answers come from `inner`.
 */
export class ForwardingChatModel implements ChatModel {
  readonly prompts: Prompt[] = [];
  /** The JSON request body of each call, in call order. */
  readonly wire: string[] = [];
  readonly #inner: ChatModel;

  constructor(inner: ChatModel) {
    this.#inner = inner;
  }

  call(prompt: Prompt, options: ChatModelCallOptions = {}): Promise<ChatResponse> {
    this.#send(prompt);
    return this.#inner.call(prompt, options);
  }

  stream(prompt: Prompt, options: ChatModelCallOptions = {}): AsyncIterable<ChatResponse> {
    this.#send(prompt);
    const inner = this.#inner;
    if (inner.stream === undefined) {
      return (async function* oneChunk() {
        yield await inner.call(prompt, options);
      })();
    }
    return inner.stream(prompt, options);
  }

  #send(prompt: Prompt): void {
    this.prompts.push(prompt);
    const { model, temperature, maxTokens, toolChoice, toolCallbacks, ...unknown } = prompt.options;
    this.wire.push(
      JSON.stringify({
        model,
        temperature,
        max_tokens: maxTokens,
        tool_choice: toolChoice,
        messages: prompt.messages,
        tools: toolCallbacks,
        ...unknown,
      }),
    );
  }
}
