import type {
  ChatModel,
  ChatModelCallOptions,
  ChatOptions,
  ChatResponse,
  Prompt,
} from '../index.js';

/**
 * Wraps any chat model and records the prompts it is sent, so the demo can print call counts and
 * what went back to the model for the scripted and the real model alike.
 */
export class RecordingChatModel implements ChatModel {
  readonly prompts: Prompt[] = [];
  private readonly inner: ChatModel;

  constructor(inner: ChatModel) {
    this.inner = inner;
  }

  get defaultOptions(): ChatOptions | undefined {
    return this.inner.defaultOptions;
  }

  call(prompt: Prompt, options?: ChatModelCallOptions): Promise<ChatResponse> {
    this.prompts.push({ messages: structuredClone(prompt.messages), options: prompt.options });
    return this.inner.call(prompt, options);
  }

  async *stream(prompt: Prompt, options?: ChatModelCallOptions): AsyncIterable<ChatResponse> {
    if (!this.inner.stream) {
      yield await this.call(prompt, options);
      return;
    }
    this.prompts.push({ messages: structuredClone(prompt.messages), options: prompt.options });
    yield* this.inner.stream(prompt, options);
  }
}
