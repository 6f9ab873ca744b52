import type { ChatClientRequestSpec } from '../chat-client-request-spec.js';

/** How a test runs a request: `.call()` or `.stream()`. */
export type RequestMode = 'call' | 'stream';

/** Runs the request in the given mode and returns the answer's text (the streamed deltas joined). */
export async function runRequest(
  spec: ChatClientRequestSpec,
  mode: RequestMode,
): Promise<string | null> {
  if (mode === 'call') return spec.call().content();
  let text = '';
  for await (const delta of spec.stream().content()) text += delta;
  return text;
}
