import type { ChatClientResponse } from '../advisors/index.js';
import { type ChatResponse, FinishReason, type Generation } from '../model/index.js';

/** The response with another chat response; the same object when nothing changed. */
export function withChatResponse(
  response: ChatClientResponse,
  chatResponse: ChatResponse | null,
): ChatClientResponse {
  return chatResponse === response.chatResponse ? response : { ...response, chatResponse };
}

/** Replaces the generations, keeping the round's response metadata (id, model, usage). */
export function withGenerations(
  response: ChatClientResponse,
  results: Generation[],
): ChatClientResponse {
  const metadata = response.chatResponse?.metadata ?? {};
  return { ...response, chatResponse: { results, metadata } };
}

/**
 * The answer of the tools-off call after the iteration cap: tool calls dropped (never executed)
 * and finish reasons set to `'maxIterations'`. `markAll` false (stream chunks) marks only the
 * generations that carry a finish reason, so mid-stream deltas keep `null`.
 */
export function finalAnswerResponse(
  response: ChatResponse | null,
  markAll: boolean,
): ChatResponse | null {
  if (response === null) return null;
  return {
    ...response,
    results: response.results.map((generation) => ({
      output: { ...generation.output, toolCalls: [] },
      metadata: {
        ...generation.metadata,
        finishReason:
          markAll || generation.metadata.finishReason !== null ? FinishReason.MAX_ITERATIONS : null,
      },
    })),
  };
}

/** The text of a withheld tool-call chunk, alone; `undefined` when it carries no text. */
export function textOnly(chunk: ChatResponse): ChatResponse | undefined {
  if (!chunk.results.some((generation) => generation.output.text)) return undefined;
  const { usage: _usage, ...metadata } = chunk.metadata;
  return {
    results: chunk.results.map((generation) => ({
      output: { role: 'assistant', text: generation.output.text, toolCalls: [] },
      metadata: { finishReason: null },
    })),
    metadata,
  };
}
