import type { ChatClientResponse } from '../advisors/index.js';
import type { ChatResponse } from '../model/index.js';

/**
 * The result of `.stream()`. Each method returns a new iterable, and each iteration runs the
 * request anew (like re-subscribing). Breaking out of a `for await` stops the run.
 */
export class StreamResponseSpec {
  private readonly execute: () => AsyncIterable<ChatClientResponse>;

  /** @internal Created by `ChatClientRequestSpec.stream()`. */
  constructor(execute: () => AsyncIterable<ChatClientResponse>) {
    this.execute = execute;
  }

  /** The chunks as they leave the advisor chain, with the advisors' context. */
  chatClientResponse(): AsyncIterable<ChatClientResponse> {
    return this.execute();
  }

  /** The response chunks (text deltas, then the chunk carrying tool calls, finish reason and usage). */
  async *chatResponse(): AsyncIterable<ChatResponse> {
    for await (const response of this.execute()) {
      if (response.chatResponse) yield response.chatResponse;
    }
  }

  /** The text deltas of the first generation; empty deltas are skipped. */
  async *content(): AsyncIterable<string> {
    // Straight over the chain, not through `chatResponse()`: one generator layer less per chunk.
    for await (const response of this.execute()) {
      const text = response.chatResponse?.results[0]?.output.text;
      if (text) yield text;
    }
  }
}
