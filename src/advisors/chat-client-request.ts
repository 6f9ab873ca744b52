import type { ChatResponse, Prompt } from '../model/index.js';

/**
 * What flows down the advisor chain: the prompt, the advisor params (`context`, never sent to the
 * model and distinct from the tool context) and the caller's abort signal.
 */
export interface ChatClientRequest {
  prompt: Prompt;
  context: Record<string, unknown>;
  signal?: AbortSignal;
}

/** What flows back up the advisor chain. `chatResponse` is `null` when no model answered. */
export interface ChatClientResponse {
  chatResponse: ChatResponse | null;
  context: Record<string, unknown>;
}
