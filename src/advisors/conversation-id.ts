import { InvalidArgumentError } from '../errors/index.js';

/**
 * The advisor param that names the conversation (`.advisors(a => a.param(CONVERSATION_ID, id))`).
 * Memory advisors store under it; the tool loop binds a pending approval state to it, so the
 * state resumes only in the conversation it paused in. Defined here, beside the other params the
 * loop reads, and exported from the memory module where users meet it.
 */
export const CONVERSATION_ID = 'chat_memory_conversation_id';

/**
 * The conversation id a {@link CONVERSATION_ID} param value names, as text: a string as it is, a
 * finite number or a bigint in decimal; `undefined` for `null` and `undefined`.
 * @throws InvalidArgumentError for any other value: `String()` of every plain object is
 *   `'[object Object]'` (and of an array, its items joined by commas), so requests whose ids were
 *   objects would share one conversation, each shown the others' history.
 */
export function conversationIdText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string' || typeof value === 'bigint') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const kind =
    typeof value === 'number'
      ? String(value)
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object'
          : `a ${typeof value}`;
  throw new InvalidArgumentError(
    `the conversation id (advisor param CONVERSATION_ID) must be a string or a number, not ${kind}`,
  );
}
