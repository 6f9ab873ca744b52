import { PARALLEL_CALLS, scriptedCalls } from '../workload.js';

/**
 * The end-to-end workload as a provider sends it, pre-serialised once so the fake provider only
 * writes buffers: round 1, three parallel tool calls whose JSON arguments stream in three pieces
 * each; round 2, `HTTP_TEXT_DELTAS` text deltas. One list of server-sent events per round and
 * wire format (OpenAI Chat Completions, Anthropic Messages), each event its own buffer so it can
 * be written on its own.
 */

/** Text deltas of the second round. */
export const HTTP_TEXT_DELTAS = 100;

/** The text delta number `index`. */
export function httpTextDelta(index: number): string {
  return `w${index} `;
}

/** The whole text of the second round. */
export const HTTP_FINAL_TEXT = Array.from({ length: HTTP_TEXT_DELTAS }, (_, i) =>
  httpTextDelta(i),
).join('');

/** The wire formats the fake provider speaks. */
export type WireFormat = 'openai' | 'anthropic';

/** Splits a string into `parts` pieces of about the same length (as a model streams arguments). */
function pieces(text: string, parts: number): string[] {
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function frame(data: unknown, event?: string): Buffer {
  const head = event === undefined ? '' : `event: ${event}\n`;
  return Buffer.from(`${head}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

const USAGE = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

function openAiChunk(delta: unknown, finishReason: string | null = null) {
  return {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'bench-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

function openAiUsage() {
  return {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'bench-model',
    choices: [],
    usage: USAGE,
  };
}

function openAiToolRound(): Buffer[] {
  const events = [frame(openAiChunk({ role: 'assistant', content: null }))];
  for (const [index, call] of scriptedCalls(PARALLEL_CALLS).entries()) {
    events.push(
      frame(
        openAiChunk({
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      ),
    );
    for (const piece of pieces(call.arguments, 3)) {
      events.push(frame(openAiChunk({ tool_calls: [{ index, function: { arguments: piece } }] })));
    }
  }
  events.push(frame(openAiChunk({}, 'tool_calls')), frame(openAiUsage()), frame('[DONE]'));
  return events;
}

function openAiTextRound(): Buffer[] {
  const events = [frame(openAiChunk({ role: 'assistant', content: '' }))];
  for (let i = 0; i < HTTP_TEXT_DELTAS; i++) {
    events.push(frame(openAiChunk({ content: httpTextDelta(i) })));
  }
  events.push(frame(openAiChunk({}, 'stop')), frame(openAiUsage()), frame('[DONE]'));
  return events;
}

function anthropicStart(): Buffer {
  return frame(
    {
      type: 'message_start',
      message: {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model: 'bench-model',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
    'message_start',
  );
}

function anthropicEnd(stopReason: string): Buffer[] {
  return [
    frame(
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: 10 },
      },
      'message_delta',
    ),
    frame({ type: 'message_stop' }, 'message_stop'),
  ];
}

function anthropicToolRound(): Buffer[] {
  const events = [anthropicStart()];
  for (const [index, call] of scriptedCalls(PARALLEL_CALLS).entries()) {
    events.push(
      frame(
        {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        },
        'content_block_start',
      ),
    );
    for (const piece of pieces(call.arguments, 3)) {
      events.push(
        frame(
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: piece },
          },
          'content_block_delta',
        ),
      );
    }
    events.push(frame({ type: 'content_block_stop', index }, 'content_block_stop'));
  }
  events.push(...anthropicEnd('tool_use'));
  return events;
}

function anthropicTextRound(): Buffer[] {
  const events = [
    anthropicStart(),
    frame(
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      'content_block_start',
    ),
  ];
  for (let i = 0; i < HTTP_TEXT_DELTAS; i++) {
    events.push(
      frame(
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text: httpTextDelta(i) },
        },
        'content_block_delta',
      ),
    );
  }
  events.push(frame({ type: 'content_block_stop', index: 0 }, 'content_block_stop'));
  events.push(...anthropicEnd('end_turn'));
  return events;
}

/** A round's events, and the index of the event before which a gated text round parks. */
export interface RoundEvents {
  events: Buffer[];
  /** Text rounds: the index of the first event of the second half of the text. */
  middle: number;
}

/** Every round of every format, serialised once. */
export const PROVIDER_ROUNDS: Record<WireFormat, { tools: RoundEvents; text: RoundEvents }> = {
  openai: {
    tools: { events: openAiToolRound(), middle: -1 },
    // role delta, then the deltas: the middle one is 1 + half of them.
    text: { events: openAiTextRound(), middle: 1 + HTTP_TEXT_DELTAS / 2 },
  },
  anthropic: {
    tools: { events: anthropicToolRound(), middle: -1 },
    // message_start and content_block_start, then the deltas.
    text: { events: anthropicTextRound(), middle: 2 + HTTP_TEXT_DELTAS / 2 },
  },
};
