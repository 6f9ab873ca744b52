import fc from 'fast-check';
import { expect } from 'vitest';
import type {
  AssistantMessage,
  Message,
  ToolCall,
  ToolResponseMessage,
} from '../../src/messages/index.js';

/**
 * Arbitrary JSON metadata: any JSON value under string keys, as it reads back from JSON text (the
 * generator can produce `-0`, which JSON has no way to write: every store gives back `0`).
 */
export function arbitraryMetadata(): fc.Arbitrary<Record<string, unknown> | undefined> {
  const metadata = fc
    .dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 })
    .map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
  return fc.option(metadata, { nil: undefined });
}

function withMetadata<T extends object>(
  message: T,
  metadata: Record<string, unknown> | undefined,
): T {
  return metadata === undefined ? message : { ...message, metadata };
}

let nextId = 0;

/**
 * Arbitrary well-formed turns: a user message, then tool rounds (an assistant message with one or
 * more tool calls followed by the tool response message answering them), then a final answer.
 * Sometimes a system message opens a turn.
 */
export function arbitraryTurns(options: { maxTurns?: number } = {}): fc.Arbitrary<Message[][]> {
  const text = fc.string({ maxLength: 12 });
  const round = fc
    .tuple(fc.integer({ min: 1, max: 3 }), arbitraryMetadata(), fc.option(text, { nil: null }))
    .map(([count, metadata, assistantText]) => {
      const calls: ToolCall[] = Array.from({ length: count }, (_, index) => ({
        id: `call-${++nextId}`,
        name: `tool${index}`,
        arguments: JSON.stringify({ index }),
      }));
      const assistant: AssistantMessage = withMetadata(
        { role: 'assistant', text: assistantText, toolCalls: calls },
        metadata,
      );
      const responses: ToolResponseMessage = {
        role: 'tool',
        responses: calls.map((call) => ({ id: call.id, name: call.name, responseData: '"ok"' })),
      };
      return [assistant, responses] as Message[];
    });
  const turn = fc
    .tuple(
      fc.boolean(),
      text,
      fc.array(round, { maxLength: 3 }),
      text,
      fc.integer({ min: 0, max: 9 }),
    )
    .map(([withSystem, question, rounds, answer, systemPick]) => {
      const messages: Message[] = [];
      if (withSystem && systemPick === 0)
        messages.push({ role: 'system', text: `system ${question}` });
      messages.push({ role: 'user', text: question });
      for (const pair of rounds) messages.push(...pair);
      messages.push({ role: 'assistant', text: answer, toolCalls: [] });
      return messages;
    });
  return fc.array(turn, { minLength: 1, maxLength: options.maxTurns ?? 8 });
}

/**
 * Fails unless the transcript is valid for a strict provider: the first non-system message is not
 * a tool response, every tool response message follows the assistant message whose calls it
 * answers (all of them), and every assistant tool call is answered by the next message.
 */
export function assertToolPairsIntact(messages: readonly Message[]): void {
  const conversation = messages.filter((message) => message.role !== 'system');
  expect(conversation[0]?.role, 'window starts with a tool response').not.toBe('tool');
  conversation.forEach((message, index) => {
    if (message.role === 'tool') {
      const previous = conversation[index - 1];
      expect(previous?.role, 'orphan tool response').toBe('assistant');
      const callIds = (previous as AssistantMessage).toolCalls.map((call) => call.id).sort();
      expect(message.responses.map((response) => response.id).sort()).toEqual(callIds);
    }
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      const next = conversation[index + 1];
      expect(next?.role, 'tool call without its responses').toBe('tool');
    }
  });
}
