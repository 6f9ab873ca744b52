import { MemoryError } from '../errors/index.js';
import type { Message } from '../messages/index.js';
import { parsedMessageProblem } from '../messages/message-problem.js';

/**
 * The JSON text of each message as `serialize` writes it (default `JSON.stringify`), or a
 * `MemoryError` naming the first message whose text is longer than a JavaScript string can be
 * (about 512 Mi characters, past what any store takes in one value), before anything is written:
 * `JSON.stringify` would only throw a bare `RangeError`.
 */
export function serializeMessages(
  messages: readonly Message[],
  backend: string,
  conversationId: string,
  serialize: (message: Message) => string = JSON.stringify,
): string[] {
  return messages.map((message, index) => {
    try {
      return serialize(message);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new MemoryError({
        backend,
        conversationId,
        message: `${backend} chat memory: messages[${index}] is too large to store: its JSON text is longer than a JavaScript string can be; nothing was written`,
        cause: error,
      });
    }
  });
}

/** Where a stored row sits, for the error that reports it. */
export interface StoredRowLocation {
  backend: string;
  conversationId: string;
  /** 1-based position of the row in the conversation as read. */
  row: number;
  /** The store's own key of the row, e.g. `seq 17`, when it has one. */
  key?: string;
  /**
   * The row's sequence number, shown as the key `seq <n>`: given instead of `key` on read paths,
   * where it is only turned into text when the row is reported.
   */
  seq?: unknown;
}

/**
 * Returns a row read back from a store (JSON text) as a message, or throws a `MemoryError` naming
 * the conversation and the row when the row is not a valid message (a manual edit, another
 * program, an old bug). Corruption is never skipped: a skipped row could be a tool call or result,
 * and the history the model is shown would silently change meaning. The conversation fails until
 * it is repaired with `deleteByConversationId` (`ChatMemory.clear`) or `saveAll`, which read
 * nothing. `decode` turns the parsed value back into the message it was stored from (a store that
 * escapes text, such as PostgreSQL's) before the value is checked; it must give back plain JSON
 * data.
 */
export function parseStoredMessage(
  text: unknown,
  location: StoredRowLocation,
  decode?: (value: unknown, text: string) => unknown,
): Message {
  if (typeof text !== 'string') throw corruptRow(location, 'it is not text');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw corruptRow(location, 'it is not JSON');
  }
  if (decode !== undefined) value = decode(value, text);
  const problem = parsedMessageProblem(value, text.length);
  if (problem !== undefined) throw corruptRow(location, problem);
  return value as Message;
}

function corruptRow(location: StoredRowLocation, problem: string): MemoryError {
  const key =
    location.key ?? (location.seq === undefined ? undefined : `seq ${String(location.seq)}`);
  const id = JSON.stringify(
    location.conversationId.length > 200
      ? `${location.conversationId.slice(0, 200)}…`
      : location.conversationId,
  );
  const row = key === undefined ? `row ${location.row}` : `row ${location.row} (${key})`;
  return new MemoryError({
    backend: location.backend,
    conversationId: location.conversationId,
    message: `${location.backend} chat memory: ${row} of conversation ${id} is not a valid message (${problem}); delete the conversation or rewrite it with saveAll to repair it`,
  });
}
