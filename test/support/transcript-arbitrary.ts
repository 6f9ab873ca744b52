import fc from 'fast-check';
import type { Message, ToolCall, ToolResponse } from '../../src/messages/index.js';

/** One generated conversation turn: the user asks, the model calls tools (maybe), and answers. */
const toolCallsArbitrary = fc.array(
  fc.record({
    name: fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,20}$/),
    args: fc.oneof(
      fc
        .dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })
        .map((value) => JSON.stringify(value)),
      fc.constantFrom('', '{}', '{"truncated": "val'),
    ),
    result: fc.string({ unit: 'grapheme', maxLength: 40 }),
    isError: fc.boolean(),
  }),
  { maxLength: 4 },
);

const turnArbitrary = fc.record({
  userText: fc.string({ unit: 'grapheme', maxLength: 30 }),
  media: fc.option(
    fc.constantFrom(
      { mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { mimeType: 'image/jpeg', data: 'https://example.com/cat.jpg' },
      { mimeType: 'application/pdf', data: 'JVBERi0xLjQ=' },
    ),
    { nil: undefined },
  ),
  preamble: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: null }),
  rounds: fc.array(
    toolCallsArbitrary.filter((calls) => calls.length > 0),
    { maxLength: 3 },
  ),
  answer: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: null }),
});

/**
 * Valid internal transcripts: an optional system message, then turns of a user message (with
 * media sometimes), rounds of an assistant message with 1-4 parallel tool calls answered by one
 * tool message in call order (error results and the empty / truncated arguments included), and
 * an optional final answer. Tool call ids are unique across the transcript.
 */
export const transcriptArbitrary = fc
  .record({
    system: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: undefined }),
    turns: fc.array(turnArbitrary, { minLength: 1, maxLength: 4 }),
  })
  .map(({ system, turns }) => {
    const messages: Message[] = [];
    if (system !== undefined) messages.push({ role: 'system', text: system });
    let next = 0;
    for (const turn of turns) {
      messages.push(
        turn.media
          ? { role: 'user', text: turn.userText, media: [turn.media] }
          : { role: 'user', text: turn.userText === '' ? '?' : turn.userText },
      );
      turn.rounds.forEach((round, index) => {
        const calls: ToolCall[] = round.map((call) => ({
          id: `call_${next++}`,
          name: call.name,
          arguments: call.args,
        }));
        messages.push({
          role: 'assistant',
          text: index === 0 ? turn.preamble : null,
          toolCalls: calls,
        });
        const responses: ToolResponse[] = round.map((call, position) => ({
          id: calls[position]!.id,
          name: call.name,
          responseData: call.result,
          ...(call.isError ? { isError: true } : {}),
        }));
        messages.push({ role: 'tool', responses });
      });
      messages.push({ role: 'assistant', text: turn.answer ?? 'done', toolCalls: [] });
    }
    return messages;
  });
