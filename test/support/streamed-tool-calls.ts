import { expect } from 'vitest';
import type { ChatResponse, ToolCallDelta } from '../../src/model/index.js';

/** What the deltas of one streamed call showed, in arrival order. */
export interface StreamedCall {
  id: string;
  index: number;
  /** The name of its first delta. */
  name: string | undefined;
  /** Its argument pieces, concatenated. */
  text: string;
  pieces: number;
  /** Position (in the chunk list) of the chunk with its first and its last delta. */
  firstChunk: number;
  lastChunk: number;
}

/** The first generation's tool-call deltas of a chunk list, per call id, in first-seen order. */
export function streamedCalls(chunks: readonly ChatResponse[]): StreamedCall[] {
  const calls = new Map<string, StreamedCall>();
  chunks.forEach((chunk, position) => {
    const deltas: ToolCallDelta[] = chunk.results[0]?.toolCallDeltas ?? [];
    for (const delta of deltas) {
      let call = calls.get(delta.id);
      if (call === undefined) {
        call = {
          id: delta.id,
          index: delta.index,
          name: delta.name,
          text: '',
          pieces: 0,
          firstChunk: position,
          lastChunk: position,
        };
        calls.set(delta.id, call);
      } else {
        // Only the first delta of a call names the tool; the index never changes.
        expect(delta.name).toBeUndefined();
        expect(delta.index).toBe(call.index);
      }
      call.text += delta.arguments;
      call.pieces++;
      call.lastChunk = position;
    }
  });
  return [...calls.values()];
}

/** Position of the chunk that carries the complete call with this id. */
export function chunkWithCall(chunks: readonly ChatResponse[], id: string): number {
  return chunks.findIndex((chunk) =>
    chunk.results.some((generation) => generation.output.toolCalls.some((call) => call.id === id)),
  );
}

/**
 * The contract of a stream's tool-call deltas against its complete calls: every complete call
 * of the first generation was announced by deltas with its id, name and position, the deltas
 * arrived no later than the call and add up to its arguments, and no delta names another call.
 */
export function expectDeltasMatchCalls(chunks: readonly ChatResponse[], response: ChatResponse) {
  const streamed = streamedCalls(chunks);
  const complete = response.results[0]?.output.toolCalls ?? [];
  expect(streamed.map((call) => call.id)).toEqual(complete.map((call) => call.id));
  complete.forEach((call, position) => {
    const deltas = streamed[position] as StreamedCall;
    expect(deltas.index).toBe(position);
    expect(deltas.name).toBe(call.name);
    expect(deltas.text).toBe(call.arguments);
    expect(deltas.lastChunk).toBeLessThanOrEqual(chunkWithCall(chunks, call.id));
  });
  return streamed;
}
