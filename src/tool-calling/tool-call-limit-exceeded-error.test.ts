import { describe, expect, it } from 'vitest';
import { ToolloopError } from '../errors/index.js';
import {
  assistantMessage,
  toolCall,
  toolResponse,
  toolResponseMessage,
  userMessage,
} from '../messages/index.js';
import { ToolCallLimitExceededError } from './tool-call-limit-exceeded-error.js';

const breachText =
  "Tool call limit (1) exceeded for tool 'toolA'. No further calls to this tool are allowed in this turn.";

describe('ToolCallLimitExceededError', () => {
  it('has the reference constants and messages', () => {
    expect(ToolCallLimitExceededError.FINISH_REASON).toBe('toolCallLimitExceeded');
    expect(ToolCallLimitExceededError.METADATA_PARTIAL_TOOL_RESPONSES).toBe('partialToolResponses');
    const perTool = new ToolCallLimitExceededError({
      toolName: 'toolA',
      limit: 3,
      partialResult: { conversationHistory: [], returnDirect: false },
    });
    expect(perTool.message).toBe("Tool call limit (3) exceeded for tool 'toolA'");
    expect(perTool.scope).toBe('per-tool');
    expect(perTool.code).toBe('TOOL_CALL_LIMIT_EXCEEDED');
    expect(ToolloopError.isInstance(perTool)).toBe(true);
    const total = new ToolCallLimitExceededError({
      toolName: null,
      limit: 150,
      partialResult: { conversationHistory: [], returnDirect: false },
    });
    expect(total.message).toBe('Total tool call limit (150) exceeded for this turn');
    expect(total.scope).toBe('total');
    expect(total.toolName).toBeNull();
    expect(total.limit).toBe(150);
  });

  it('builds the breach generation: last response text, earlier responses as partial metadata', () => {
    const earlier = toolResponse('1', 'toolB', 'B done');
    const error = new ToolCallLimitExceededError({
      toolName: 'toolA',
      limit: 1,
      partialResult: {
        conversationHistory: [
          userMessage('u'),
          assistantMessage(null, [toolCall('1', 'toolB'), toolCall('2', 'toolA')]),
          toolResponseMessage([earlier, toolResponse('2', 'toolA', breachText, true)]),
        ],
        returnDirect: false,
      },
    });
    expect(error.buildGeneration()).toEqual({
      output: { role: 'assistant', text: breachText, toolCalls: [] },
      metadata: { finishReason: 'toolCallLimitExceeded', partialToolResponses: [earlier] },
    });
  });

  it('uses the breach index when calls after the breach were answered too', () => {
    const earlier = toolResponse('1', 'toolB', 'B done');
    const error = new ToolCallLimitExceededError({
      toolName: 'toolA',
      limit: 1,
      breachIndex: 1,
      partialResult: {
        conversationHistory: [
          toolResponseMessage([
            earlier,
            toolResponse('2', 'toolA', breachText, true),
            toolResponse('3', 'toolC', 'not executed', true),
          ]),
        ],
        returnDirect: false,
      },
    });
    const generation = error.buildGeneration();
    expect(generation.output.text).toBe(breachText);
    expect(generation.metadata.partialToolResponses).toEqual([earlier]);
  });

  it('falls back to the error message when the history has no tool responses', () => {
    const error = new ToolCallLimitExceededError({
      toolName: null,
      limit: 2,
      partialResult: { conversationHistory: [userMessage('u')], returnDirect: false },
    });
    const generation = error.buildGeneration();
    expect(generation.output.text).toBe('Total tool call limit (2) exceeded for this turn');
    expect(generation.metadata.partialToolResponses).toEqual([]);
  });
});
