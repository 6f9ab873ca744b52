import type { ChatModel, ChatResponse } from '../model/index.js';
import type { CallAdvisor, StreamAdvisor } from './advisor.js';
import { LOWEST_PRECEDENCE } from './advisor-order.js';
import type { ChatClientRequest, ChatClientResponse } from './chat-client-request.js';

/**
 * The terminal advisor: calls the model. Streams use the model's `stream` when it has one and a
 * single chunk from `call` otherwise. The response context is a copy of the request context.
 */
export class ChatModelAdvisor implements CallAdvisor, StreamAdvisor {
  readonly name = 'ChatModelAdvisor';
  readonly order = LOWEST_PRECEDENCE;
  private readonly chatModel: ChatModel;

  constructor(chatModel: ChatModel) {
    this.chatModel = chatModel;
  }

  async adviseCall(request: ChatClientRequest): Promise<ChatClientResponse> {
    request.signal?.throwIfAborted();
    const chatResponse = await this.chatModel.call(request.prompt, { signal: request.signal });
    return { chatResponse, context: { ...request.context } };
  }

  async *adviseStream(request: ChatClientRequest): AsyncIterable<ChatClientResponse> {
    request.signal?.throwIfAborted();
    const context = { ...request.context };
    if (!this.chatModel.stream) {
      const chatResponse: ChatResponse = await this.chatModel.call(request.prompt, {
        signal: request.signal,
      });
      yield { chatResponse, context };
      return;
    }
    for await (const chatResponse of this.chatModel.stream(request.prompt, {
      signal: request.signal,
    })) {
      yield { chatResponse, context };
    }
  }
}
