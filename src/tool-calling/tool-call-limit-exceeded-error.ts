import { ToolloopError } from '../errors/index.js';
import type { ToolResponse } from '../messages/index.js';
import { FinishReason, type Generation } from '../model/index.js';
import type { ToolExecutionResult } from './tool-calling-manager.js';

/** Options of {@link ToolCallLimitExceededError}. */
export interface ToolCallLimitExceededErrorOptions {
  /** The tool whose own cap was broken, or `null` when the total cap was. */
  toolName: string | null;
  limit: number;
  /** The history up to the breach: the prompt, the assistant message, and the batch's responses. */
  partialResult: ToolExecutionResult;
  /**
   * Position of the breach response among the responses of the partial result's last message.
   * Default: the last response (Spring AI's layout).
   */
  breachIndex?: number;
}

/**
 * A tool call broke a per-turn limit while the manager was set to `'THROW'`. The partial result
 * keeps what the batch did before the breach; {@link buildGeneration} turns it into the single
 * generation the turn ends with.
 */
export class ToolCallLimitExceededError extends ToolloopError {
  /** Finish reason of the generation built by {@link buildGeneration}. */
  static readonly FINISH_REASON = FinishReason.TOOL_CALL_LIMIT_EXCEEDED;
  /** Generation metadata key holding the responses of the calls before the breach. */
  static readonly METADATA_PARTIAL_TOOL_RESPONSES = 'partialToolResponses';

  /** The tool whose own cap was broken, or `null` when the total cap was. */
  readonly toolName: string | null;
  readonly limit: number;
  readonly scope: 'per-tool' | 'total';
  readonly partialResult: ToolExecutionResult;
  readonly #breachIndex: number | undefined;

  constructor(options: ToolCallLimitExceededErrorOptions) {
    super({
      code: 'TOOL_CALL_LIMIT_EXCEEDED',
      message:
        options.toolName === null
          ? `Total tool call limit (${options.limit}) exceeded for this turn`
          : `Tool call limit (${options.limit}) exceeded for tool '${options.toolName}'`,
    });
    this.toolName = options.toolName;
    this.limit = options.limit;
    this.scope = options.toolName === null ? 'total' : 'per-tool';
    this.partialResult = options.partialResult;
    this.#breachIndex = options.breachIndex;
  }

  /**
   * The generation that ends the turn: its text is the breach response's text (the error message
   * when the history ends without tool responses), its finish reason `'toolCallLimitExceeded'`,
   * and `partialToolResponses` holds the responses before the breach.
   */
  buildGeneration(): Generation {
    const history = this.partialResult.conversationHistory;
    const last = history[history.length - 1];
    let text = this.message;
    let partial: ToolResponse[] = [];
    if (last !== undefined && last.role === 'tool' && last.responses.length > 0) {
      const responses = last.responses;
      const index =
        this.#breachIndex !== undefined && this.#breachIndex < responses.length
          ? this.#breachIndex
          : responses.length - 1;
      text = (responses[index] as ToolResponse).responseData;
      partial = responses.slice(0, index);
    }
    return {
      output: { role: 'assistant', text, toolCalls: [] },
      metadata: {
        finishReason: ToolCallLimitExceededError.FINISH_REASON,
        [ToolCallLimitExceededError.METADATA_PARTIAL_TOOL_RESPONSES]: partial,
      },
    };
  }
}
