import { describe, expect, it } from 'vitest';
import type { ToolResponse } from '../messages/index.js';
import {
  assistantMessage,
  toolResponse,
  toolResponseMessage,
  userMessage,
} from '../messages/index.js';
import {
  buildToolExecutionGenerations,
  METADATA_TOOL_ID,
  METADATA_TOOL_NAME,
  RETURN_DIRECT_FINISH_REASON,
} from './tool-execution-result.js';

describe('buildToolExecutionGenerations', () => {
  it('uses the reference constants', () => {
    expect(RETURN_DIRECT_FINISH_REASON).toBe('returnDirect');
    expect(METADATA_TOOL_ID).toBe('toolId');
    expect(METADATA_TOOL_NAME).toBe('toolName');
  });

  it('builds one generation for a single response', () => {
    const generations = buildToolExecutionGenerations({
      conversationHistory: [
        userMessage('u'),
        toolResponseMessage([toolResponse('id-1', 'weather', 'Sunny')]),
      ],
      returnDirect: true,
    });
    expect(generations).toEqual([
      {
        output: { role: 'assistant', text: 'Sunny', toolCalls: [] },
        metadata: { finishReason: 'returnDirect', toolId: 'id-1', toolName: 'weather' },
      },
    ]);
  });

  it('builds one generation per response, in order', () => {
    const generations = buildToolExecutionGenerations({
      conversationHistory: [
        toolResponseMessage([toolResponse('1', 'a', 'A'), toolResponse('2', 'b', 'B')]),
      ],
      returnDirect: true,
    });
    expect(generations.map((generation) => generation.output.text)).toEqual(['A', 'B']);
    expect(generations.map((generation) => generation.metadata[METADATA_TOOL_ID])).toEqual([
      '1',
      '2',
    ]);
  });

  it('returns [] for an empty history (the reference throws an index error)', () => {
    expect(buildToolExecutionGenerations({ conversationHistory: [], returnDirect: false })).toEqual(
      [],
    );
  });

  it('returns [] when the last message is not a tool message, or has no responses', () => {
    expect(
      buildToolExecutionGenerations({
        conversationHistory: [
          toolResponseMessage([toolResponse('1', 'a', 'A')]),
          assistantMessage('x'),
        ],
        returnDirect: false,
      }),
    ).toEqual([]);
    expect(
      buildToolExecutionGenerations({
        conversationHistory: [toolResponseMessage([])],
        returnDirect: false,
      }),
    ).toEqual([]);
  });

  it('keeps empty and null response data and empty names', () => {
    const nullData = { id: '1', name: 'a', responseData: null } as unknown as ToolResponse;
    const generations = buildToolExecutionGenerations({
      conversationHistory: [toolResponseMessage([nullData, toolResponse('2', '', '')])],
      returnDirect: true,
    });
    expect(generations[0]?.output.text).toBeNull();
    expect(generations[1]?.output.text).toBe('');
    expect(generations[1]?.metadata[METADATA_TOOL_NAME]).toBe('');
  });

  it('converts only the last of several tool messages', () => {
    const generations = buildToolExecutionGenerations({
      conversationHistory: [
        toolResponseMessage([toolResponse('1', 'a', 'first')]),
        toolResponseMessage([toolResponse('2', 'b', 'second')]),
      ],
      returnDirect: true,
    });
    expect(generations.map((generation) => generation.output.text)).toEqual(['second']);
  });

  it('still builds a generation for a response without an id', () => {
    const noId = { name: 'a', responseData: 'x' } as unknown as ToolResponse;
    const generations = buildToolExecutionGenerations({
      conversationHistory: [toolResponseMessage([noId])],
      returnDirect: true,
    });
    expect(generations).toHaveLength(1);
    expect(generations[0]?.metadata[METADATA_TOOL_ID]).toBeUndefined();
  });
});
