import { UsedTokenSet } from '../internal/used-token-set.js';
import type { Message } from '../messages/index.js';
import type { AppendOptions, ChatMemoryRepository } from './chat-memory-repository.js';
import { assertConversationId, assertMessages } from './conversation-id.js';
import { assertStorableMedia, mediaLimitOption } from './stored-media-limit.js';

/**
 * Keeps conversations in a `Map` of this process. Every read and write copies, so callers never
 * share arrays with the store; each operation runs without awaiting, so appends are atomic.
 */
export class InMemoryChatMemoryRepository implements ChatMemoryRepository {
  private readonly conversations = new Map<string, Message[]>();
  readonly #usedApprovalTokens = new UsedTokenSet();
  readonly #maxMediaBytes: number;

  /**
   * `maxMediaBytes`: most inline media (tool result images, audio, files, as base64) one message
   * may hold; a message over it fails the write with a `MemoryError` and nothing is written.
   * Default 16 MiB.
   */
  constructor(options: { maxMediaBytes?: number } = {}) {
    this.#maxMediaBytes = mediaLimitOption(options.maxMediaBytes);
  }

  /**
   * Marks the single-use token of a pending approval state used (this repository can serve as
   * `approval.tokenStore`): true the first time, false after. In this process only.
   */
  async consumeApprovalToken(token: string, expiresAt: Date): Promise<boolean> {
    return this.#usedApprovalTokens.consume(token, expiresAt);
  }

  async findConversationIds(): Promise<string[]> {
    return [...this.conversations.keys()];
  }

  async findByConversationId(conversationId: string): Promise<Message[]> {
    assertConversationId(conversationId);
    const stored = this.conversations.get(conversationId);
    return stored ? structuredClone(stored) : [];
  }

  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    assertStorableMedia(messages, 'in-memory', conversationId, this.#maxMediaBytes);
    this.store(conversationId, structuredClone([...messages]));
  }

  async deleteByConversationId(conversationId: string): Promise<void> {
    assertConversationId(conversationId);
    this.conversations.delete(conversationId);
  }

  async append(
    conversationId: string,
    messages: readonly Message[],
    options: AppendOptions = {},
  ): Promise<void> {
    assertConversationId(conversationId);
    assertMessages(messages);
    assertStorableMedia(messages, 'in-memory', conversationId, this.#maxMediaBytes);
    const existing = this.conversations.get(conversationId) ?? [];
    const all = [...existing, ...structuredClone([...messages])];
    if (!options.retain) {
      this.store(conversationId, all);
      return;
    }
    const keep = options.retain(structuredClone(all), existing.length);
    this.store(
      conversationId,
      keep.map((index) => all[index]).filter((message) => message !== undefined),
    );
  }

  private store(conversationId: string, messages: Message[]): void {
    if (messages.length === 0) this.conversations.delete(conversationId);
    else this.conversations.set(conversationId, messages);
  }
}
