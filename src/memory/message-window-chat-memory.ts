import { InvalidArgumentError } from '../errors/index.js';
import type { Message } from '../messages/index.js';
import type { ChatMemory } from './chat-memory.js';
import type { ChatMemoryRepository } from './chat-memory-repository.js';
import { assertConversationId, assertMessages } from './conversation-id.js';
import { InMemoryChatMemoryRepository } from './in-memory-chat-memory-repository.js';
import { windowRetain } from './window-retain.js';

/** Options of {@link MessageWindowChatMemory}. */
export interface MessageWindowChatMemoryOptions {
  /** Where messages live. Default: a new {@link InMemoryChatMemoryRepository}. */
  repository?: ChatMemoryRepository;
  /** Size of the window. Default {@link MessageWindowChatMemory.DEFAULT_MAX_MESSAGES}. */
  maxMessages?: number;
}

/**
 * A chat memory that keeps the last `maxMessages` messages of each conversation (system messages
 * always stay). Trimming cuts only before a user message, so a tool call never loses its
 * responses and no window starts with a tool response. The newest turn is never dropped: when it
 * alone is longer than the window, its oldest tool rounds go and its question, its answer and its
 * newest rounds stay (see {@link windowRetain}). Each `add` is one atomic repository append with
 * the trim in the same step, so concurrent turns of one conversation lose nothing.
 */
export class MessageWindowChatMemory implements ChatMemory {
  /** The default window size. */
  static readonly DEFAULT_MAX_MESSAGES = 20;
  readonly repository: ChatMemoryRepository;
  readonly maxMessages: number;

  constructor(options: MessageWindowChatMemoryOptions = {}) {
    const maxMessages = options.maxMessages ?? MessageWindowChatMemory.DEFAULT_MAX_MESSAGES;
    if (!Number.isInteger(maxMessages) || maxMessages <= 0) {
      throw new InvalidArgumentError('maxMessages must be greater than 0');
    }
    this.maxMessages = maxMessages;
    this.repository = options.repository ?? new InMemoryChatMemoryRepository();
  }

  async add(conversationId: string, messages: Message | readonly Message[]): Promise<void> {
    assertConversationId(conversationId);
    // A missing value reads as the single-message form, which Spring AI rejects by this text.
    if (messages === null || messages === undefined) {
      throw new InvalidArgumentError('message cannot be null');
    }
    const list: readonly Message[] = Array.isArray(messages) ? messages : [messages as Message];
    assertMessages(list);
    if (list.length === 0) return;
    const maxMessages = this.maxMessages;
    await this.repository.append(conversationId, list, {
      retain: (all, appendedFrom) => windowRetain(all, appendedFrom, maxMessages),
    });
  }

  async get(conversationId: string): Promise<Message[]> {
    assertConversationId(conversationId);
    return this.repository.findByConversationId(conversationId);
  }

  async clear(conversationId: string): Promise<void> {
    assertConversationId(conversationId);
    await this.repository.deleteByConversationId(conversationId);
  }
}
