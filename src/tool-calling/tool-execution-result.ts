import type { ToolResponse } from '../messages/index.js';
import { FinishReason, type Generation } from '../model/index.js';
import type { ToolExecutionResult } from './tool-calling-manager.js';

/** Finish reason of the generations built from a `returnDirect` result. */
export const RETURN_DIRECT_FINISH_REASON = FinishReason.RETURN_DIRECT;
/** Generation metadata key holding the tool call id a `returnDirect` generation answers. */
export const METADATA_TOOL_ID = 'toolId';
/** Generation metadata key holding the tool name a `returnDirect` generation answers. */
export const METADATA_TOOL_NAME = 'toolName';
/** Generation metadata key holding the content parts of a `returnDirect` result that has them. */
export const METADATA_TOOL_CONTENT = 'toolContent';
/** Generation metadata key holding the structured content of a `returnDirect` result. */
export const METADATA_TOOL_STRUCTURED_CONTENT = 'toolStructuredContent';

/**
 * Turns a `returnDirect` result into generations for the caller: one per tool response of the last
 * history message, in order, when that message is a tool message (else `[]`). Each generation's
 * text is the response data; its metadata holds `toolId`, `toolName` and finish reason
 * `'returnDirect'`, and, for a result beyond text, its parts (`toolContent`) and structured
 * content (`toolStructuredContent`): the caller gets the image a tool returned, not only its
 * description.
 *
 * Departure: an empty history returns `[]`; Spring AI throws an index error.
 */
export function buildToolExecutionGenerations(result: ToolExecutionResult): Generation[] {
  const history = result.conversationHistory;
  const last = history[history.length - 1];
  if (last === undefined || last.role !== 'tool') return [];
  return last.responses.map(returnDirectGeneration);
}

function returnDirectGeneration(response: ToolResponse): Generation {
  return {
    output: { role: 'assistant', text: response.responseData, toolCalls: [] },
    metadata: {
      finishReason: RETURN_DIRECT_FINISH_REASON,
      [METADATA_TOOL_ID]: response.id,
      [METADATA_TOOL_NAME]: response.name,
      ...(response.content === undefined ? {} : { [METADATA_TOOL_CONTENT]: response.content }),
      ...(response.structuredContent === undefined
        ? {}
        : { [METADATA_TOOL_STRUCTURED_CONTENT]: response.structuredContent }),
    },
  };
}
