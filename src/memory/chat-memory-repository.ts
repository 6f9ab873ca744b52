import type { Message } from '../messages/index.js';

/**
 * Chooses what survives an {@link ChatMemoryRepository.append}: receives the whole conversation
 * right after the append (`appendedFrom` is the index of the first appended message) and returns
 * the indices to keep, ascending. Runs inside the append's atomic step, so it must be synchronous
 * and pure.
 */
export type RetainMessages = (
  messages: readonly Message[],
  appendedFrom: number,
) => readonly number[];

/** Options of {@link ChatMemoryRepository.append}. */
export interface AppendOptions {
  /** Trims the conversation in the same atomic step as the append (a window memory uses it). */
  retain?: RetainMessages;
}

/**
 * Where conversations live. Every repository stores the full message set (system, user, assistant
 * with tool calls, tool responses, any JSON metadata) and returns it deep-equal, in the order of an
 * explicit per-conversation sequence. Conversation ids are data: they are never used as patterns,
 * paths or SQL. Store failures surface as `MemoryError`.
 */
export interface ChatMemoryRepository {
  /** The ids of the conversations that hold at least one message. */
  findConversationIds(): Promise<string[]>;
  /** The conversation's messages in sequence order; `[]` for an unknown id. */
  findByConversationId(conversationId: string): Promise<Message[]>;
  /** Replaces the whole conversation (an empty list deletes it). */
  saveAll(conversationId: string, messages: readonly Message[]): Promise<void>;
  /** Deletes the conversation. */
  deleteByConversationId(conversationId: string): Promise<void>;
  /**
   * Appends messages atomically: concurrent appends to one conversation all land, each as one
   * contiguous run, none lost or duplicated. With `retain`, trimming happens in the same step.
   */
  append(
    conversationId: string,
    messages: readonly Message[],
    options?: AppendOptions,
  ): Promise<void>;
}
