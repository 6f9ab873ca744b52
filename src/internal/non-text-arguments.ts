import type { ToolCall } from '../messages/index.js';

/**
 * A tool call's `arguments` from what a provider sent for them: its text as it came, `''` for
 * none. A JSON value that is not text (some compatible servers send an object) becomes its JSON
 * text, and the call is marked `metadata.nonTextArguments = true`: the tool loop refuses a marked
 * call ("arguments must be JSON text") rather than run the tool on a value the API does not
 * define, while the transcript keeps text, as a `ToolCall` must, so a store holds it and the next
 * request sends it back as it came.
 */
export function textArguments(value: unknown): Pick<ToolCall, 'arguments' | 'metadata'> {
  if (value === undefined || value === null) return { arguments: '' };
  if (typeof value === 'string') return { arguments: value };
  return { arguments: JSON.stringify(value), metadata: { nonTextArguments: true } };
}
