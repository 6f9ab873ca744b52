import type { ChatModel, ChatResponse, FinishReason, Prompt } from 'toolloop';
import { FINAL_TEXT, STREAM_TEXT_DELTAS, scriptedCalls } from './workload.js';

/**
 * The zero-latency scripted model in toolloop's `ChatModel` shape, used by toolloop's ChatClient
 * and by the hand-written loop. Stateless: a prompt whose last message is a user message gets the
 * tool calls, any other prompt gets the final text (or `STREAM_TEXT_DELTAS` when streamed).
 */
export class BenchChatModel implements ChatModel {
  private readonly toolCount: number;

  /** `toolCount`: how many tools are attached, so the calls address existing tools. */
  constructor(toolCount = 3) {
    this.toolCount = toolCount;
  }

  /** One whole response. */
  async call(prompt: Prompt): Promise<ChatResponse> {
    return this.wantsTools(prompt) ? this.toolCallResponse() : textResponse(FINAL_TEXT, 'stop');
  }

  /** Round with tools: one chunk holding the complete calls; final round: 50 text deltas. */
  async *stream(prompt: Prompt): AsyncIterable<ChatResponse> {
    if (this.wantsTools(prompt)) {
      yield this.toolCallResponse();
      return;
    }
    const last = STREAM_TEXT_DELTAS.length - 1;
    for (let i = 0; i <= last; i++) {
      yield textResponse(STREAM_TEXT_DELTAS[i]!, i === last ? 'stop' : null);
    }
  }

  private wantsTools(prompt: Prompt): boolean {
    return prompt.messages[prompt.messages.length - 1]?.role === 'user';
  }

  private toolCallResponse(): ChatResponse {
    return {
      results: [
        {
          output: { role: 'assistant', text: null, toolCalls: scriptedCalls(this.toolCount) },
          metadata: { finishReason: 'tool_calls' },
        },
      ],
      metadata: { usage: { promptTokens: 10, completionTokens: 10, totalTokens: 20 } },
    };
  }
}

function textResponse(text: string, finishReason: FinishReason | null): ChatResponse {
  return {
    results: [{ output: { role: 'assistant', text, toolCalls: [] }, metadata: { finishReason } }],
    metadata:
      finishReason === null
        ? {}
        : { usage: { promptTokens: 10, completionTokens: 10, totalTokens: 20 } },
  };
}
