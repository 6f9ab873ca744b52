import type { Message } from '../messages/index.js';

export { CONVERSATION_ID } from '../advisors/conversation-id.js';

/** What a model is shown of a conversation's past: add messages, read them back, forget them. */
export interface ChatMemory {
  /** Adds messages to the conversation in one atomic step. */
  add(conversationId: string, messages: readonly Message[]): Promise<void>;
  /** The messages to show the model, oldest first. */
  get(conversationId: string): Promise<Message[]>;
  /** Forgets the conversation. */
  clear(conversationId: string): Promise<void>;
}
